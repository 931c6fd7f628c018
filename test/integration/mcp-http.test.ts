import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';

const initializeBody = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function connect(url: string, headers: Record<string, string> = { authorization: `Bearer ${testApiKey}` }) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

/** Reads a JSON-RPC answer whether the server chose JSON or an SSE stream. */
async function rpcResult(response: Response): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const text = await response.text();
  if (response.headers.get('content-type')?.includes('text/event-stream')) {
    const data = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
    return JSON.parse(data.at(-1)!);
  }
  return JSON.parse(text);
}

describe('MCP over Streamable HTTP (stateful, memory sessions)', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({
      // /mcp reads up to max(body_limit, one asset save: 16,384 bytes as base64 + 64 KiB) = 87,384 bytes.
      config: testConfig(apiConfigYaml({ server: ['name: acme-data', 'body_limit: 65536'], extra: 'portal:\n  max_content_size: 16384\n' })),
    });
  });
  afterAll(async () => api?.stop());

  it('initializes, lists tools, calls platform_info with the session header round trip', async () => {
    const { client, transport } = await connect(api.url);
    expect(client.getServerVersion()?.name).toBe('acme-data');
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('platform_info');
    const result = await client.callTool({ name: 'platform_info', arguments: {} });
    expect(result.structuredContent).toMatchObject({ name: 'acme-data', version: '1.0.0', toolkits: [] });

    // The same session id works on a raw request, and is refused to another caller's key.
    const raw = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}`, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(raw.status).toBe(200);
    expect(JSON.stringify(await rpcResult(raw))).toContain('platform_info');
    await client.close();
  });

  it('answers an initialize as one JSON body when the client takes either form, as a stream when it takes only streams; a call answered at once is one JSON body too', async () => {
    const auth = { authorization: `Bearer ${testApiKey}` };
    const either = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, ...auth }, body: JSON.stringify(initializeBody) });
    expect(either.status).toBe(200);
    expect(either.headers.get('content-type')).toBe('application/json');
    const sessionId = either.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await either.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'acme-data' } } });
    const call = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, ...auth, 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'platform_info', arguments: {} } }),
    });
    expect(call.headers.get('content-type')).toBe('application/json');
    expect(await rpcResult(call)).toMatchObject({ result: { structuredContent: { name: 'acme-data' } } });

    const streamOnly = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, ...auth, accept: 'text/event-stream' },
      body: JSON.stringify(initializeBody),
    });
    expect(streamOnly.headers.get('content-type')).toBe('text/event-stream');
    expect(await rpcResult(streamOnly)).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    for (const id of [sessionId!, streamOnly.headers.get('mcp-session-id')!]) {
      await fetch(`${api.url}/mcp`, { method: 'DELETE', headers: { ...auth, 'mcp-session-id': id } });
    }
  });

  it('DELETE ends a session; the id is then unknown (404)', async () => {
    const { client, transport } = await connect(api.url);
    const id = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}`, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: { code: -32001 } });
    await client.close();
  });

  it('answers an unknown session id with 404 and a missing one with 400', async () => {
    const unknown = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}`, 'mcp-session-id': 'no-such-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    const missing = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(missing.status).toBe(400);
  });

  it('refuses a request without credentials with 401 and WWW-Authenticate', async () => {
    const response = await fetch(`${api.url}/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify(initializeBody) });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    await expect(connect(api.url, {})).rejects.toThrow();
  });

  it('refuses a wrong key with 401 invalid_token', async () => {
    for (const headers of [{ authorization: 'Bearer wrong-key' }, { 'x-api-key': 'wrong-key' }] as Record<string, string>[]) {
      const response = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, ...headers }, body: JSON.stringify(initializeBody) });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('accepts the key as X-API-Key, and a client that sends a narrow Accept header', async () => {
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': testApiKey },
      body: JSON.stringify(initializeBody),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    expect(await rpcResult(response)).toMatchObject({ result: { protocolVersion: '2025-06-18', serverInfo: { name: 'acme-data' } } });
  });

  it('negotiates the protocol version: an unknown one gets our latest', async () => {
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}` },
      body: JSON.stringify({ ...initializeBody, params: { ...initializeBody.params, protocolVersion: '1999-01-01' } }),
    });
    expect(await rpcResult(response)).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('answers malformed JSON with a JSON-RPC parse error', async () => {
    const response = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}` }, body: '{"jsonrpc": "2.0", ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: invalid JSON' }, id: null });
  });

  it('answers a body past server.body_limit and past what one asset save takes with 413', async () => {
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}` },
      body: JSON.stringify({ ...initializeBody, padding: 'x'.repeat(90_000) }),
    });
    expect(response.status).toBe(413);
  });

  it('reads a body past server.body_limit that one asset save of portal.max_content_size may take', async () => {
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}` },
      body: JSON.stringify({ ...initializeBody, params: { ...initializeBody.params, _meta: { padding: 'x'.repeat(70_000) } } }),
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('answers an unknown tool with a JSON-RPC error -32602 (test/conformance/unknown-tools.test.ts has the details)', async () => {
    const { client } = await connect(api.url);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('refuses a foreign Origin with 403 and serves /mcp/ without a redirect', async () => {
    const foreign = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}`, origin: 'http://evil.example.com' },
      body: JSON.stringify(initializeBody),
    });
    expect(foreign.status).toBe(403);
    const slash = await fetch(`${api.url}/mcp/`, {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${testApiKey}` },
      body: JSON.stringify(initializeBody),
      redirect: 'manual',
    });
    expect(slash.status).toBe(200);
  });

  it('serves health, readiness, metrics and the OpenAPI document', async () => {
    expect(await (await fetch(`${api.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).toContain('platform_http_requests_total');
    const openapi = await (await fetch(`${api.url}/api/openapi.json`)).json();
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
  });
});

describe('MCP over Streamable HTTP (stateless)', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml({ server: ['streamable: { stateless: true }'] })) });
  });
  afterAll(async () => api?.stop());

  it('serves each POST on its own, without session ids; GET is 405', async () => {
    const { client, transport } = await connect(api.url);
    expect(transport.sessionId).toBeUndefined();
    const result = await client.callTool({ name: 'platform_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    await client.close();
    const get = await fetch(`${api.url}/mcp`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${testApiKey}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
