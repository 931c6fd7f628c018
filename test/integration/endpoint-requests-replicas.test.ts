/**
 * Spec document 3, "Endpoint and script" and "Limits": the binding and the script are read on every
 * request, so a save (or a binding change) made through one replica is answered by another on its
 * next request; each replica runs at most 32 handlers at once and answers the next 503 with
 * Retry-After, then serves again once they finish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApiRole } from '../../cli/services.js';
import { BINDING_LIMITS } from '../../shared/endpoints/index.js';
import { jsonOf, startEndpointRig, type EndpointRig } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;
let second: RunningApiRole;

beforeAll(async () => {
  rig = await startEndpointRig();
  second = await rig.replica();
});

afterAll(async () => {
  await rig?.stop();
});

describe('replicas', () => {
  it('a save through one replica is answered by another on its next request', async () => {
    const id = await rig.endpoint('versioned', 'export function handle() { return { json: "v1" } }', { open_reads: true });
    expect(await jsonOf(await rig.call('/endpoints/versioned', {}, second.url))).toBe('v1');
    const saved = await rig.rest('alice', 'PUT', `/${id}`, { source: 'export function handle() { return { json: "v2" } }' });
    expect(saved.body.outcome).toBe('revised');
    expect(await jsonOf(await rig.call('/endpoints/versioned', {}, second.url))).toBe('v2');
    expect(await jsonOf(await rig.call('/endpoints/versioned'))).toBe('v2');
  });

  it('a binding change is answered by every replica on its next request', async () => {
    await rig.endpoint('moving', 'export function handle(req) { return { json: req.params } }', { open_reads: true });
    expect((await rig.call('/endpoints/moving/a', {}, second.url)).status).toBe(404);
    await rig.db.query("UPDATE endpoint_bindings SET path = '/{slug}', updated_at = now() WHERE endpoint = 'moving'");
    expect(await jsonOf(await rig.call('/endpoints/moving/a', {}, second.url))).toEqual({ slug: 'a' });
    await rig.db.query("UPDATE endpoint_bindings SET enabled = false, updated_at = now() WHERE endpoint = 'moving'");
    expect((await rig.call('/endpoints/moving/a', {}, second.url)).status).toBe(404);
  });
});

describe('handler cap', () => {
  it(`answers 503 with Retry-After past ${BINDING_LIMITS.concurrentHandlers} running handlers, then serves again`, async () => {
    const cap = BINDING_LIMITS.concurrentHandlers;
    // Each waiting handler holds a sandbox thread of its own: 32 threads start (slow under tsx on a busy machine).
    await rig.endpoint('holder', `export async function handle() { return { body: (await platform.fetch('http://127.0.0.1:${rig.httpPort}/hold')).body } }`, { open_reads: true, timeout_seconds: 60, rate_limit: 1000 });
    await rig.endpoint('quick', 'export function handle() { return { json: "quick" } }', { open_reads: true });
    const holding = rig.holdRequests(cap);
    const held = Array.from({ length: cap }, () => rig.call('/endpoints/holder'));
    const release = await holding;
    const busy = await rig.call('/endpoints/quick');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await jsonOf(busy)).error).toBe('busy');
    // The cap is the replica's own: another replica still serves.
    expect(await jsonOf(await rig.call('/endpoints/quick', {}, second.url))).toBe('quick');
    release();
    const answers = await Promise.all(held);
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: cap }, () => 200));
    expect(await Promise.all(answers.map((a) => a.text()))).toEqual(Array.from({ length: cap }, () => 'released'));
    expect(await jsonOf(await rig.call('/endpoints/quick'))).toBe('quick');
    await rig.api.endpointRecords!.flush();
    const { rows } = await rig.db.query("SELECT status, error FROM endpoint_failures WHERE endpoint = 'quick'");
    expect(rows).toEqual([{ status: 503, error: `all ${cap} handlers of this replica are running` }]);
  });
});

describe('sandbox run slots', () => {
  it('answers 503 with Retry-After when the sandbox has no free run slot (draft runs share it)', async () => {
    const small = await startEndpointRig({ maxConcurrentRuns: 2 });
    try {
      await small.endpoint('holder', `export async function handle() { return { body: (await platform.fetch('http://127.0.0.1:${small.httpPort}/hold')).body } }`, { open_reads: true });
      await small.endpoint('quick', 'export function handle() { return { json: "quick" } }', { open_reads: true });
      const holding = small.holdRequests(2);
      const held = [small.call('/endpoints/holder'), small.call('/endpoints/holder')];
      const release = await holding;
      const busy = await small.call('/endpoints/quick');
      expect([busy.status, busy.headers.get('retry-after'), (await jsonOf(busy)).error]).toEqual([503, '1', 'busy']);
      release();
      expect((await Promise.all(held)).map((a) => a.status)).toEqual([200, 200]);
      expect(await jsonOf(await small.call('/endpoints/quick'))).toBe('quick');
      await small.api.endpointRecords!.flush();
      const { rows } = await small.db.query("SELECT status, error FROM endpoint_failures WHERE endpoint = 'quick'");
      expect(rows).toEqual([{ status: 503, error: expect.stringMatching(/all 2 script runs of this replica are in use/) }]);
    } finally {
      await small.stop();
    }
  });

  it('a signed-in caller holds at most scripts.max_runs_per_caller handler runs at once; another caller is still served', async () => {
    const cap = rig.config.scripts.max_runs_per_caller;
    await rig.endpoint('mine', `export async function handle() { return { body: (await platform.fetch('http://127.0.0.1:${rig.httpPort}/hold')).body } }`, { auth_mode: 'signed_in', timeout_seconds: 60 });
    const holding = rig.holdRequests(cap);
    const held = Array.from({ length: cap }, () => rig.call('/endpoints/mine', { user: 'alice' }));
    const release = await holding;
    const refused = await rig.call('/endpoints/mine', { user: 'alice' });
    expect([refused.status, refused.headers.get('retry-after'), (await jsonOf(refused)).error]).toEqual([503, '1', 'busy']);
    const bobs = rig.call('/endpoints/mine', { user: 'bob' });
    await rig.holdRequests(cap + 1);
    release();
    expect([...(await Promise.all(held)), await bobs].map((a) => a.status)).toEqual(Array.from({ length: cap + 1 }, () => 200));
    await rig.api.endpointRecords!.flush();
    const { rows } = await rig.db.query("SELECT status, error FROM endpoint_failures WHERE endpoint = 'mine'");
    expect(rows).toEqual([{ status: 503, error: expect.stringContaining('(scripts.max_runs_per_caller)') }]);
  });
});
