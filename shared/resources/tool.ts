/**
 * The `manage_resource` agent tool (spec document 2, "Agent tools"): create, replace_content,
 * update, delete and read managed resources where they are, and extract archives (through the
 * extractArchive workflow: `requests`). Payload shapes beyond the parameters the spec names are ours (documented in the tool
 * description): results are JSON `{resource}` (plus `outcome` on create), failures are tool errors
 * whose text is the service's message and whose structured content is `{error, message, ...details}`.
 * The read action counts as an agent content read (door `resources_read`: stamps last read, audited)
 * only when it returns content. Every action on a named file follows the by-id rule (authority.ts
 * `dereference` to read, `change` to write), so a platform administrator reads what it may change.
 */
import { z } from 'zod';
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { defineTool, jsonResult, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { isTextContent, readAll, toReadable } from '../objstore/index.js';
import { resourceActor } from './actor.js';
import { folderActions } from './authority.js';
import { actorOrigin } from './context.js';
import { normalizeFolderPath } from './folders.js';
import { formatLibrary, LibraryTextError, parseLibrary, sameLibrary } from './library.js';
import { canonicalUri } from './uri.js';
import { defaultExtractRequestId, requestIdProblem, type ResourceRequests } from './requests.js';
import type { TableHooks, UploadTableReport } from './archives/extract.js';
import { ResourceError, type Library, type ResourceActor, type ResourceService, type ResourceView } from './types.js';

export interface ManageResourceToolOptions {
  config: Pick<PlatformConfig, 'personas' | 'admin'>;
  /** Content the read action inlines (default 1 MB, as search `fetch`); above it, details only. */
  readInlineBytes?: number;
  /** The actor of a call (default: the caller as an agent, its session the writer); the api's also records a script's run as the script. */
  actorOf?: (caller: CallerContext, sessionId?: string) => ResourceActor;
  /** Requests answered by a workflow (extract), through the api's Temporal client; without it extract is refused as not available. */
  requests?: ResourceRequests;
  /** Registered tables (shared/tables): a new version moves the tables that correct the file, reported as `tables`. */
  tables?: Pick<TableHooks, 'afterUpload' | 'tablesOf'>;
}

export const manageResourceActions = ['create', 'replace_content', 'update', 'delete', 'read', 'extract'] as const;

const defaultReadInlineBytes = 1024 * 1024;

const input = z.object({
  action: z.enum(manageResourceActions).describe('The operation.'),
  reference: z
    .string()
    .optional()
    .describe('The target: `mcp:resource:<id>` or an address (`mcp://…` canonical URI or a former one). Instead of library + path + filename.'),
  library: z
    .string()
    .optional()
    .describe('`personal` (default: your own library), `persona:<name>` or `global`. Where create files, and where path + filename point.'),
  path: z
    .string()
    .optional()
    .describe(
      'Folder path inside the library (lowercase letters, digits, hyphens; e.g. `templates/q3`); "" is the library root. ' +
        'With a reference on update: the folder to move the file to (same library). On update without reference or filename: the folder to describe.',
    ),
  filename: z.string().optional().describe('File name (fixed at creation; a replacement keeps it).'),
  content: z.string().optional().describe('New content as text (UTF-8), for create and replace_content.'),
  content_base64: z.string().optional().describe('New content as base64 bytes, instead of content, for binary files.'),
  content_type: z.string().optional().describe('MIME type of the content; guessed from the bytes and the file name when omitted.'),
  display_name: z.string().optional().describe('Display name; defaults to the file name without extension.'),
  description: z.string().optional().describe('Free text describing the file (or the folder, on a folder update).'),
  tags: z.array(z.string()).optional().describe('Tag list (replaces the current tags on update).'),
  search_setting: z.enum(['default', 'contents', 'details_only', 'not_indexed']).optional().describe('How search indexes the file.'),
  if_exists: z
    .enum(['fail', 'skip_unchanged', 'replace'])
    .optional()
    .describe('On create when the address is taken: `fail` (default), `skip_unchanged` (new version only when the bytes differ), `replace` (first call creates, later calls revise the same file).'),
  force: z.boolean().optional().describe('delete even when assets, prompts or a registered table point at the file.'),
  change_summary: z.string().optional().describe('Shown under the version written by create (revision) or replace_content.'),
  members: z
    .union([z.string(), z.array(z.string()).max(100)])
    .optional()
    .describe('extract: glob(s) over member paths in the archive (`*` within a folder, `**` across folders, e.g. `data/**/*.csv`); default every member.'),
  destination: z
    .enum(['beside', 'folder'])
    .optional()
    .describe('extract: `beside` (default) files the members in the archive\'s folder, keeping their folders; `folder` under a new folder named for the archive there.'),
  request_id: z
    .string()
    .optional()
    .describe('extract: names the request, so calling again with it answers the same result (default: derived from you, the archive version and the selection).'),
});

type Args = z.output<typeof input>;

const description = `Create, revise, describe, delete and read managed resources: the files people keep for agents to use verbatim (templates, brand files, data dictionaries, samples, references), in your personal library, a persona library or the global one.

Actions:
- create: library (default personal), path, filename, content or content_base64, optional content_type, display_name, description, tags, search_setting, if_exists, change_summary. Result {outcome: created|revised|unchanged, resource}.
- replace_content: the target and content or content_base64 (+ content_type, change_summary); writes the next version, keeping id, name and address.
A new version of a file registered as a table that corrects the file (manage_table) adds tables: {table_changes, corrected?}: when the upload has broken records, the corrected copy written above it (both versions reported).
- update: the target and any of display_name, description, tags, search_setting, path (moves the file to that folder of the same library). Agents cannot move files between libraries. Without reference and filename, path + description describes that folder.
- delete: the target; refused while assets, prompts or a registered table point at the file unless force is true.
- read: the target; details plus its content inline (text as content, other bytes as content_base64) when at most 1 MB. Larger files: MCP resources/read. A file registered as a table adds tables: [{table, connection, version, state}] (state says when a table is pinned at an older version).
- extract: the target is a zip, tar or tar.gz resource; optional members (globs), destination (beside | folder), request_id. Writes each member as a resource (a new version where a different file is at its address, none where the same bytes are) and returns {request_id, archive, destination, members: [{member, uri, version, reference, outcome, table_changes}]}. Refused with nothing written: path traversal, links and devices, executables, names the folder rule cannot keep, and archives past the ceilings (zip bombs).
The target is reference (mcp:resource:<id> or an address), or library + path + filename.
Every action on a named file follows one rule: you may read a file you can open by its reference (your own, your personas', global; a platform administrator any file) and change or delete it when you uploaded it or administer its library. Each resource in a result carries allowed_actions (read, change, delete, move_targets, move_to_people, recapture, register, edit_source — the last for the portal's source editor): what you may do with it.`;

/** A failure the agent reads: the service's message, and the code and details as structured content. */
function errorResult(code: string, message: string, details?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: message }], structuredContent: { error: code, message, ...details }, isError: true };
}

/** The tool result of a resource refusal (a ResourceError, bad library text); undefined for any other error. */
export function resourceRefusal(error: unknown): CallToolResult | undefined {
  if (error instanceof ResourceError) return errorResult(error.code, error.message, error.details);
  if (error instanceof LibraryTextError) return errorResult('invalid', error.message);
  return undefined;
}

function invalid(message: string): ResourceError {
  return new ResourceError('invalid', message);
}

const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes a write carries: exactly one of content (text) and content_base64. */
function contentOf(args: Args, action: string): Buffer {
  if (args.content !== undefined && args.content_base64 !== undefined) {
    throw invalid(`${action}: give content (text) or content_base64 (bytes), not both`);
  }
  if (args.content !== undefined) return Buffer.from(args.content, 'utf8');
  if (args.content_base64 !== undefined) {
    const compact = args.content_base64.replace(/\s+/g, '');
    if (!strictBase64.test(compact)) throw invalid('content_base64 is not valid base64 (A-Z, a-z, 0-9, +, /, = padding)');
    return Buffer.from(compact, 'base64');
  }
  throw invalid(`${action} needs the file's content: content (text) or content_base64 (bytes)`);
}

function libraryOf(args: Args, actor: ResourceActor): Library {
  return parseLibrary(args.library ?? 'personal', actor.subject);
}

/** The resource an action names: by reference or address, else by library + path + filename. */
async function target(service: ResourceService, actor: ResourceActor, args: Args): Promise<ResourceView> {
  if (args.reference !== undefined && args.reference.trim() !== '') return service.resolve(actor, args.reference.trim());
  if (args.filename !== undefined) {
    return service.resolve(actor, canonicalUri(libraryOf(args, actor), normalizeFolderPath(args.path), args.filename));
  }
  throw invalid(`${args.action} needs its target: reference (mcp:resource:<id> or an address), or library, path and filename`);
}

/** The reply's `tables` after a new version: what the tables over the file did, when they did anything. */
async function tablesAfter(tables: ManageResourceToolOptions['tables'], actor: ResourceActor, resource: ResourceView): Promise<{ tables?: UploadTableReport }> {
  const report = await tables?.afterUpload(actor, resource.id);
  return report && report.table_changes.length > 0 ? { tables: report } : {};
}

async function create(service: ResourceService, actor: ResourceActor, args: Args, tables: ManageResourceToolOptions['tables']): Promise<CallToolResult> {
  if (args.filename === undefined) throw invalid('create needs filename');
  const body = contentOf(args, 'create');
  const result = await service.create(actor, {
    library: libraryOf(args, actor),
    path: normalizeFolderPath(args.path),
    file_name: args.filename,
    ...(args.display_name !== undefined ? { display_name: args.display_name } : {}),
    ...(args.description !== undefined ? { description: args.description } : {}),
    ...(args.tags !== undefined ? { tags: args.tags } : {}),
    ...(args.content_type !== undefined ? { content_type: args.content_type } : {}),
    ...(args.search_setting !== undefined ? { search_setting: args.search_setting } : {}),
    if_exists: args.if_exists ?? 'fail',
    ...(args.change_summary !== undefined ? { change_summary: args.change_summary } : {}),
    origin: actorOrigin(actor),
    body: toReadable(body),
  });
  return jsonResult({ outcome: result.outcome, resource: result.resource, ...(result.outcome === 'revised' ? await tablesAfter(tables, actor, result.resource) : {}) });
}

async function replaceContent(service: ResourceService, actor: ResourceActor, args: Args, tables: ManageResourceToolOptions['tables']): Promise<CallToolResult> {
  const body = contentOf(args, 'replace_content');
  const current = await target(service, actor, args);
  const resource = await service.replaceContent(actor, current.id, {
    body: toReadable(body),
    ...(args.content_type !== undefined ? { content_type: args.content_type } : {}),
    ...(args.change_summary !== undefined ? { change_summary: args.change_summary } : {}),
    origin: actorOrigin(actor),
  });
  return jsonResult({ resource, ...(await tablesAfter(tables, actor, resource)) });
}

async function update(service: ResourceService, actor: ResourceActor, args: Args): Promise<CallToolResult> {
  const byReference = args.reference !== undefined && args.reference.trim() !== '';
  if (!byReference && args.filename === undefined) {
    // A folder: path + description.
    if (args.path === undefined || args.description === undefined) {
      throw invalid('update needs a target: reference or filename for a file, or path and description to describe a folder');
    }
    const library = libraryOf(args, actor);
    const path = normalizeFolderPath(args.path);
    await service.describeFolder(actor, library, path, args.description);
    return jsonResult({
      folder: { library: formatLibrary(library), path, description: args.description, allowed_actions: folderActions(actor, library, path) },
    });
  }
  const current = await target(service, actor, args);
  // By reference, `library` may only restate where the file is (spec: agents cannot move between libraries).
  if (byReference && args.library !== undefined) {
    const requested = libraryOf(args, actor);
    if (!sameLibrary(requested, parseLibrary(current.library, actor.subject))) {
      throw new ResourceError(
        'forbidden',
        `agents cannot move resources between libraries: ${current.reference} is in ${current.library}, not ${formatLibrary(requested)}; ` +
          'a person can move it in the portal (Edit details, top-level folder)',
        { library: current.library, requested_library: formatLibrary(requested) },
      );
    }
  }
  const changes = {
    ...(args.display_name !== undefined ? { display_name: args.display_name } : {}),
    ...(args.description !== undefined ? { description: args.description } : {}),
    ...(args.tags !== undefined ? { tags: args.tags } : {}),
    ...(args.search_setting !== undefined ? { search_setting: args.search_setting } : {}),
    ...(byReference && args.path !== undefined ? { path: normalizeFolderPath(args.path) } : {}),
  };
  if (Object.keys(changes).length === 0) {
    throw invalid('update changes nothing: give display_name, description, tags, search_setting, or (with reference) path');
  }
  const resource = await service.update(actor, current.id, changes);
  return jsonResult({ resource });
}

async function remove(service: ResourceService, actor: ResourceActor, args: Args): Promise<CallToolResult> {
  const current = await target(service, actor, args);
  await service.delete(actor, current.id, { force: args.force ?? false });
  return jsonResult({ deleted: true, resource: current });
}

async function read(service: ResourceService, actor: ResourceActor, args: Args, inlineBytes: number, tables: ManageResourceToolOptions['tables']): Promise<CallToolResult> {
  const current = await target(service, actor, args);
  // The tables over the file and where each stands (pinned at an older version, following, correcting).
  const registered = (await tables?.tablesOf(actor, current.id)) ?? [];
  const withTables = registered.length > 0 ? { tables: registered } : {};
  if (current.size > inlineBytes) {
    return jsonResult({
      ...withTables,
      resource: current,
      content_omitted: `the file is ${current.size} bytes; the read action inlines at most ${inlineBytes}. Read ${current.uri} with MCP resources/read.`,
    });
  }
  // The by-id rule, as for every other action on a named file: a platform administrator reads what
  // it may change (MCP resources/read stays membership-scoped).
  const { resource, body } = await service.openContent(actor, current.id, 'resources_read', 'dereference');
  const { bytes, cut } = await readAll(body, inlineBytes);
  if (cut) {
    return jsonResult({
      ...withTables,
      resource,
      content_omitted: `the file grew past ${inlineBytes} bytes while being read; read ${resource.uri} with MCP resources/read.`,
    });
  }
  return jsonResult(
    isTextContent(resource.content_type, bytes)
      ? { ...withTables, resource, content: bytes.toString('utf8') }
      : { ...withTables, resource, content_base64: bytes.toString('base64') },
  );
}

async function extract(service: ResourceService, requests: ResourceRequests | undefined, actor: ResourceActor, args: Args): Promise<CallToolResult> {
  if (!requests) {
    return errorResult('not_available', 'manage_resource action "extract" needs the platform\'s Temporal workers, which this server does not reach (temporal.address).');
  }
  const archive = await target(service, actor, args);
  const members = typeof args.members === 'string' ? [args.members] : args.members;
  const request = { resourceId: archive.id, ...(members?.length ? { members } : {}), destination: args.destination ?? 'beside', origin: actorOrigin(actor) } as const;
  const requestId = args.request_id?.trim() || defaultExtractRequestId(actor.subject, archive, request);
  const problem = requestIdProblem(requestId);
  if (problem) throw invalid(problem);
  const result = await requests.extract(actor, request, requestId);
  return jsonResult({ request_id: requestId, ...result });
}

export function manageResourceTool(service: ResourceService, opts: ManageResourceToolOptions): ToolDefinition {
  const inlineBytes = opts.readInlineBytes ?? defaultReadInlineBytes;
  return defineTool({
    name: 'manage_resource',
    toolkit: 'platform',
    title: 'Manage resources',
    description,
    input,
    contentArguments: ['content', 'content_base64'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      const actor = opts.actorOf
        ? opts.actorOf(ctx.caller, ctx.sessionId)
        : resourceActor(ctx.caller, { config: opts.config, ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}), origin: 'agent' });
      try {
        switch (args.action) {
          case 'create':
            return await create(service, actor, args, opts.tables);
          case 'replace_content':
            return await replaceContent(service, actor, args, opts.tables);
          case 'update':
            return await update(service, actor, args);
          case 'delete':
            return await remove(service, actor, args);
          case 'read':
            return await read(service, actor, args, inlineBytes, opts.tables);
          case 'extract':
            return await extract(service, opts.requests, actor, args);
        }
      } catch (error) {
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });
}
