/**
 * A request served beside its binding read (docs/endpoints.md, "Served beside its read"): a replica
 * holding an endpoint's target runs the request on it while the request's own freshness read is in
 * flight, and keeps the answer until the read says the target is unchanged. What a discarded
 * answer did must not outlast it: its run's platform calls wait for the decision and are refused
 * on a discard, the rate-limit tokens it took go back, and refusals are counted once, by the
 * request served from what the read answered.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noopAuditLog } from '../../shared/audit/index.js';
import { endpointMetrics, EndpointRateLimits, EndpointRecords, EndpointRequests, type EndpointRequest } from '../../shared/endpoints/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { scriptPrincipal, type ScriptRunner } from '../../shared/scripts/index.js';
import { jsonOf, startEndpointRig, type EndpointRig } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;
/** A server scripts may fetch (127.0.0.1 is allowed) that counts its requests. */
let counter: Server;
let hits = 0;

beforeAll(async () => {
  rig = await startEndpointRig();
  counter = createServer((_request, response) => {
    hits++;
    response.end('counted');
  });
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await rig?.stop();
  await new Promise((resolve) => counter?.close(resolve));
});

const counted = () => `http://127.0.0.1:${(counter.address() as AddressInfo).port}/hit`;

/**
 * A decision the test makes, and a promise that resolves when a platform call of the run starts
 * waiting for it (`await` of a thenable calls its `then`).
 */
function decision(): { confirmed: Promise<boolean>; waiting: Promise<void>; decide(confirmed: boolean): void } {
  let decide!: (confirmed: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  let waited!: () => void;
  const waiting = new Promise<void>((resolve) => (waited = resolve));
  const thenable = {
    then(onDecided: (value: boolean) => unknown, onFailed: (error: unknown) => unknown) {
      waited();
      return decided.then(onDecided, onFailed);
    },
  };
  return { confirmed: thenable as unknown as Promise<boolean>, waiting, decide };
}

/** Resolves once the run waits for the decision; fails if it ends first. */
function waitedFor(waiting: Promise<void>, running: Promise<unknown>): Promise<void> {
  return Promise.race([waiting, running.then((outcome) => Promise.reject(new Error(`the run ended without waiting for the decision: ${JSON.stringify(outcome)}`)))]);
}

describe('a run started before it is known to be wanted', () => {
  const source = () => `export async function handle(req) {
    try { return (await platform.fetch('${counted()}')).body; } catch (e) { return String(e.message ?? e); }
  }`;
  const principal = scriptPrincipal({ id: 'beside-read', name: 'beside-read' }, ['staff']);

  it('makes its platform calls only once confirmed', async () => {
    const before = hits;
    const { confirmed, waiting, decide } = decision();
    const running = rig.api.scriptRunner!.execute({ source: source(), principal, entry: 'handle', args: [{ method: 'GET' }], sessionId: 'beside-read-1', imports: 'current', confirmed });
    await waitedFor(waiting, running);
    expect(hits).toBe(before);
    decide(true);
    expect(await running).toMatchObject({ status: 'ok', result: 'counted' });
    expect(hits).toBe(before + 1);
  });

  it('makes none when discarded: each is refused and nothing reaches the host', async () => {
    const before = hits;
    const { confirmed, waiting, decide } = decision();
    const running = rig.api.scriptRunner!.execute({ source: source(), principal, entry: 'handle', args: [{ method: 'GET' }], sessionId: 'beside-read-2', imports: 'current', confirmed });
    await waitedFor(waiting, running);
    decide(false);
    expect(await running).toMatchObject({ status: 'ok', result: expect.stringMatching(/this run was discarded \(its endpoint changed while it ran\): its platform calls were not made/) });
    expect(hits).toBe(before);
  });

  it('imports no library when discarded', async () => {
    const library = await rig.rest('alice', 'POST', '/', { name: 'beside-lib', source: 'export const answer = 42;' });
    expect(library.status).toBe(201);
    const { confirmed, decide } = decision();
    decide(false);
    const outcome = await rig.api.scriptRunner!.execute({
      source: "import { answer } from 'beside-lib'; export function handle() { return answer; }",
      principal,
      entry: 'handle',
      args: [{ method: 'GET' }],
      sessionId: 'beside-read-3',
      imports: 'current',
      confirmed,
    });
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringMatching(/discarded/) });
  });
});

describe('an endpoint request served beside its read', () => {
  it('answers from the saved version when the script changed since the replica last read it, and the tokens the discarded answer took go back', async () => {
    const v1 = `export async function handle() { await platform.fetch('${counted()}'); return { json: 'v1' } }`;
    const id = await rig.endpoint('beside-versions', v1, { auth_mode: 'signed_in', rate_limit: 2, caller_rate_limit: 2, timeout_seconds: 5 });
    // The first request has no target held: served after its read (a token of each bucket).
    expect(await jsonOf(await rig.call('/endpoints/beside-versions', { user: 'bob' }))).toBe('v1');
    const saved = await rig.rest('alice', 'PUT', `/${id}`, { source: "export function handle() { return { json: 'v2' } }" });
    expect(saved.body.outcome).toBe('revised');
    const hitsBefore = hits;
    // Served on v1 beside its read, which answers v2: v1's answer is dropped and the request served
    // on v2 with the tokens the first try gave back (else its caller bucket of 2 would be empty).
    expect(await jsonOf(await rig.call('/endpoints/beside-versions', { user: 'bob' }))).toBe('v2');
    // The decision came before v2 ran: v1's fetch, waiting for it, was refused, never made.
    expect(hits).toBe(hitsBefore);
    const third = await rig.call('/endpoints/beside-versions', { user: 'bob' });
    expect(third.status).toBe(429);
  });

  it('counts a refusal once against its network, also when the binding changed meanwhile', async () => {
    await rig.endpoint('beside-refusals', "export function handle() { return { json: 'ok' } }", { auth_mode: 'signed_in', rate_limit: 3 });
    // A signed-in request makes the replica hold the target: the refused ones are tried beside their reads.
    expect(await jsonOf(await rig.call('/endpoints/beside-refusals', { user: 'bob' }))).toBe('ok');
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      // A write to the binding's row: the read answers a new target, the try on the held one is dropped.
      if (i % 2 === 0) await rig.db.query("UPDATE endpoint_bindings SET updated_at = now() WHERE endpoint = 'beside-refusals'");
      statuses.push((await rig.call('/endpoints/beside-refusals', { headers: { authorization: 'Bearer not-a-key' } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('answers a disabled endpoint 404 though the replica still held it enabled', async () => {
    await rig.endpoint('beside-disabled', `export async function handle() { await platform.fetch('${counted()}'); return { json: 'on' } }`, { open_reads: true });
    expect(await jsonOf(await rig.call('/endpoints/beside-disabled'))).toBe('on');
    await rig.db.query("UPDATE endpoint_bindings SET enabled = false, updated_at = now() WHERE endpoint = 'beside-disabled'");
    const hitsBefore = hits;
    expect((await rig.call('/endpoints/beside-disabled')).status).toBe(404);
    expect(hits).toBe(hitsBefore);
  });

  it('stops a try whose read came back first: its tokens go back and its handler never runs', async () => {
    await rig.endpoint('beside-slow-auth', "export function handle() { return { json: 'ran' } }", { auth_mode: 'signed_in', rate_limit: 3, caller_rate_limit: 3 });
    const log = silentLogger();
    const runner = rig.api.scriptRunner!;
    let runs = 0;
    const counting: Pick<ScriptRunner, 'execute'> = { execute: (spec) => (runs++, runner.execute(spec)) };
    // Authentication of the next request waits until the test lets it go.
    let holdNext = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const requests = new EndpointRequests({
      db: rig.db,
      runner: counting,
      authenticate: async () => {
        if (holdNext) {
          holdNext = false;
          await held;
        }
        return { ok: true, caller: { subject: 'apikey:bob', roles: ['staff'], authType: 'apikey' }, viaSession: false };
      },
      records: new EndpointRecords({ db: rig.db, audit: noopAuditLog(), log }),
      metrics: endpointMetrics(new Registry()),
      log,
      limits: new EndpointRateLimits(),
    });
    const request: EndpointRequest = { name: 'beside-slow-auth', rest: '', method: 'GET', path: '/endpoints/beside-slow-auth', rawQuery: '', headers: {}, rawHeaders: [], ownOrigin: undefined, readBody: async () => new Uint8Array() };
    const body = async () => JSON.parse((await requests.answer(request)).body.toString()) as unknown;
    expect(await body()).toBe('ran');
    // The binding's row written: the next read answers a new target while the try on the held one authenticates.
    await rig.db.query("UPDATE endpoint_bindings SET updated_at = now() WHERE endpoint = 'beside-slow-auth'");
    holdNext = true;
    expect(await body()).toBe('ran');
    expect(runs).toBe(2);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(2);
    // Two of the three tokens of each bucket were used: the third request is served.
    expect(await body()).toBe('ran');
    expect(runs).toBe(3);
  });
});
