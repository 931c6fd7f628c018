/**
 * tools/call of a tool that does not exist, or that the caller's persona may not use, is a JSON-RPC
 * error -32602 (the same answer for both, so a forbidden name is not revealed); invalid arguments to
 * a tool the caller may use stay a tool result with isError. The audit refusal hook sees all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, textResult, type ToolRefusal } from '../../shared/mcp-tools/index.js';
import type { RunningApi } from '../../api/start.js';
import { connectMcp, startTestApi, testConfig } from '../support/api.js';
import { openRawSession, type RawSession } from './wire.js';

const analystKey = 'analyst-key-0123456789';

const config = `
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${analystKey}, name: ana, roles: [analyst] }
personas:
  definitions:
    analyst:
      roles: [analyst]
      tools: { allow: [echo, platform_info] }
`;

const tools = [
  defineTool({ name: 'echo', toolkit: 'test', description: 'Echo a message', input: z.object({ message: z.string() }), handler: async ({ message }) => textResult(message) }),
  defineTool({ name: 'secret_tool', toolkit: 'test', description: 'Not for analysts', input: z.object({}), handler: async () => textResult('secret') }),
];

async function callError(client: Client, name: string): Promise<McpError> {
  const error = await client.callTool({ name, arguments: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('tools/call of an unknown or forbidden tool', () => {
  let api: RunningApi;
  let client: Client;
  let raw: RawSession;
  const refusals: ToolRefusal[] = [];

  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(config), tools, surface: { onRefused: (r) => refusals.push(r) } });
    client = await connectMcp(api.url, analystKey);
    raw = await openRawSession(api.url, analystKey);
  });
  afterAll(async () => {
    await client?.close();
    await api?.stop();
  });

  it('answers an unknown tool with JSON-RPC error -32602 on the wire', async () => {
    const answer = await raw.request('tools/call', { name: 'no_such_tool', arguments: {} });
    expect(answer.result).toBeUndefined();
    expect(answer.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
  });

  it('answers a tool the persona forbids exactly like an unknown one', async () => {
    const forbidden = await raw.request('tools/call', { name: 'secret_tool', arguments: {} });
    const unknown = await raw.request('tools/call', { name: 'no_such_tool', arguments: {} });
    expect(forbidden.error).toEqual({ ...unknown.error, message: unknown.error.message.replace('no_such_tool', 'secret_tool') });
  });

  it('the SDK client raises the same McpError for both', async () => {
    const unknown = await callError(client, 'no_such_tool');
    const forbidden = await callError(client, 'secret_tool');
    expect(unknown.code).toBe(-32602);
    expect(forbidden.code).toBe(unknown.code);
    expect(forbidden.message).toBe(unknown.message.replace('no_such_tool', 'secret_tool'));
  });

  it('invalid arguments to a tool the caller may use stay a tool result with isError', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { message: 5 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Invalid arguments for echo: message:/) }]);
    const wire = await raw.request('tools/call', { name: 'echo', arguments: {} });
    expect(wire.error).toBeUndefined();
    expect(wire.result.isError).toBe(true);
  });

  it('the refusal hook (audit) sees unknown, forbidden and invalid-argument calls', async () => {
    refusals.length = 0;
    await raw.request('tools/call', { name: 'no_such_tool', arguments: { a: 1 } });
    await raw.request('tools/call', { name: 'secret_tool', arguments: {} });
    await raw.request('tools/call', { name: 'echo', arguments: { message: 5 } });
    await raw.request('tools/call', { name: 'echo', arguments: { message: 'fine' } });
    expect(refusals.map(({ name, reason, tool }) => ({ name, reason, known: tool !== undefined }))).toEqual([
      { name: 'no_such_tool', reason: 'unavailable', known: false },
      { name: 'secret_tool', reason: 'unavailable', known: true },
      { name: 'echo', reason: 'invalid_arguments', known: true },
    ]);
  });
});
