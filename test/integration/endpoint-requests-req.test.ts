/**
 * Spec document 3, "Handler request" and "Handler response": what a handler's `req` holds (frozen,
 * credential headers left out, body/json/form/caller) and how its answer is checked and sent
 * (status, headers, exactly one of json/body, forbidden headers stripped, the three added headers),
 * through the real api role (endpoint-requests-fixtures.ts).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../shared/scripts/index.js';
import { BOT_PASS, jsonOf, startEndpointRig, type EndpointRig, type Json } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;

/** Answers the whole req, and whether it (and what it holds) is frozen. */
const echo = `export function handle(req) {
  let assigned;
  try { req.method = 'CHANGED'; assigned = 'changed' } catch (e) { assigned = e.name }
  let nested;
  try { req.headers.extra = 'x'; nested = 'changed' } catch (e) { nested = e.name }
  return { json: { req: { ...req, body: new TextDecoder().decode(req.body) }, frozen: [req, req.params, req.query, req.headers].every(Object.isFrozen), assigned, nested } };
}`;

/** Answers the very bytes it was sent, with their content type, and what it saw them as. */
const bytesEcho = `export function handle(req) {
  let strict;
  try { new TextDecoder('utf-8', { fatal: true }).decode(req.body); strict = 'utf-8' } catch (e) { strict = e.name }
  return { headers: { 'Content-Type': req.headers['content-type'] ?? 'none', 'X-Seen': req.body.constructor.name + ' ' + req.body.length + ' ' + strict }, body: req.body };
}`;

beforeAll(async () => {
  rig = await startEndpointRig();
  await rig.endpoint('echo', echo, { methods: ['GET', 'POST', 'PUT'], path: '/items/{id}/{part}' });
  await rig.endpoint('echo-in', echo, { methods: ['GET', 'POST'], auth_mode: 'signed_in' });
  await rig.endpoint('bytes-echo', bytesEcho, { methods: ['POST'] });
});

afterAll(async () => {
  await rig?.stop();
});

/** A request with headers exactly as listed (repeats kept), through node:http. */
function rawRequest(path: string, method: string, headers: string[], body?: Buffer): Promise<{ status: number; body: Json }> {
  const url = new URL(rig.api.url);
  return new Promise((resolve, reject) => {
    // A headers array is sent as is: Node adds no Host header to it.
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers: ['Host', url.host, ...headers] }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('req', () => {
  it('holds method, path, params, query (first values), and arrives frozen', async () => {
    const response = await rig.call('/endpoints/echo/items/a%20b/x?q=1&q=2&empty=&plus=a+b', { headers: { 'x-bot-check': BOT_PASS } });
    expect(response.status).toBe(200);
    const { req, frozen, assigned, nested } = await jsonOf(response);
    expect(req).toMatchObject({ method: 'GET', path: '/endpoints/echo/items/a%20b/x', params: { id: 'a b', part: 'x' }, query: { q: '1', empty: '', plus: 'a b' } });
    expect([frozen, assigned, nested]).toEqual([true, 'TypeError', 'TypeError']);
  });

  it('holds headers lower-cased, repeats joined with a comma, without the four credential headers', async () => {
    const { status, body } = await rawRequest('/endpoints/echo/items/1/2', 'GET', [
      'X-Bot-Check', BOT_PASS,
      'X-Multi', 'one',
      'x-multi', 'two',
      'Accept-Language', 'fr',
      'Authorization', 'Bearer not-for-the-script',
      'Cookie', 'session=not-for-the-script',
      'X-API-Key', 'not-for-the-script',
      'Proxy-Authorization', 'Basic bm90LWZvci10aGUtc2NyaXB0',
    ]);
    expect(status).toBe(200);
    const headers = body.req.headers as Record<string, string>;
    expect(headers).toMatchObject({ 'x-multi': 'one, two', 'accept-language': 'fr', 'x-bot-check': BOT_PASS });
    for (const name of ['authorization', 'cookie', 'x-api-key', 'proxy-authorization']) expect(headers).not.toHaveProperty(name);
    expect(JSON.stringify(body)).not.toContain('not-for-the-script');
    expect(Object.keys(headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it('holds a JSON body parsed (application/json and +json), form null', async () => {
    for (const type of ['application/json', 'application/problem+json; charset=utf-8']) {
      const response = await rig.call('/endpoints/echo/items/1/2', { method: 'POST', headers: { 'x-bot-check': BOT_PASS, 'content-type': type }, body: '{"a":[1,2],"caller":"me"}' });
      const { req } = await jsonOf(response);
      expect(req).toMatchObject({ body: '{"a":[1,2],"caller":"me"}', json: { a: [1, 2], caller: 'me' }, form: null, caller: null });
    }
    const empty = await jsonOf(await rig.call('/endpoints/echo/items/1/2', { method: 'POST', headers: { 'x-bot-check': BOT_PASS, 'content-type': 'application/json' } }));
    expect(empty.req).toMatchObject({ body: '', json: null });
  });

  it('holds a form body as first values per field, json null', async () => {
    const response = await rig.call('/endpoints/echo/items/1/2', { method: 'POST', headers: { 'x-bot-check': BOT_PASS, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&a=2&b=x+y&c=%C3%A9' });
    const { req } = await jsonOf(response);
    expect(req).toMatchObject({ form: { a: '1', b: 'x y', c: 'é' }, json: null, body: 'a=1&a=2&b=x+y&c=%C3%A9' });
  });

  it('holds the body as a Uint8Array of exactly the bytes sent (NUL and invalid UTF-8 included), answered back as is', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0xfe, 0xc3, 0x28, 0x41, 0x00, 0xed, 0xa0, 0x80]);
    const binary = await rig.call('/endpoints/bytes-echo', { method: 'POST', headers: { 'x-bot-check': BOT_PASS, 'content-type': 'application/x-thing' }, body: bytes });
    expect([binary.status, binary.headers.get('content-type'), binary.headers.get('x-seen')]).toEqual([200, 'application/x-thing', 'Uint8Array 10 TypeError']);
    expect(Buffer.from(await binary.arrayBuffer()).equals(bytes)).toBe(true);
    const text = await rig.call('/endpoints/bytes-echo', { method: 'POST', headers: { 'x-bot-check': BOT_PASS, 'content-type': 'text/csv' }, body: 'a,b\n1,ü\n' });
    expect([text.headers.get('x-seen'), await text.text()]).toEqual(['Uint8Array 9 utf-8', 'a,b\n1,ü\n']);
    const empty = await rig.call('/endpoints/bytes-echo', { method: 'POST', headers: { 'x-bot-check': BOT_PASS } });
    expect([empty.headers.get('x-seen'), (await empty.arrayBuffer()).byteLength]).toEqual(['Uint8Array 0 utf-8', 0]);
  });

  it('reads text bodies through TextDecoder', async () => {
    const text = await jsonOf(await rig.call('/endpoints/echo/items/1/2', { method: 'PUT', headers: { 'x-bot-check': BOT_PASS, 'content-type': 'text/csv' }, body: 'a,b\n1,ü\n' }));
    expect(text.req).toMatchObject({ body: 'a,b\n1,ü\n', json: null, form: null });
  });

  it('takes a Content-Type that is not a media type as bytes like any other', async () => {
    const response = await rig.call('/endpoints/echo/items/1/2', { method: 'POST', headers: { 'x-bot-check': BOT_PASS, 'content-type': 'not a media type' }, body: '{"a":1}' });
    expect(response.status).toBe(200);
    expect((await jsonOf(response)).req).toMatchObject({ body: '{"a":1}', json: null, form: null, headers: { 'content-type': 'not a media type' } });
  });

  it('holds the caller on a signed_in endpoint from the authentication, never from the body', async () => {
    const byKey = await jsonOf(await rig.call('/endpoints/echo-in', { method: 'POST', user: 'alice', headers: { 'content-type': 'application/json' }, body: '{"caller":{"user_id":"root"}}' }));
    expect(byKey.req.caller).toEqual({ user_id: 'apikey:alice', email: null, auth_type: 'apikey' });
    expect(byKey.req.json).toEqual({ caller: { user_id: 'root' } });
    const session = await rig.session('ada@example.com');
    const bySession = await jsonOf(await rig.call('/endpoints/echo-in', { headers: { cookie: session.cookie } }));
    expect(bySession.req.caller).toEqual({ user_id: session.subject, email: 'ada@example.com', auth_type: 'browser_session' });
  });

  it('HEAD runs the GET handler with method HEAD; the body is dropped', async () => {
    const response = await rig.call('/endpoints/echo/items/1/2', { method: 'HEAD', headers: { 'x-bot-check': BOT_PASS } });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await response.text()).toBe('');
  });

  it('arrives deep-frozen in the sandbox whatever the module did to Object and Array first', async () => {
    const sandbox = createSandbox({ maxConcurrent: 1 });
    try {
      const outcome = await sandbox.run({
        source: 'Object.freeze = (o) => o; Array.prototype.map = () => []; export function handle(req) { return [Object.isFrozen(req), Object.isFrozen(req.a), Object.isFrozen(req.a.b)] }',
        entry: 'handle',
        args: [{ a: { b: [1] } }],
        memoryBytes: 32 * 1024 * 1024,
        deadlineMs: 5_000,
        resolveLibrary: async () => undefined,
        host: {},
      });
      expect(outcome).toMatchObject({ status: 'ok', result: [true, true, true] });
    } finally {
      await sandbox.close();
    }
  });
});

describe('response', () => {
  it('defaults to 200 with JSON, and always carries the CSP, nosniff and Cache-Control: no-store', async () => {
    await rig.endpoint('plain-json', 'export function handle() { return { json: { ok: true } } }', { open_reads: true });
    const response = await rig.call('/endpoints/plain-json');
    expect(response.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'content-security-policy', 'x-content-type-options', 'cache-control'].map((h) => [h, response.headers.get(h)]))).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    const refused = await rig.call('/endpoints/plain-json', { method: 'POST' });
    expect([refused.status, refused.headers.get('content-security-policy'), refused.headers.get('x-content-type-options'), refused.headers.get('cache-control')]).toEqual([
      405,
      "default-src 'none'; sandbox",
      'nosniff',
      'no-store',
    ]);
  });

  it('sends the status, headers and a text or bytes body the handler chose; its own Cache-Control stays', async () => {
    await rig.endpoint('made', `export function handle(req) {
      if (req.query.kind === 'bytes') return { status: 201, headers: { 'Content-Type': 'image/png' }, body: { base64: 'iVBORw0=' } };
      return { status: 418, headers: { 'X-Custom': 'yes', 'Cache-Control': 'max-age=60' }, body: 'short and stout' };
    }`, { open_reads: true });
    const text = await rig.call('/endpoints/made');
    expect([text.status, text.headers.get('x-custom'), text.headers.get('cache-control'), text.headers.get('content-type'), await text.text()]).toEqual([
      418,
      'yes',
      'max-age=60',
      'text/plain; charset=utf-8',
      'short and stout',
    ]);
    const bytes = await rig.call('/endpoints/made?kind=bytes');
    expect([bytes.status, bytes.headers.get('content-type'), Buffer.from(await bytes.arrayBuffer()).toString('base64')]).toEqual([201, 'image/png', 'iVBORw0=']);
  });

  it('sends a Uint8Array, an ArrayBuffer or a view into one as exactly those bytes, with the content type chosen', async () => {
    await rig.endpoint('made-bytes', `export function handle(req) {
      const buffer = new Uint8Array([9, 0, 255, 128, 0xc3, 9]).buffer;
      switch (req.query.kind) {
        case 'uint8': return { headers: { 'Content-Type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x00, 0xff, 0xfe]) };
        case 'buffer': return { status: 201, body: buffer };
        case 'view': return Object.freeze({ headers: { 'Content-Type': 'application/x-part' }, body: new Uint8Array(buffer, 1, 4) });
        case 'encoded': return { body: new TextEncoder().encode('é€') };
      }
    }`, { open_reads: true });
    const answered = async (kind: string) => {
      const response = await rig.call(`/endpoints/made-bytes?kind=${kind}`);
      return [response.status, response.headers.get('content-type'), [...new Uint8Array(await response.arrayBuffer())]];
    };
    expect(await answered('uint8')).toEqual([200, 'image/png', [0x89, 0x50, 0x00, 0xff, 0xfe]]);
    expect(await answered('buffer')).toEqual([201, 'application/octet-stream', [9, 0, 255, 128, 0xc3, 9]]);
    expect(await answered('view')).toEqual([200, 'application/x-part', [0, 255, 128, 0xc3]]);
    expect(await answered('encoded')).toEqual([200, 'application/octet-stream', [...Buffer.from('é€')]]);
  });

  it('strips the forbidden headers and keeps the protective ones', async () => {
    await rig.endpoint('sneaky', `export function handle() {
      return { headers: {
        'Set-Cookie': 'session=stolen', 'Content-Length': '1', 'Transfer-Encoding': 'chunked', 'Connection': 'upgrade',
        'Content-Security-Policy': 'default-src *', 'X-Content-Type-Options': 'sniff', 'X-Frame-Options': 'ALLOWALL',
        'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Credentials': 'true', 'X-Kept': 'kept'
      }, body: 'hello there' };
    }`, { open_reads: true });
    const response = await rig.call('/endpoints/sneaky');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello there');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('content-length')).toBe('11');
    expect(response.headers.get('connection')).not.toBe('upgrade');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('x-kept')).toBe('kept');
  });

  it('answers 500 for each kind of non-response', async () => {
    const answers = [
      'null',
      '"text"',
      '{ status: 199, body: "" }',
      '{ status: 600, body: "" }',
      '{ status: 200.5, body: "" }',
      '{ headers: { "x-n": 1 }, body: "" }',
      '{ headers: { "bad name": "v" }, body: "" }',
      '{ headers: { "x-a": "line\\nbreak" }, body: "" }',
      '{ status: 200 }',
      '{ body: 42 }',
      '{ body: { base64: "not base64!" } }',
      '{ json: 1, extra: true }',
    ];
    for (const [i, answer] of answers.entries()) {
      await rig.endpoint(`bad-${i}`, `export function handle() { return ${answer} }`, { open_reads: true });
      expect([answer, (await rig.call(`/endpoints/bad-${i}`)).status]).toEqual([answer, 500]);
    }
  });
});
