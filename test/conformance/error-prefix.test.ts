/**
 * JSON-RPC errors our handlers answer carry their message as is: no `MCP error <code>: ` on the
 * wire, so an SDK client (which adds that prefix when it raises the error) shows it exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningApi } from '../../api/start.js';
import { apiConfigYaml, connectMcp, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { keys, startResourcesMcp, type ResourcesMcp } from '../integration/resources-mcp-fixtures.js';
import { openRawSession, type Json, type RawSession } from './wire.js';

const config = apiConfigYaml({
  server: ['prompts:', '  - { name: brief, content: "Brief for {team}.", arguments: [{ name: team, required: true }] }'],
  extra: 'resources:\n  custom:\n    - { uri: "docs://note", name: Note, mime_type: text/plain, content: hello }\n',
});

/** The requests that fail, with the code each must carry. */
const failing: Array<{ what: string; method: string; params: Record<string, unknown>; code: number; message: RegExp }> = [
  { what: 'unknown tool', method: 'tools/call', params: { name: 'nope', arguments: {} }, code: -32602, message: /^Unknown tool: nope$/ },
  { what: 'unknown prompt', method: 'prompts/get', params: { name: 'nope' }, code: -32602, message: /^unknown prompt: nope$/ },
  { what: 'missing prompt argument', method: 'prompts/get', params: { name: 'brief', arguments: {} }, code: -32602, message: /team/ },
  { what: 'unknown resource', method: 'resources/read', params: { uri: 'docs://missing' }, code: -32002, message: /^resource not found: docs:\/\/missing$/ },
];

async function sdkError(client: Client, method: string, params: Record<string, unknown>): Promise<Error> {
  const call =
    method === 'tools/call'
      ? client.callTool(params as Parameters<Client['callTool']>[0])
      : method === 'prompts/get'
        ? client.getPrompt(params as Parameters<Client['getPrompt']>[0])
        : client.readResource(params as Parameters<Client['readResource']>[0]);
  return call.then(
    () => {
      throw new Error(`${method} succeeded`);
    },
    (e: unknown) => e as Error,
  );
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('protocol error messages', () => {
  let api: RunningApi;
  let raw: RawSession;
  let client: Client;

  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(config) });
    raw = await openRawSession(api.url, testApiKey);
    client = await connectMcp(api.url);
  });
  afterAll(async () => {
    await client?.close();
    await api?.stop();
  });

  it.each(failing)('$what: the wire message has no "MCP error" prefix', async ({ method, params, code, message }) => {
    const answer: Json = await raw.request(method, params);
    expect(answer.error.code).toBe(code);
    expect(answer.error.message).toMatch(message);
    expect(answer.error.message).not.toContain('MCP error');
  });

  it.each(failing)('$what: an SDK client shows the prefix exactly once', async ({ method, params, code }) => {
    const error = await sdkError(client, method, params);
    expect(error.message.startsWith(`MCP error ${code}: `)).toBe(true);
    expect(occurrences(error.message, 'MCP error')).toBe(1);
  });
});

describe('protocol error messages of managed resources', () => {
  let env: ResourcesMcp;
  beforeAll(async () => {
    env = await startResourcesMcp();
  });
  afterAll(async () => env?.stop());

  it('an invalid resources/list cursor and an unknown managed resource carry clean messages', async () => {
    const raw = await openRawSession(env.api.url, keys.bob);
    const cursor: Json = await raw.request('resources/list', { cursor: 'not-a-cursor' });
    expect(cursor.error).toEqual({ code: -32602, message: expect.stringMatching(/^invalid cursor: /) });
    const missing: Json = await raw.request('resources/read', { uri: 'mcp://global/missing.md' });
    expect(missing.error).toEqual({ code: -32002, message: 'resource not found: mcp://global/missing.md', data: { uri: 'mcp://global/missing.md' } });
    const client = await env.connect('bob');
    const error = await client.listResources({ cursor: 'not-a-cursor' }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(occurrences(error?.message ?? '', 'MCP error')).toBe(1);
  });
});
