/**
 * Spec document 3, "Scripted endpoint answers": each row of the status table at
 * /endpoints/{name}/{rest...}, against the real api role over Postgres (endpoint-requests-fixtures.ts).
 * The caller never sees the script's error: every platform answer is `{error, message}` of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_DOWN, BOT_PASS, jsonOf, startEndpointRig, type EndpointRig } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;

beforeAll(async () => {
  rig = await startEndpointRig();
});

afterAll(async () => {
  await rig?.stop();
});

const hello = "export function handle(req) { return { json: { hello: req.method } } }";

/** The body of an answer, checked to carry none of the script's words. */
async function platformAnswer(response: Response, error: string): Promise<void> {
  const body = await jsonOf(response);
  expect(body).toEqual({ error, message: expect.any(String) });
}

describe('status table', () => {
  it('200: a handler answers', async () => {
    await rig.endpoint('hello', hello, { open_reads: true });
    const response = await rig.call('/endpoints/hello');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ hello: 'GET' });
  });

  it('400: a body that claims JSON and is not, before the script runs', async () => {
    await rig.endpoint('json-in', "export function handle(req) { throw new Error('must not run') }", { methods: ['POST'], auth_mode: 'signed_in' });
    const response = await rig.call('/endpoints/json-in', { method: 'POST', user: 'alice', headers: { 'content-type': 'application/json' }, body: '{"no' });
    expect(response.status).toBe(400);
    await platformAnswer(response, 'invalid_json');
    const vendor = await rig.call('/endpoints/json-in', { method: 'POST', user: 'alice', headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' }, body: 'nope' });
    expect(vendor.status).toBe(400);
    const failures = await rig.db.query("SELECT count(*)::int AS n FROM endpoint_failures WHERE endpoint = 'json-in'");
    expect(failures.rows[0].n).toBe(0);
  });

  it('401: an anonymous request to a signed_in endpoint', async () => {
    await rig.endpoint('members', hello, { auth_mode: 'signed_in' });
    const response = await rig.call('/endpoints/members');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await platformAnswer(response, 'unauthorized');
    expect((await rig.call('/endpoints/members', { headers: { authorization: 'Bearer wrong-key' } })).status).toBe(401);
  });

  it('403: a browser session write without its CSRF token', async () => {
    await rig.endpoint('session-write', hello, { methods: ['POST'], auth_mode: 'signed_in' });
    const { cookie } = await rig.session();
    const response = await rig.call('/endpoints/session-write', { method: 'POST', headers: { cookie } });
    expect(response.status).toBe(403);
    await platformAnswer(response, 'csrf_required');
  });

  it('403: a public endpoint without a bot-check answer, or with a refused one', async () => {
    await rig.endpoint('guarded', hello, { methods: ['GET', 'POST'] });
    const missing = await rig.call('/endpoints/guarded', { method: 'POST' });
    expect(missing.status).toBe(403);
    await platformAnswer(missing, 'bot_check_required');
    const refused = await rig.call('/endpoints/guarded', { method: 'POST', headers: { 'x-bot-check': 'forged' } });
    expect(refused.status).toBe(403);
    await platformAnswer(refused, 'bot_check_refused');
    expect((await rig.call('/endpoints/guarded', { method: 'POST', headers: { 'x-bot-check': BOT_PASS } })).status).toBe(200);
  });

  it('403: a preflight from an origin the endpoint does not list', async () => {
    await rig.endpoint('cors-listed', hello, { allowed_origins: ['https://app.example'], open_reads: true });
    const response = await rig.call('/endpoints/cors-listed', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    await platformAnswer(response, 'origin_not_allowed');
  });

  it('404: one answer for an unknown name, a disabled endpoint and a path off the template', async () => {
    await rig.endpoint('items', "export function handle(req) { return { json: req.params } }", { path: '/items/{id}', open_reads: true });
    await rig.endpoint('switched-off', hello, { open_reads: true, enabled: false });
    expect(await (await rig.call('/endpoints/items/items/42')).json()).toEqual({ id: '42' });
    const answers = await Promise.all(['/endpoints/no-such-endpoint', '/endpoints/switched-off', '/endpoints/items', '/endpoints/items/items/42/more', '/endpoints/items/other/42', '/endpoints/NOT_A_NAME!'].map((path) => rig.call(path)));
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ error: 'not_found' });
  });

  it('405: a method the endpoint does not answer, with Allow (HEAD wherever GET)', async () => {
    await rig.endpoint('read-only', hello, { methods: ['GET', 'PUT'], open_reads: true });
    const response = await rig.call('/endpoints/read-only', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PUT, HEAD');
    await platformAnswer(response, 'method_not_allowed');
    const head = await rig.call('/endpoints/read-only', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await head.text()).toBe('');
    await rig.endpoint('post-only', hello, { methods: ['POST'], auth_mode: 'signed_in' });
    const noHead = await rig.call('/endpoints/post-only', { method: 'HEAD', user: 'alice' });
    expect([noHead.status, noHead.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('413: a body past max_body_bytes, declared or streamed, and the script does not run', async () => {
    await rig.endpoint('small-bodies', "export async function handle(req) { await platform.call('platform_info', {}); return { json: req.body.length } }", {
      methods: ['POST'],
      auth_mode: 'signed_in',
      max_body_bytes: 16,
    });
    const fits = await rig.call('/endpoints/small-bodies', { method: 'POST', user: 'alice', body: 'x'.repeat(16) });
    expect(await fits.json()).toBe(16);
    const declared = await rig.call('/endpoints/small-bodies', { method: 'POST', user: 'alice', body: 'x'.repeat(17) });
    expect(declared.status).toBe(413);
    await platformAnswer(declared, 'payload_too_large');
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.enqueue(new Uint8Array(10));
        controller.close();
      },
    });
    const chunked = await rig.call('/endpoints/small-bodies', { method: 'POST', user: 'alice', body: streamed, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    await rig.api.endpointRecords!.flush();
    await expect.poll(async () => (await rig.db.query("SELECT count(*)::int AS n FROM audit_log WHERE subject = 'script:small-bodies' AND tool = 'platform_info'")).rows[0].n).toBe(1);
  });

  it('429: past rate_limit, with Retry-After', async () => {
    await rig.endpoint('limited', hello, { rate_limit: 2, open_reads: true });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await rig.call('/endpoints/limited'));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(Number(statuses[2]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await platformAnswer(statuses[2]!, 'rate_limited');
  });

  it('429: past caller_rate_limit for one signed-in caller while another is still served', async () => {
    await rig.endpoint('per-caller', hello, { auth_mode: 'signed_in', caller_rate_limit: 2 });
    const alice = [];
    for (let i = 0; i < 3; i++) alice.push((await rig.call('/endpoints/per-caller', { user: 'alice' })).status);
    expect(alice).toEqual([200, 200, 429]);
    expect((await rig.call('/endpoints/per-caller', { user: 'bob' })).status).toBe(200);
    const limited = await rig.call('/endpoints/per-caller', { user: 'alice', via: 'x-api-key' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('503: the script disabled, deprecated or superseded', async () => {
    const id = await rig.endpoint('paused', hello, { open_reads: true });
    const replacement = await rig.script('paused-next', hello);
    for (const [action, body] of [['disable'], ['enable'], ['deprecate'], ['enable'], ['supersede', { superseded_by: replacement }]] as const) {
      expect((await rig.rest('alice', 'POST', `/${id}/${action}`, body)).status).toBe(200);
      const response = await rig.call('/endpoints/paused');
      if (action === 'enable') {
        expect(response.status).toBe(200);
      } else {
        expect(response.status).toBe(503);
        await platformAnswer(response, 'unavailable');
      }
    }
  });

  it('503: the bot check could not be made', async () => {
    await rig.endpoint('check-down', hello, { methods: ['POST'] });
    const response = await rig.call('/endpoints/check-down', { method: 'POST', headers: { 'x-bot-check': BOT_DOWN } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    await platformAnswer(response, 'bot_check_unavailable');
  });

  it('500: a handler that fails or returns a non-response; the error stays with the platform', async () => {
    await rig.endpoint('thrower', "export function handle() { throw new Error('secret stack detail') }", { open_reads: true });
    await rig.endpoint('no-answer', 'export function handle() { return { json: 1, body: "two" } }', { open_reads: true });
    await rig.endpoint('bad-header', 'export function handle() { return { headers: { "x-a": "one\\r\\nset-cookie: a=b" }, body: "x" } }', { open_reads: true });
    for (const path of ['/endpoints/thrower', '/endpoints/no-answer', '/endpoints/bad-header']) {
      const response = await rig.call(path);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toMatch(/secret stack detail|exactly one|header/);
      expect(JSON.parse(text)).toMatchObject({ error: 'handler_failed' });
    }
  });

  it('504 past timeout_seconds and 503 past max_memory_bytes, the replica serving on', async () => {
    await rig.endpoint('spinner', 'export function handle() { for (;;) {} }', { open_reads: true, timeout_seconds: 1 });
    await rig.endpoint('hog', "export function handle() { const a = []; for (;;) a.push('x'.repeat(1024) + a.length) }", { open_reads: true, max_memory_bytes: 24 * 1024 * 1024 });
    const timedOut = await rig.call('/endpoints/spinner');
    expect(timedOut.status).toBe(504);
    await platformAnswer(timedOut, 'timeout');
    expect((await rig.call('/endpoints/hello')).status).toBe(200);
    const hog = await rig.call('/endpoints/hog');
    expect(hog.status).toBe(503);
    await platformAnswer(hog, 'unavailable');
    expect((await rig.call('/endpoints/hello')).status).toBe(200);
  });
});
