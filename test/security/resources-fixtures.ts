/**
 * Shared by the managed-resources security tests (issue 9): the REST api of
 * test/integration/resources-rest-fixtures.ts, the manage_resource tool over the same service,
 * and a snapshot of everything a write could leave behind (every resource table and every stored
 * object), so a refusal can be proven to have stored nothing.
 */
import { expect } from 'vitest';
import type { CallToolResult } from '../../shared/mcp-tools/index.js';
import { allowAllTools, invokeTool, ToolRegistry } from '../../shared/mcp-tools/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { manageResourceTool } from '../../shared/resources/index.js';
import { as, multipart, send, type FormPart, type RawResponse, type ResourceRestApi, type Who } from '../integration/resources-rest-fixtures.js';

export function upload(api: ResourceRestApi, who: Who, parts: FormPart[]): Promise<RawResponse> {
  const form = multipart(parts);
  return send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(who), 'content-type': form.contentType }, body: form.body });
}

/** Fields in the documented order, then the file part. */
export function fileForm(opts: { path?: string; name: string; data: Buffer | string; type?: string; fields?: Record<string, string> }): FormPart[] {
  return [
    ...(opts.path !== undefined ? [{ name: 'path', value: opts.path }] : []),
    ...Object.entries(opts.fields ?? {}).map(([name, value]) => ({ name, value })),
    { name: 'file', filename: opts.name, type: opts.type ?? 'text/plain', data: opts.data },
  ];
}

export function call(api: ResourceRestApi, who: Who, method: string, path: string, body?: unknown): Promise<RawResponse> {
  const headers: Record<string, string> = { ...as(who) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(`${api.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

export function expectRefused(res: RawResponse, status: number, error: string, message?: RegExp): void {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json?.error).toBe(error);
  if (message) expect(res.json.message).toMatch(message);
}

const tables = ['resources', 'resource_versions', 'resource_folders', 'resource_aliases', 'resource_writers', 'resource_events'];

/** Every row of every resource table and every stored object: what a refused write must leave as it was. */
export async function snapshot(api: ResourceRestApi): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = { objects: await api.storedObjects() };
  for (const table of tables) {
    const res = await api.db.query(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`);
    state[table] = res.rows.map((r: { row: string }) => r.row);
  }
  return state;
}

/** Runs `write` and proves it changed nothing, stored or recorded. */
export async function unchangedBy<T>(api: ResourceRestApi, write: () => Promise<T>): Promise<T> {
  const before = await snapshot(api);
  const result = await write();
  expect(await snapshot(api)).toEqual(before);
  return result;
}

export interface ToolAnswer {
  isError: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the structured answer freely
  body: any;
  text: string;
}

/** manage_resource over the same service, as `who` (an agent session), through the tool pipeline. */
export function manageResource(api: ResourceRestApi) {
  const registry = new ToolRegistry().register(manageResourceTool(api.service, { config: api.config }));
  return async (who: Who, args: Record<string, unknown>): Promise<ToolAnswer> => {
    const result: CallToolResult = await invokeTool({
      registry,
      access: allowAllTools,
      middlewares: [],
      name: 'manage_resource',
      rawArgs: args,
      ctx: { caller: { subject: who.subject, roles: who.roles, authType: 'apikey' }, sessionId: 'security-test', signal: new AbortController().signal, log: silentLogger() },
    });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    return { isError: result.isError === true, body: result.structuredContent ?? {}, text };
  };
}
