/**
 * Spec document 3, "Endpoint and script" (enabled → first request after a save: binding and script
 * write times are read each request) with coalesced reads: requests share a query, yet each is
 * answered by a query that started after it arrived, so a commit before a request is always seen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../shared/db/index.js';
import { EndpointTargetReader } from '../../shared/endpoints/target.js';
import { startEndpointRig, type EndpointRig } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;
beforeAll(async () => {
  rig = await startEndpointRig();
  await rig.endpoint('reads', 'export function handle() { return { json: 1 } }');
});
afterAll(async () => {
  await rig?.stop();
});

/** The rig's database, counting queries and holding each answer until the test lets it through. */
function gatedDb(db: Db) {
  const gates: Array<() => void> = [];
  let queries = 0;
  let executed = 0;
  const gated = {
    query: async (text: string, values?: unknown[]) => {
      queries++;
      const result = await db.query(text, values);
      executed++;
      await new Promise<void>((resolve) => gates.push(resolve));
      return result;
    },
  } as unknown as Db;
  const openAll = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    gates.splice(0).forEach((open) => open());
  };
  return { db: gated, openAll, queries: () => queries, executed: () => executed };
}

describe('endpoint target reads', () => {
  it('requests arriving while a read is in flight share the next query', async () => {
    const gated = gatedDb(rig.db);
    const reader = new EndpointTargetReader(gated.db);
    const first = reader.read('reads');
    // The first query is sent (its answer waits at its gate) before the later requests arrive.
    while (gated.queries() === 0) await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 20 }, (_, i) => reader.read(i % 2 ? 'reads' : 'unknown'));
    await gated.openAll();
    expect((await first)?.binding.endpoint).toBe('reads');
    await gated.openAll();
    const answers = await Promise.all(later);
    answers.forEach((target, i) => expect(target?.binding.endpoint).toBe(i % 2 ? 'reads' : undefined));
    expect(gated.queries()).toBe(2);
  });

  it('requests arriving in one turn of the event loop share one query, started at the end of the turn', async () => {
    const gated = gatedDb(rig.db);
    const reader = new EndpointTargetReader(gated.db);
    const reads = Array.from({ length: 21 }, (_, i) => reader.read(i % 2 ? 'unknown' : 'reads'));
    expect(gated.queries()).toBe(0);
    await gated.openAll();
    const answers = await Promise.all(reads);
    answers.forEach((target, i) => expect(target?.binding.endpoint).toBe(i % 2 ? undefined : 'reads'));
    expect(gated.queries()).toBe(1);
  });

  it('a request after a commit sees it, though a query started before the commit is still in flight', async () => {
    const gated = gatedDb(rig.db);
    const reader = new EndpointTargetReader(gated.db);
    const before = reader.read('reads');
    // The first query has run (its answer waits at its gate) when the binding is disabled.
    while (gated.executed() === 0) await new Promise((resolve) => setImmediate(resolve));
    await rig.db.query(`UPDATE endpoint_bindings SET enabled = false WHERE endpoint = 'reads'`);
    const after = reader.read('reads');
    await gated.openAll();
    await gated.openAll();
    try {
      expect((await before)?.binding.enabled).toBe(true);
      expect((await after)?.binding.enabled).toBe(false);
    } finally {
      await rig.db.query(`UPDATE endpoint_bindings SET enabled = true WHERE endpoint = 'reads'`);
    }
  });

  it('an unchanged endpoint is answered from the target the reader holds; any write to its binding or script is read anew', async () => {
    const scriptId = await rig.endpoint('kept', "export function handle() { return { json: 'first' } }");
    const reader = new EndpointTargetReader(rig.db);
    const first = await reader.read('kept');
    // The freshness check found nothing changed: the very target read before.
    expect(await reader.read('kept')).toBe(first);

    await rig.db.query(`UPDATE endpoint_bindings SET rate_limit = rate_limit + 1 WHERE endpoint = 'kept'`);
    const afterBindingWrite = await reader.read('kept');
    expect(afterBindingWrite?.binding.rateLimit).toBe(first!.binding.rateLimit + 1);

    const saved = await rig.rest('alice', 'PUT', `/${scriptId}`, { source: "export function handle() { return { json: 'second' } }" });
    expect(saved.status).toBe(200);
    const afterSave = await reader.read('kept');
    expect(afterSave?.script.version).toBe(first!.script.version + 1);
    expect(afterSave?.script.source).toContain('second');
    expect(afterSave?.binding).toEqual(afterBindingWrite?.binding);

    await rig.db.query(`DELETE FROM endpoint_bindings WHERE endpoint = 'kept'`);
    expect(await reader.read('kept')).toBeUndefined();
  });

  it('a failed query fails the requests it answers, and the next request reads again', async () => {
    let failing = true;
    const flaky = { query: (text: string, values?: unknown[]) => (failing ? Promise.reject(new Error('database away')) : rig.db.query(text, values)) } as unknown as Db;
    const reader = new EndpointTargetReader(flaky);
    await expect(reader.read('reads')).rejects.toThrow('database away');
    failing = false;
    expect((await reader.read('reads'))?.binding.endpoint).toBe('reads');
  });
});
