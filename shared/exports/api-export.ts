/**
 * api_export: one HTTP request (GET or POST) to a configured upstream (`toolkits.api.<name>`),
 * its answer streamed into a resource. The request names a path under the upstream's base URL
 * inside its allowed prefixes (upstream-path.ts refuses everything that could step outside); the
 * upstream's headers and credentials are added on the server and never returned. An error status
 * stores nothing and the file keeps its last version.
 */
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../mcp-tools/index.js';
import { exportIntoResource, exportResourceInput, exportTargetOf, resourceRefusal, ResourceError } from '../resources/index.js';
import { exportOutcome, type ExportToolsDeps } from './results.js';
import { upstreamUrl } from './upstream-path.js';
import { openUpstream, upstreamFailure, type HttpUpstream } from './upstream-http.js';

const input = z.object({
  api: z.string().optional().describe('The upstream (toolkits.api name); empty means the first configured one'),
  method: z.enum(['GET', 'POST']).default('GET'),
  path: z.string().min(1).describe("Path under the upstream's base URL, e.g. /reports/daily (inside its allowed paths)"),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe('Query parameters'),
  body: z.unknown().optional().describe('A JSON body (POST only)'),
  accept: z.string().optional().describe('Accept header for the upstream'),
  content_type: z.string().optional().describe("The stored file's type; default the upstream's Content-Type"),
  resource: exportResourceInput.describe('Where the file is: the first export creates it, later ones record its next version'),
});

/** The names api_export offers, alphabetically (the first is the default). */
export function apiNames(deps: Pick<ExportToolsDeps, 'config'>): string[] {
  return Object.keys(deps.config.toolkits.api).sort();
}

export function apiExportTool(deps: ExportToolsDeps): ToolDefinition {
  const names = apiNames(deps);
  return defineTool({
    name: 'api_export',
    toolkit: 'api',
    title: "Export an API's answer into a resource",
    description:
      `Sends one GET or POST request to a configured API (${names.join(', ')}) and streams its answer into the resource at resource.library/path/filename. ` +
      "The path is under the API's base URL and inside its allowed paths; credentials are added by the platform. " +
      'The first export creates the file, each later one to the same path records its next version; an error answer stores nothing and the file keeps its last version. ' +
      'The result carries resource.reference and table_changes.',
    input,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async handler(args, ctx) {
      try {
        const name = args.api?.trim() || names[0]!;
        const instance = deps.config.toolkits.api[name];
        if (!instance) throw new ResourceError('invalid', `unknown api "${name}"; configured: ${names.join(', ')}`);
        if (args.body !== undefined && args.method !== 'POST') throw new ResourceError('invalid', 'body is sent with POST only');
        const scope = { baseUrl: instance.base_url, allowedPaths: instance.allowed_paths };
        const built = upstreamUrl(scope, args.path, args.query);
        if ('problem' in built) throw new ResourceError('invalid', `api_export refused: ${built.problem}; nothing was requested`);
        const upstream: HttpUpstream = {
          name: `api "${name}"`,
          headers: instance.headers,
          ...(instance.auth ? { auth: instance.auth } : {}),
          timeoutMs: instance.timeout,
          maxBytes: instance.max_bytes,
          scope,
        };
        const actor = deps.actorOf(ctx.caller, ctx.sessionId);
        const target = exportTargetOf(args.resource, actor);
        const opened = await openUpstream(upstream, { method: args.method, url: built.url, json: args.body, ...(args.accept ? { accept: args.accept } : {}) }, ctx.signal);
        let created;
        try {
          created = await exportIntoResource(
            deps.resources,
            actor,
            { change_summary: `export from ${opened.answer.name}`, ...target, ...(args.content_type ? { content_type: args.content_type } : {}) },
            opened.answer,
            'export',
          );
        } catch (error) {
          throw upstreamFailure(upstream, opened.url, error, opened.deadline, ctx.signal);
        }
        return await exportOutcome(deps, created, { api: name, upstream_status: opened.answer.status });
      } catch (error) {
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });
}
