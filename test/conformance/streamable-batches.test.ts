import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { baseHeaders, openSession, post } from '../support/mcp-wire.js';
import { startDatabaseReplicas } from '../support/replicas.js';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('Streamable HTTP: JSON-RPC batches follow the negotiated version; DELETE takes an empty JSON body', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml()) });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('refuses a batch with -32600 in a session negotiated at 2025-06-18 or later', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const session = await openSession(api.url, { version });
      const res = await post(session.url, [ping(1), ping(2)], session.headers({ accept: 'application/json' }));
      expect(res.status, version).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
    }
  });

  it('answers a batch of a 2025-03-26 session with one response per request, notifications answering nothing', async () => {
    const session = await openSession(api.url, { version: '2025-03-26' });
    const res = await post(
      session.url,
      [ping(1), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
      session.headers({ accept: 'application/json' }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; result?: unknown }[];
    expect(body.map((r) => r.id)).toEqual([1, 2]);
    expect(body.every((r) => r.result !== undefined)).toBe(true);
  });

  it('streams the answers to a 2025-03-26 batch as separate events when a stream is accepted', async () => {
    const session = await openSession(api.url, { version: '2025-03-26' });
    const res = await post(session.url, [ping(5), ping(6)], session.headers());
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    // No priming event before 2025-11-25: older clients choke on empty data.
    expect(text).not.toMatch(/^data: $/m);
    const ids = [...text.matchAll(/^data: (.+)$/gm)].map((m) => (JSON.parse(m[1]!) as { id: number }).id).sort();
    expect(ids).toEqual([5, 6]);
  });

  it('refuses an empty batch with -32600 whatever the version', async () => {
    for (const version of ['2025-03-26', '2025-11-25']) {
      const session = await openSession(api.url, { version });
      const res = await post(session.url, [], session.headers());
      expect(res.status, version).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
    }
  });

  it('refuses a body that is not a JSON-RPC message with -32600 and bad JSON with -32700', async () => {
    const session = await openSession(api.url);
    const res = await post(session.url, { hello: 'world' }, session.headers());
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const broken = await fetch(session.url, { method: 'POST', headers: session.headers(), body: '{"jsonrpc":' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('answers, never hangs on, a message the SDK would drop (extra member, array params, fractional id)', async () => {
    const session = await openSession(api.url);
    for (const body of [{ ...ping(1), extra: true }, { ...ping(2), params: [] }, { ...ping(3), id: 7.5 }]) {
      const res = await post(session.url, body, session.headers());
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
    }
  });

  it('ends a session on DELETE with Content-Type application/json and an empty body', async () => {
    const session = await openSession(api.url);
    const res = await fetch(session.url, { method: 'DELETE', headers: session.headers() });
    expect(res.status).toBe(200);
    const after = await post(session.url, ping(9), session.headers());
    expect(after.status).toBe(404);
  });

  it('refuses an unsupported MCP-Protocol-Version header with 400', async () => {
    const session = await openSession(api.url);
    const res = await post(session.url, ping(1), session.headers({ 'mcp-protocol-version': '1999-01-01' }));
    expect(res.status).toBe(400);
    await res.text();
  });
});

describe('Streamable HTTP with database sessions: malformed first messages', () => {
  let replicas: Awaited<ReturnType<typeof startDatabaseReplicas>>;

  beforeAll(async () => {
    replicas = await startDatabaseReplicas();
  });
  afterAll(async () => {
    await replicas?.stop();
  });

  it('answers a sessionless POST of null, a batch or a bare notification with a 4xx JSON-RPC error', async () => {
    const url = `${replicas.replicas[0].url}/mcp`;
    for (const body of [null, [ping(1)], { jsonrpc: '2.0', method: 'notifications/initialized' }]) {
      const res = await post(url, body, baseHeaders());
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(((await res.json()) as { jsonrpc: string }).jsonrpc).toBe('2.0');
    }
  });
});
