/**
 * Security pass 3, item 5: an endpoint's rate_limit is spent only by requests that authenticated or
 * passed the bot check, so callers who never pass cannot lock out those who do (open reads, which
 * prove nothing, leave half of it to them). Their refusals are
 * counted per endpoint and client network instead (a bucket of the endpoint's rate_limit): the
 * flooding network gets 429, nobody else does. Challenges are counted per endpoint and client
 * network likewise, so a challenge flood from one network leaves other networks their challenges
 * and a solver its answered request. Through HTTP, against the deployment's own proof-of-work
 * check over Postgres; a second client network is a second loopback address (127.0.0.2).
 *
 * The buckets hold a minute's worth of rate_limit 4 (one token back every 15 s): each test's
 * floods and checks take well under that.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../integration/botcheck-fixtures.js';
import { jsonOf, keys, startEndpointRig, type EndpointRig } from '../integration/endpoint-requests-fixtures.js';

const LIMIT = 4;
const OTHER_NETWORK = '127.0.0.2';

let rig: EndpointRig;

beforeAll(async () => {
  rig = await startEndpointRig({ botCheck: 'deployment' });
  const handler = 'export function handle() { return { status: 201, json: { ok: true } } }';
  for (const name of ['orders', 'replayed', 'asked']) await rig.endpoint(name, handler, { methods: ['POST'], rate_limit: LIMIT });
  await rig.endpoint('board', handler, { methods: ['GET', 'POST'], open_reads: true, rate_limit: LIMIT });
  await rig.endpoint('members', handler, { methods: ['POST'], auth_mode: 'signed_in', rate_limit: LIMIT, caller_rate_limit: 100 });
});

afterAll(async () => {
  await rig?.stop();
});

/**
 * A request to the api from `localAddress` (another client network on loopback): its status and
 * JSON body. `endlessBody`: a chunked body that never ends — answered only if the api answers
 * without reading it (else status 0 after 10 s: the api waited for the body).
 */
function from(localAddress: string, path: string, opts: { method?: string; headers?: Record<string, string>; endlessBody?: boolean } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(`${rig.api.url}${path}`);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: opts.method ?? 'GET', headers: opts.headers ?? {}, localAddress }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(waited);
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> });
        request.destroy();
      });
    });
    const waited = setTimeout(() => {
      request.destroy();
      resolve({ status: 0, body: {} });
    }, 10_000);
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    if (opts.endlessBody) request.write('{"item":"');
    else request.end();
  });
}

/** A solved answer to a fresh challenge for `endpoint`, asked for from `localAddress`. */
async function solved(endpoint: string, localAddress = '127.0.0.1'): Promise<string> {
  const issued = await from(localAddress, `/botcheck/challenge?endpoint=${endpoint}`);
  expect(issued.status).toBe(200);
  return solve(issued.body.challenge as string, issued.body.difficulty as number);
}

const post = (endpoint: string, headers: Record<string, string> = {}) => rig.call(`/endpoints/${endpoint}`, { method: 'POST', headers });

async function statusOf(response: Promise<Response>): Promise<[number, unknown]> {
  const answered = await response;
  return [answered.status, (await jsonOf(answered)).error];
}

describe('rate_limit counts only callers who pass', () => {
  it('public: after a flood of requests without an answer, a visitor holding a solved answer is served; the flooding network gets 429', async () => {
    // Solved before the flood, so the flood and what follows take milliseconds.
    const answers = [await solved('orders'), await solved('orders', OTHER_NETWORK)];
    for (let i = 0; i < LIMIT; i += 1) expect(await statusOf(post('orders'))).toEqual([403, 'bot_check_required']);
    const limited = await post('orders', { 'x-bot-check': 'v1.orders.16.9999999999.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA:1' });
    expect([limited.status, (await jsonOf(limited)).error]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The endpoint's budget is untouched: a solved answer is served, from the flooding network and from another.
    expect(await statusOf(post('orders', { 'x-bot-check': answers[0]! }))).toEqual([201, undefined]);
    expect((await from(OTHER_NETWORK, '/endpoints/orders', { method: 'POST', headers: { 'x-bot-check': answers[1]! } })).status).toBe(201);
    // Another network's refusals have their own bucket.
    expect((await from(OTHER_NETWORK, '/endpoints/orders', { method: 'POST' })).status).toBe(403);
  });

  it('public: replaying one spent answer spends nothing of the endpoint\'s budget (its token is given back)', async () => {
    const spent = await solved('replayed');
    const fresh = await solved('replayed', OTHER_NETWORK);
    expect((await post('replayed', { 'x-bot-check': spent })).status).toBe(201);
    const replays = [];
    for (let i = 0; i < LIMIT + 1; i += 1) replays.push(await statusOf(post('replayed', { 'x-bot-check': spent })));
    expect(replays).toEqual([...Array<[number, string]>(LIMIT).fill([403, 'bot_check_refused']), [429, 'rate_limited']]);
    // Past its refusals, the network's answers are spent before its body is read: a replay costs no body.
    const endless = await from('127.0.0.1', '/endpoints/replayed', { method: 'POST', headers: { 'x-bot-check': spent, 'content-type': 'application/json' }, endlessBody: true });
    expect([endless.status, endless.body.error]).toEqual([429, 'rate_limited']);
    // One of the endpoint's 4 tokens went to the first request; the replays took none.
    expect((await from(OTHER_NETWORK, '/endpoints/replayed', { method: 'POST', headers: { 'x-bot-check': fresh } })).status).toBe(201);
  });

  it('signed_in: after a flood of anonymous requests and wrong keys, an authenticated caller is served; the flooding network gets 429', async () => {
    for (let i = 0; i < LIMIT; i += 1) {
      expect(await statusOf(post('members', i % 2 ? {} : { authorization: 'Bearer not-a-key-0123456789' }))).toEqual([401, 'unauthorized']);
    }
    expect(await statusOf(post('members'))).toEqual([429, 'rate_limited']);
    for (let i = 0; i < LIMIT; i += 1) expect(await statusOf(post('members', { authorization: `Bearer ${keys.alice}` }))).toEqual([201, undefined]);
    // Now rate_limit itself is spent, by callers who passed.
    expect(await statusOf(post('members', { authorization: `Bearer ${keys.bob}` }))).toEqual([429, 'rate_limited']);
  });
});

describe('open reads prove nothing', () => {
  it('a flood of open reads leaves half of rate_limit to requests that pass the bot check', async () => {
    const answers = [await solved('board'), await solved('board'), await solved('board')];
    const reads = [];
    for (let i = 0; i < LIMIT; i += 1) reads.push((await rig.call('/endpoints/board')).status);
    expect(reads).toEqual([201, 201, 429, 429]);
    expect(await statusOf(post('board', { 'x-bot-check': answers[0]! }))).toEqual([201, undefined]);
    expect(await statusOf(post('board', { 'x-bot-check': answers[1]! }))).toEqual([201, undefined]);
    // rate_limit is spent now, the last half by requests that passed.
    expect(await statusOf(post('board', { 'x-bot-check': answers[2]! }))).toEqual([429, 'rate_limited']);
  });
});

describe('challenges are counted per client network', () => {
  it('a challenge flood from one network leaves another network its challenges, and a solver its answered request', async () => {
    const held = await solved('asked');
    for (let i = 1; i < LIMIT; i += 1) expect((await from('127.0.0.1', '/botcheck/challenge?endpoint=asked')).status).toBe(200);
    const flooded = await from('127.0.0.1', '/botcheck/challenge?endpoint=asked');
    expect([flooded.status, flooded.body.error]).toEqual([429, 'rate_limited']);
    expect((await from(OTHER_NETWORK, '/botcheck/challenge?endpoint=asked')).status).toBe(200);
    expect(await statusOf(post('asked', { 'x-bot-check': held }))).toEqual([201, undefined]);
  });
});
