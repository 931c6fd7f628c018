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
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fetchInit, scriptFetch, type FetchPolicy } from './fetch.js';

export type HostFunctions = Record<string, (...args: unknown[]) => Promise<unknown>>;

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
export async function callTool(client: Client, tool: string, args: Record<string, unknown> | undefined): Promise<unknown> {
  const result = (await client.callTool({ name: tool, arguments: args ?? {} })) as CallToolResult;
  if (result.isError) throw new Error(textOf(result) || `${tool} failed`);
  return result.structuredContent ?? textOf(result);
}

export function platformHost(client: Client, fetchPolicy: FetchPolicy): HostFunctions {
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
  };
}
