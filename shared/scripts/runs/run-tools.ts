/**
 * Tools that exist only on the MCP session of a run whose entry is `main()` (docs/scripts.md,
 * "platform.export and platform.publish_data"): `platform_export` streams an upstream's answer
 * into a resource, `platform_publish_data` writes a table of values the script computed as a
 * versioned NDJSON or CSV resource. A handler's session (`handle(req)`, an endpoint request)
 * does not have them, so `platform.call` cannot reach them there either. Whoever may call
 * `manage_resource` may call them (the session's access maps them to it); they are audited,
 * gated and counted as any tool call on the session.
 */
import { z } from 'zod';
import type { CallerContext } from '../../identity/index.js';
import { defineTool, jsonResult, type ToolDefinition } from '../../mcp-tools/index.js';
import {
  exportIntoResource,
  exportTargetOf,
  resourceRefusal,
  tablesAfterWrite,
  type ExportTarget,
  type ResourceActor,
  type ResourceService,
  type TableChange,
} from '../../resources/index.js';
import { fetchInit, openFetch, timedOut, type FetchPolicy } from './fetch.js';
import { publishedFile, publishFormats } from './publish.js';
import { Readable } from 'node:stream';

export const EXPORT_TOOL = 'platform_export';
export const PUBLISH_DATA_TOOL = 'platform_publish_data';
/** The tool whose permission admits the run tools (they write resources as it does). */
export const RUN_TOOLS_PERMISSION = 'manage_resource';

export interface RunToolsDeps {
  resources: ResourceService;
  actorOf(caller: CallerContext, sessionId?: string): ResourceActor;
  fetchPolicy: Pick<FetchPolicy, 'allowHosts' | 'timeoutMs'>;
  /** Moves the tables following the file to the version just written (table registration); without it none moves. */
  followTables?: (resourceId: string, version: number) => Promise<TableChange[]>;
}


const target = {
  library: z.string().optional().describe('personal (default), person:<subject>, persona:<name> or global'),
  path: z.string().default('').describe('folder path inside the library'),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  change_summary: z.string().optional(),
};

const exportInput = z.strictObject({
  destination: z.literal('resources'),
  ...target,
  filename: z.string().min(1),
  content_type: z.string().optional().describe("the file's type; default the upstream's Content-Type"),
  source: z.strictObject({ url: z.string().min(1), ...fetchInit.unwrap().shape }),
});

const publishInput = z.strictObject({
  ...target,
  name: z.string().min(1).describe('file name without extension: the file is <name>.ndjson or <name>.csv'),
  format: z.enum(publishFormats).default('ndjson'),
  rows: z.array(z.record(z.string(), z.unknown())),
});

export function runTools(deps: RunToolsDeps): ToolDefinition[] {
  const exportTool = defineTool({
    name: EXPORT_TOOL,
    toolkit: 'platform',
    title: 'Export into a resource',
    description:
      "Streams an upstream's answer (an HTTP request to a host on scripts.fetch.allow_hosts) into the resource at library/path/filename: the first export creates the file, each later one records its next version. An upstream error answer stores nothing and the file keeps its last version. Scripts call it as platform.export.",
    input: exportInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async handler(args, ctx) {
      try {
        const actor = deps.actorOf(ctx.caller, ctx.sessionId);
        const to: ExportTarget = { ...exportTargetOf(args, actor), ...(args.content_type ? { content_type: args.content_type } : {}) };
        const { url: urlText, ...init } = args.source;
        const { response, url, signal } = await openFetch(deps.fetchPolicy, urlText, init, 'platform.export');
        try {
          const result = await exportIntoResource(
            deps.resources,
            actor,
            to,
            { status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') ?? undefined, body: response.body, name: url.host },
            'export',
          );
          return jsonResult({ outcome: result.outcome, resource: result.resource, upstream_status: response.status, table_changes: await tablesAfterWrite(deps.followTables, result) });
        } catch (error) {
          throw timedOut(signal, error, 'platform.export', url, deps.fetchPolicy.timeoutMs);
        }
      } catch (error) {
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });

  const publishTool = defineTool({
    name: PUBLISH_DATA_TOOL,
    toolkit: 'platform',
    title: 'Publish a table of values',
    description:
      'Writes rows (objects) as a table file <name>.ndjson or <name>.csv at library/path: columns are every key in first-seen order, a missing value is null (empty in CSV). The first call creates the file, each later one records its next version. Scripts call it as platform.publish_data.',
    input: publishInput,
    contentArguments: ['rows'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      try {
        const actor = deps.actorOf(ctx.caller, ctx.sessionId);
        const file = publishedFile(args.rows, args.format);
        const result = await deps.resources.create(actor, {
          ...exportTargetOf({ ...args, filename: `${args.name}.${file.extension}` }, actor),
          content_type: file.contentType,
          if_exists: 'replace',
          change_summary: args.change_summary ?? `published ${args.rows.length} rows`,
          origin: 'script',
          body: Readable.from(file.lines()),
        });
        return jsonResult({ outcome: result.outcome, resource: result.resource, rows: args.rows.length, columns: file.columns, table_changes: await tablesAfterWrite(deps.followTables, result) });
      } catch (error) {
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });
  return [exportTool, publishTool];
}
