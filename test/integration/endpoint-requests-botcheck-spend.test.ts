/**
 * When the bot check of a public endpoint is made and when its answer is used up (docs/endpoints.md,
 * "Requests", steps 7–10): an answer is checked as soon as the request's headers are in — a missing
 * or refused one is answered 403 without reading the body, so an anonymous caller cannot make a
 * replica buffer bodies — and spent (recorded as used) only by a request about to run its handler:
 * a request refused for its body (413, 400) or for want of a handler slot (503) leaves the answer
 * good for the next try. Against the deployment's own proof-of-work check over Postgres.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDING_LIMITS } from '../../shared/endpoints/index.js';
import { solve } from './botcheck-fixtures.js';
import { jsonOf, startEndpointRig, type EndpointRig } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;

beforeAll(async () => {
  rig = await startEndpointRig({ botCheck: 'deployment' });
  await rig.endpoint('orders', 'export function handle(req) { return { status: 201, json: { ordered: req.json.item } } }', { methods: ['POST'], max_body_bytes: 64, rate_limit: 1000 });
});

afterAll(async () => {
  await rig?.stop();
});

async function answer(endpoint = 'orders'): Promise<string> {
  const challenge = await jsonOf(await fetch(`${rig.api.url}/botcheck/challenge?endpoint=${endpoint}`));
  return solve(challenge.challenge as string, challenge.difficulty as number);
}

const order = (header: string, body = '{"item":"tea"}') =>
  rig.call('/endpoints/orders', { method: 'POST', headers: { 'x-bot-check': header, 'content-type': 'application/json' }, body });

/** Starts a chunked POST whose body never ends; resolves with the answer's status (the request is then dropped). */
function endlessPost(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${rig.api.url}${path}`);
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      request.destroy();
    });
    request.on('error', reject);
    // One chunk of a body that never ends (chunked: no Content-Length to refuse it by).
    request.write('{"item":"');
  });
}

describe('a bot-check answer is checked before the body is read', () => {
  it('403 for a missing or refused answer while the body is still coming', async () => {
    expect(await endlessPost('/endpoints/orders', {})).toBe(403);
    expect(await endlessPost('/endpoints/orders', { 'x-bot-check': 'v1.orders.16.9999999999.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA:1' })).toBe(403);
    // An answer to another endpoint's challenge is refused there and then as well.
    await rig.endpoint('quotes', 'export function handle() { return { json: 1 } }', { methods: ['POST'] });
    expect(await endlessPost('/endpoints/orders', { 'x-bot-check': await answer('quotes') })).toBe(403);
  });
});

describe('a bot-check answer is spent only by a request that runs', () => {
  it('a body past max_body_bytes (413) or not the JSON it claims (400) leaves the answer good for the next try', async () => {
    const solved = await answer();
    const tooLarge = await order(solved, JSON.stringify({ item: 'x'.repeat(80) }));
    expect(tooLarge.status).toBe(413);
    const notJson = await order(solved, '{"item":');
    expect([notJson.status, (await jsonOf(notJson)).error]).toEqual([400, 'invalid_json']);
    const ran = await order(solved);
    expect([ran.status, await jsonOf(ran)]).toEqual([201, { ordered: 'tea' }]);
    // Spent by the request that ran.
    const again = await order(solved);
    expect([again.status, (await jsonOf(again)).error]).toEqual([403, 'bot_check_refused']);
  });

  it(`a replica already running ${BINDING_LIMITS.concurrentHandlers} handlers (503) leaves the answer good for the next try`, async () => {
    const cap = BINDING_LIMITS.concurrentHandlers;
    await rig.endpoint('holder', `export async function handle() { return { body: (await platform.fetch('http://127.0.0.1:${rig.httpPort}/hold')).body } }`, { open_reads: true, timeout_seconds: 30, rate_limit: 1000 });
    const solved = await answer();
    const holding = rig.holdRequests(cap);
    const held = Array.from({ length: cap }, () => rig.call('/endpoints/holder'));
    const release = await holding;
    const busy = await order(solved);
    expect([busy.status, (await jsonOf(busy)).error]).toEqual([503, 'busy']);
    release();
    expect((await Promise.all(held)).map((a) => a.status)).toEqual(Array.from({ length: cap }, () => 200));
    const ran = await order(solved);
    expect([ran.status, await jsonOf(ran)]).toEqual([201, { ordered: 'tea' }]);
  });
});
