/**
 * What an unauthenticated sender can make a replica hold is bounded (docs/security.md, "Request
 * bodies"): /mcp and webhook sources whose credential is in the headers authenticate before
 * reading a byte of the body; a body read before its request authenticated must arrive within
 * `server.body_read_timeout` and fit, with every other such body, in
 * `server.unauthenticated_body_bytes` (503, Retry-After); any request must arrive within
 * `server.request_timeout`, its headers within `server.headers_timeout`. Each refusal closes the
 * connection. Bodies here never finish: the tests wait for the server's answer and for it to close
 * the connection, never for time to pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthenticatedBytes } from '../../shared/inbound/index.js';
import type { RunningApi } from '../../api/start.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { startIngestRig, type IngestRig } from '../integration/webhook-ingest-fixtures.js';
import { halfSent } from '../support/raw-http.js';

const post = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;

/** The OAuth server with open registration: a JSON body anyone may send, read before any credential. */
const oauthWithRegistration = `oauth:\n  enabled: true\n  issuer: http://127.0.0.1:1\n  signing_key: ${Buffer.alloc(32, 7).toString('base64')}\n  dcr:\n    enabled: true\n    allowed_redirect_patterns: ['http://127\\\\.0\\\\.0\\\\.1/callback']\n`;

async function held(api: RunningApi): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  return Number(/^platform_http_unauthenticated_body_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
}

describe('authentication from the headers, before the body', () => {
  let api: RunningApi;
  let ingest: IngestRig;
  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml()) });
    ingest = await startIngestRig();
    await ingest.createSource('token-first', { mode: 'header_token', header: 'X-Token', secret: 'a-long-enough-token-0123456789' });
  });
  afterAll(async () => {
    await api?.stop();
    await ingest?.stop();
  });

  it('/mcp answers a request without a valid credential 401 at once, its never-ending body unread, and closes the connection', async () => {
    const credentials: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-key-0123456789' }];
    for (const credential of credentials) {
      const exchange = halfSent(api.url, post('/mcp', { ...credential, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': 1 << 20 }), ['{"jsonrpc":"2.0",']);
      const answer = await exchange.answer;
      expect(answer.status).toBe(401);
      expect(answer.headers.connection).toBe('close');
      await exchange.closed;
    }
    expect(await held(api)).toBe(0);
  });

  it('a header_token webhook answers a wrong token 401 at once, its never-ending body unread, and closes the connection', async () => {
    const exchange = halfSent(ingest.hooksBase, post('/hooks/token-first', { 'x-token': 'wrong', 'content-type': 'application/json', 'content-length': 1 << 20 }), ['[{"a":']);
    const answer = await exchange.answer;
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'unauthorized', message: 'token does not match' });
    expect(answer.headers.connection).toBe('close');
    await exchange.closed;
  });

  it('an unknown webhook source answers 404 unread and closes the connection too', async () => {
    const exchange = halfSent(ingest.hooksBase, post('/hooks/nobody-here', { 'content-type': 'application/json', 'content-length': 1 << 20 }), ['[']);
    expect((await exchange.answer).status).toBe(404);
    await exchange.closed;
  });
});

describe('the separate webhook listener (webhooks.receiver.address)', () => {
  let separate: IngestRig;
  beforeAll(async () => {
    separate = await startIngestRig({ receiver: ['enabled: true', 'address: "127.0.0.1:0"'] });
    await separate.createSource('token-apart', { mode: 'header_token', header: 'X-Token', secret: 'a-long-enough-token-0123456789' });
  });
  afterAll(async () => separate?.stop());

  it('applies the same rules: 401 unread and closed, and a NUL in the path is 400', async () => {
    expect(separate.hooksBase).not.toBe(separate.api.url);
    const exchange = halfSent(separate.hooksBase, post('/hooks/token-apart', { 'x-token': 'wrong', 'content-type': 'application/json', 'content-length': 1 << 20 }), ['[']);
    expect((await exchange.answer).status).toBe(401);
    await exchange.closed;
    expect((await fetch(`${separate.hooksBase}/hooks/a%00b`, { method: 'POST', body: '{}' })).status).toBe(400);
  });
});

describe('deadlines', () => {
  let api: RunningApi;
  beforeAll(async () => {
    const config = testConfig(
      apiConfigYaml({
        server: ['headers_timeout: 400ms', 'request_timeout: 1s', 'body_read_timeout: 300ms'],
        extra: oauthWithRegistration,
      }),
    );
    api = await startTestApi({ config });
  });
  afterAll(async () => api?.stop());

  it('a body read before its request authenticated that never finishes gets 408 at body_read_timeout, and the connection is closed', async () => {
    const exchange = halfSent(api.url, post('/oauth/register', { 'content-type': 'application/json', 'content-length': 1000 }), ['{"client_name":']);
    const answer = await exchange.answer;
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ error_description: expect.stringContaining('server.body_read_timeout') });
    expect(answer.headers.connection).toBe('close');
    await exchange.closed;
    expect(await held(api)).toBe(0);
  });

  it('an authenticated body that never finishes is cut at request_timeout; headers that never finish at headers_timeout', async () => {
    const body = halfSent(api.url, post('/mcp', { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': 1 << 20 }), ['{"jsonrpc":']);
    expect((await body.answer).status).toBe(408);
    await body.closed;
    const headers = halfSent(api.url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect((await headers.answer).status).toBe(408);
    await headers.closed;
  });

  it('a connection that sends nothing at all is closed', async () => {
    const idle = halfSent(api.url, '');
    await idle.closed;
  });
});

describe('the budget of unauthenticated bytes', () => {
  let api: RunningApi;
  beforeAll(async () => {
    const config = testConfig(
      apiConfigYaml({
        server: ['unauthenticated_body_bytes: 1000'],
        extra: oauthWithRegistration,
      }),
    );
    api = await startTestApi({ config });
  });
  afterAll(async () => api?.stop());

  it('refuses a body that does not fit beside those being held with 503 and Retry-After, unread and closed; frees the bytes when the holder goes', async () => {
    const holder = halfSent(api.url, post('/oauth/register', { 'content-type': 'application/json', 'content-length': 800 }), ['{"client_name":']);
    while ((await held(api)) < 800) await new Promise((resolve) => setImmediate(resolve));
    const refused = halfSent(api.url, post('/oauth/register', { 'content-type': 'application/json', 'content-length': 800 }), ['{']);
    const answer = await refused.answer;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body)).toMatchObject({ error_description: expect.stringContaining('server.unauthenticated_body_bytes') });
    await refused.closed;
    // An authenticated caller's body is its own: /mcp is not refused for it.
    const mcp = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' }, pad: 'x'.repeat(900) } }),
    });
    expect(mcp.status).toBe(200);
    holder.socket.destroy();
    while ((await held(api)) > 0) await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('UnauthenticatedBytes', () => {
  it('takes only what fits, gives back what was taken, and reports each total', () => {
    const totals: number[] = [];
    const budget = new UnauthenticatedBytes(100, (held) => totals.push(held));
    expect(budget.take(60)).toBe(true);
    expect(budget.take(41)).toBe(false);
    expect(budget.take(40)).toBe(true);
    budget.release(60);
    expect(budget.held).toBe(40);
    expect(totals).toEqual([60, 100, 40]);
  });
});
