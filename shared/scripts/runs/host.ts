/**
 * The `platform` object inside a script: the sandbox's host functions (async, JSON in and out).
 * Every platform call but fetch is an MCP tool call on the run's session (session.ts), so the
 * principal's persona decides what it may call and every call is audited under it. The sandbox
 * exposes each key as `platform.<key>`; names are flat (`platform.read_resource`), since the
 * sandbox builds no nested objects.
 *
 * - call(tool, args)            any tool: the result's structuredContent, else its text; an error result throws its text
 * - sql(query, {connection})    sql_query: {columns, rows, stats, …}
 * - read_resource(ref)          manage_resource read: {resource, content | content_base64 | content_omitted}
 * - write_resource({library?, path, file_name, content | content_base64, content_type?, description?, tags?, if_exists?, change_summary?})
 *                               manage_resource create (if_exists default replace: the first write creates, later ones
 *                               add versions): {outcome, resource}; the writer recorded is the script
 * - fetch(url, {method?, headers?, body?})   the host's request under scripts.fetch (fetch.ts): {status, headers, body}
 * - export({destination: 'resources', path, filename, library?, content_type?, description?, tags?, change_summary?},
 *          {url, method?, headers?, body?})
 *                               platform_export (run-tools.ts): the upstream's answer streams into the file; {outcome, resource, upstream_status}
 * - publish_data({name, path?, library?, format?: 'ndjson' | 'csv', description?, tags?, change_summary?}, rows)
 *                               platform_publish_data (run-tools.ts): {outcome, resource, rows, columns}
 *
 * export and publish_data belong to main() runs: inside a handler (entry `handle`) they throw,
 * and the handler's session has no such tools for platform.call to reach.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LazyHost } from '../sandbox/index.js';
import type { EntryPoint } from '../types.js';
import { fetchInit, scriptFetch, type FetchPolicy } from './fetch.js';
import { EXPORT_TOOL, PUBLISH_DATA_TOOL } from './run-tools.js';

/** The names of `platform`'s functions, in platformHost's order. */
export const PLATFORM_HOST_NAMES = ['call', 'sql', 'read_resource', 'write_resource', 'fetch', 'export', 'publish_data'] as const;

export type HostFunctions = Record<(typeof PLATFORM_HOST_NAMES)[number], (...args: unknown[]) => Promise<unknown>>;

/** What the host functions need of the run's MCP session: its tool calls. */
export type ToolCaller = Pick<Client, 'callTool'>;

const toolArgs = z.record(z.string(), z.unknown()).optional();
const sqlOptions = z.strictObject({ connection: z.string().optional(), limit: z.number().int().positive().optional() }).optional();
const resourceWrite = z.strictObject({
  library: z.string().optional(),
  path: z.string().default(''),
  file_name: z.string().min(1),
  content: z.string().optional(),
  content_base64: z.string().optional(),
  content_type: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  if_exists: z.enum(['fail', 'skip_unchanged', 'replace']).default('replace'),
  change_summary: z.string().optional(),
});

/** Parses a script's argument, refusing with the function's name and the first problem. */
function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${what}: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  return parsed.data;
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** One tool call on the session: what the script receives, or an exception with the refusal's or error's text. */
export async function callTool(client: ToolCaller, tool: string, args: Record<string, unknown> | undefined): Promise<unknown> {
  const result = (await client.callTool({ name: tool, arguments: args ?? {} })) as CallToolResult;
  if (result.isError) throw new Error(textOf(result) || `${tool} failed`);
  return result.structuredContent ?? textOf(result);
}

const plainObject = z.record(z.string(), z.unknown());
const exportDestination = plainObject.refine((d) => d.destination === 'resources', { message: "destination must be 'resources'" });

/** The function a handler gets in place of one that only main() runs may call. */
function mainOnly(name: string): () => Promise<never> {
  return async () => {
    throw new Error(`platform.${name} is not available inside a handler (handle(req)): it belongs to main() runs, draft or scheduled`);
  };
}

export function platformHost(client: ToolCaller, fetchPolicy: FetchPolicy, entry: EntryPoint): HostFunctions {
  const mainRun = entry === 'main';
  return {
    call: async (tool, args) => callTool(client, parse(z.string().min(1), tool, 'platform.call tool'), parse(toolArgs, args, 'platform.call args')),
    sql: async (query, options) => {
      const opts = parse(sqlOptions, options, 'platform.sql options');
      return callTool(client, 'sql_query', { sql: parse(z.string().min(1), query, 'platform.sql query'), ...opts });
    },
    read_resource: async (ref) => callTool(client, 'manage_resource', { action: 'read', reference: parse(z.string().min(1), ref, 'platform.read_resource') }),
    write_resource: async (spec) => {
      const { file_name, ...rest } = parse(resourceWrite, spec, 'platform.write_resource');
      return callTool(client, 'manage_resource', { action: 'create', filename: file_name, ...rest });
    },
    fetch: async (url, init) => scriptFetch(fetchPolicy, parse(z.string(), url, 'platform.fetch url'), parse(fetchInit, init, 'platform.fetch init')),
    export: mainRun
      ? async (destination, source) =>
          callTool(client, EXPORT_TOOL, { ...parse(exportDestination, destination, 'platform.export destination'), source: parse(plainObject, source, 'platform.export source') })
      : mainOnly('export'),
    publish_data: mainRun
      ? async (spec, rows) => callTool(client, PUBLISH_DATA_TOOL, { ...parse(plainObject, spec, 'platform.publish_data'), rows: parse(z.array(plainObject), rows, 'platform.publish_data rows') })
      : mainOnly('publish_data'),
  };
}

/** The `platform` functions of one run, made when its script first calls one (most handlers call none). */
export class PlatformHost extends LazyHost {
  #functions: HostFunctions | undefined;

  /** `confirmed`: the run started before it was known to be wanted; each call waits for the decision (afterConfirmation). */
  constructor(
    private readonly client: ToolCaller,
    private readonly fetchPolicy: FetchPolicy,
    private readonly entry: EntryPoint,
    private readonly confirmed?: Promise<boolean>,
  ) {
    super();
  }

  get names(): readonly string[] {
    return PLATFORM_HOST_NAMES;
  }

  functions(): HostFunctions {
    return (this.#functions ??= heldUntil(this.confirmed, platformHost(this.client, this.fetchPolicy, this.entry)));
  }
}

/** What a platform call of a run ends with when the run's answer was discarded before it could be used. */
export const DISCARDED_RUN = 'this run was discarded (its endpoint changed while it ran): its platform calls were not made';

/**
 * `effect`, once `confirmed` (when given) says the run is wanted; refused when it says not. A run
 * started beside its endpoint's freshness read (docs/endpoints.md) reaches nothing outside its
 * sandbox before the read confirms the code it runs is still the endpoint's.
 */
export async function afterConfirmation<T>(confirmed: Promise<boolean> | undefined, effect: () => Promise<T>): Promise<T> {
  if (confirmed !== undefined && !(await confirmed)) throw new Error(DISCARDED_RUN);
  return effect();
}

function heldUntil(confirmed: Promise<boolean> | undefined, functions: HostFunctions): HostFunctions {
  if (confirmed === undefined) return functions;
  const held = { ...functions };
  for (const name of PLATFORM_HOST_NAMES) held[name] = (...args: unknown[]) => afterConfirmation(confirmed, () => functions[name](...args));
  return held;
}
