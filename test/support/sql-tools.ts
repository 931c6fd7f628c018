/** Calling the sql_* tools directly in tests, and a toolkit with one Trino connection. */
import { parseConfig } from '../../shared/config/index.js';
import { anonymousCaller } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import type { CallToolResult, ToolDefinition } from '../../shared/mcp-tools/index.js';
import { createSqlToolkit, type SqlToolkit } from '../../shared/sql/index.js';

/** Runs a tool's handler as an anonymous caller, its arguments parsed as the MCP layer would. */
export async function callTool(tools: ToolDefinition[], name: string, args: Record<string, unknown>, signal = new AbortController().signal): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.handler(tool.input.parse(args), { caller: anonymousCaller, signal, log: silentLogger() });
}

/** The text of a result's first content block. */
export const toolText = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/**
 * A sql toolkit whose one connection, `cluster`, is the Trino server at `url` (TLS when the URL
 * is https), as user `analyst`; `extra` lines are further keys of the connection.
 */
export function trinoToolkit(url: string, opts: { catalog: string; schema: string; extra?: string[] }): SqlToolkit {
  const { hostname, port, protocol } = new URL(url);
  const keys = [`host: ${hostname}`, `port: ${port}`, 'user: analyst', `catalog: ${opts.catalog}`, `schema: ${opts.schema}`, `ssl: ${protocol === 'https:'}`, ...(opts.extra ?? [])];
  const yaml = `toolkits:\n  sql:\n    cluster:\n${keys.map((k) => `      ${k}`).join('\n')}\n`;
  return createSqlToolkit(parseConfig(yaml, {}).config, { log: silentLogger() });
}
