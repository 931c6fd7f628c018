/**
 * The `manage_table` agent tool (spec document 2, "Agent tools"): register a CSV, TSV or NDJSON
 * resource as a table in a SQL connection's scratch catalog, unregister it, list registrations.
 * Results are JSON; refusals are tool errors whose text is the reason and whose structured content
 * is `{error, message, ...details}` (the check's refusal carries rows and columns).
 */
import { z } from 'zod';
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { defineTool, jsonResult, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, resourceActor, resourceRefusal, type ResourceActor } from '../resources/index.js';
import type { TableDeps } from './deps.js';
import { listTables, registerTable, unregisterTable } from './register.js';
import { TableError } from './rules.js';

export interface ManageTableToolOptions {
  config: Pick<PlatformConfig, 'personas' | 'admin'>;
  /** The actor of a call (default: the caller as an agent, its session the writer). */
  actorOf?: (caller: CallerContext, sessionId?: string) => ResourceActor;
}

const input = z.object({
  action: z.enum(['register', 'unregister', 'list']).describe('The operation.'),
  reference: z.string().optional().describe('register: the file (`mcp:resource:<id>` or its address). list: only this file\'s tables.'),
  connection: z.string().optional().describe('The SQL connection whose scratch catalog holds the table (register, unregister; list: only this one).'),
  table_name: z
    .string()
    .optional()
    .describe('register: the table name (default: a slug of the file name); the persona is always added as a prefix. unregister: the registered name.'),
  follow: z.boolean().optional().describe('register: follow new versions written by exports and extractions (default true); false pins the table at this version.'),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe(`list: tables read per page (default ${DEFAULT_LIST_LIMIT}, at most ${MAX_LIST_LIMIT}).`),
  cursor: z.string().max(1024).optional().describe('list: the previous page\'s next_cursor.'),
  correct: z
    .boolean()
    .optional()
    .describe('register: when the file has line breaks inside cells, carriage-return-only line ends or non-UTF-8 text, save a corrected copy as a new version and register it; the table then corrects later uploads too. Registering again without it turns correction off.'),
});

type Args = z.output<typeof input>;

const description = `Register a managed CSV, TSV or NDJSON file as a SQL table. Read it with sql_query.

Actions:
- register: reference, connection, optional table_name, follow, correct. The table lives in the connection's scratch catalog, named <persona>_<name> (a persona file: its persona; a global file: global; a personal file: your active persona, else personal). It reads the file's current version and stays pinned there unless follow is on, in which case new versions written by exports and extractions move it. The file is checked first: a cell holding a line break, a line ending in a carriage return only, or text that is not UTF-8 refuses the registration, saying how many rows and which columns; with correct: true a corrected copy is saved as a new version (every record on one line, cells on one line, UTF-8, with a change summary) and registered. Result {table, change, corrected?, workflow_id?}: large corrections run in the background (workflow_id) and the table appears when done.
- unregister: connection and table_name; drops the table (the file stays).
- list: optional reference, connection, limit and cursor; each table with its version, whether it follows, is pinned, corrects the file, and where it stands. Paged: at most limit tables (default 100) per call; pass next_cursor back for the next page until it is null (a page leaves out tables over files you cannot open, so it may hold fewer).
You may register a file you uploaded, or one in a library you administer.`;

function errorResult(code: string, message: string, details?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: message }], structuredContent: { error: code, message, ...details }, isError: true };
}

function need(value: string | undefined, what: string, action: string): string {
  if (value === undefined || value.trim() === '') throw new TableError('invalid', `${action} needs ${what}`);
  return value.trim();
}

async function run(deps: TableDeps, actor: ResourceActor, args: Args): Promise<CallToolResult> {
  switch (args.action) {
    case 'register':
      return jsonResult({
        ...(await registerTable(deps, actor, {
          reference: need(args.reference, 'reference (the file)', 'register'),
          connection: need(args.connection, 'connection', 'register'),
          ...(args.table_name !== undefined ? { table_name: args.table_name } : {}),
          ...(args.follow !== undefined ? { follow: args.follow } : {}),
          ...(args.correct !== undefined ? { correct: args.correct } : {}),
        })),
      });
    case 'unregister':
      return jsonResult({
        unregistered: await unregisterTable(deps, actor, { connection: need(args.connection, 'connection', 'unregister'), table_name: need(args.table_name, 'table_name', 'unregister') }),
      });
    case 'list': {
      const page = await listTables(deps, actor, {
        ...(args.reference !== undefined ? { reference: args.reference } : {}),
        ...(args.connection !== undefined ? { connection: args.connection } : {}),
        ...(args.limit !== undefined ? { limit: args.limit } : {}),
        ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
      });
      return jsonResult({ tables: page.items, next_cursor: page.next_cursor });
    }
  }
}

export function manageTableTool(deps: TableDeps, opts: ManageTableToolOptions): ToolDefinition {
  return defineTool({
    name: 'manage_table',
    toolkit: 'platform',
    title: 'Manage tables',
    description,
    input,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const actor = opts.actorOf
        ? opts.actorOf(ctx.caller, ctx.sessionId)
        : resourceActor(ctx.caller, { config: opts.config, ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}), origin: 'agent' });
      try {
        return await run(deps, actor, args);
      } catch (error) {
        if (error instanceof TableError) return errorResult(error.code, error.message, error.details);
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });
}
