/**
 * Session de-duplication with database sessions (injection.session_dedup with sessions.store:
 * database, migration 0025): two replicas — two pools and two SessionDedup instances over one
 * Postgres — agree on what a session was sent, in each mode, under concurrent marks, with
 * entry_ttl and session_timeout on an injected clock; rows go with the session.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { applyDedup, DatabaseDedupStore, SessionDedup, type DedupMark, type DedupSettings, type SentExtent, type SentTable } from '../../shared/enrichment/dedup/index.js';
import { createTestDatabase } from '../support/postgres.js';

const minute = 60_000;
const settings = (s: Partial<DedupSettings> = {}): DedupSettings => ({
  enabled: true,
  mode: 'reference',
  entry_ttl: 5 * minute,
  session_timeout: 30 * minute,
  ...s,
});
const t0 = Date.parse('2026-03-01T10:00:00Z');
const block = {
  semantic_context: { urn: 'urn:li:dataset:(urn:li:dataPlatform:trino,hive.mart.orders,PROD)', tags: ['pii'], domain: { urn: 'urn:li:domain:s', name: 'Sales' } },
};

/** A table of connection `trino-a` sent at `extent`. */
const sent = (table: string, extent: SentExtent = 'full', connection = 'trino-a'): SentTable => ({ connection, table, extent });
const full = (tables: readonly string[]) => tables.map((t) => sent(t));

/** Marks one table sent in full (or at `extent`) through one replica's SessionDedup. */
async function mark(dedup: SessionDedup, session: string, table: string, now: number, extent: SentExtent = 'full'): Promise<DedupMark> {
  return (await dedup.markSent(session, [sent(table, extent)], now))[0]!;
}

let database: { dsn: string; drop(): Promise<void> };
let dbA: Db;
let dbB: Db;
let session: string;

/** A database MCP session row, as api/mcp/database-sessions.ts creates it. */
async function openSession(): Promise<string> {
  const id = randomUUID();
  await dbA.query(`INSERT INTO mcp_sessions (id, subject, protocol_version) VALUES ($1, 'apikey:tester', '2025-11-25')`, [id]);
  return id;
}

/** Replica A and replica B, each with its own pool and SessionDedup. */
function replicas(s: Partial<DedupSettings> = {}, maxEntriesPerSession?: number): [SessionDedup, SessionDedup] {
  return [
    new SessionDedup(settings(s), new DatabaseDedupStore(dbA, { maxEntriesPerSession })),
    new SessionDedup(settings(s), new DatabaseDedupStore(dbB, { maxEntriesPerSession })),
  ];
}

/** A transaction holding the row of `key` (FOR UPDATE) until released. */
async function rowHolder(sessionId: string, key: string): Promise<{ pid: number; release(): Promise<void> }> {
  const client = await dbA.connect();
  await client.query('BEGIN');
  const { rows } = await client.query<{ pid: number }>(
    'SELECT pg_backend_pid() AS pid FROM mcp_session_dedup WHERE session_id = $1 AND table_key = $2 FOR UPDATE',
    [sessionId, key],
  );
  return {
    pid: rows[0]!.pid,
    async release() {
      await client.query('COMMIT');
      client.release();
    },
  };
}

/** Resolves once `count` dedup upserts wait on a lock held by another backend, none of them on one of `notOn`. */
async function upsertsWaiting(count: number, notOn: readonly number[]): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await dbA.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO mcp_session_dedup%'
                AND cardinality(pg_blocking_pids(pid)) > 0 AND NOT (pg_blocking_pids(pid) && $1::int[])`,
            [notOn],
          )
        ).rows[0]!.n,
      { timeout: 10_000, interval: 20 },
    )
    .toBe(count);
}

beforeAll(async () => {
  database = await createTestDatabase();
  dbA = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  dbB = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  await migrate(dbA, { log: silentLogger() });
});
afterAll(async () => {
  await dbA?.end();
  await dbB?.end();
  await database?.drop();
});
beforeEach(async () => {
  session = await openSession();
});

describe('injection.session_dedup across two replicas with database sessions', () => {
  it('reference: a table sent through replica A is a repeat on replica B, pointing at A’s send', async () => {
    const [a, b] = replicas();
    expect(await mark(a, session, 'hive.mart.orders', t0)).toEqual({ first: true });
    const repeat = await mark(b, session, 'hive.mart.orders', t0 + 1_000);
    expect(repeat).toEqual({ first: false, table: 'hive.mart.orders', extent: 'full', firstSeenAt: t0 });
    expect(applyDedup(block, repeat, 'reference')).toEqual({
      metadata_reference: { tables: ['hive.mart.orders'], sent_at: '2026-03-01T10:00:00.000Z', note: expect.stringMatching(/^Full catalog metadata for hive\.mart\.orders/) },
    });
    expect(await mark(a, session, 'hive.mart.orders', t0 + 2_000)).toMatchObject({ first: false, firstSeenAt: t0 });
  });

  it('summary: the repeat on the other replica is a compact_context', async () => {
    const [a, b] = replicas({ mode: 'summary' });
    expect(applyDedup(block, await mark(a, session, 'orders', t0), 'summary')).toBe(block);
    expect(applyDedup(block, await mark(b, session, 'orders', t0 + 1), 'summary')).toMatchObject({
      compact_context: { urn: block.semantic_context.urn, domain: 'Sales', critical_tags: ['pii'] },
      tables: ['orders'],
    });
  });

  it('none: both replicas send the full block and store nothing', async () => {
    const [a, b] = replicas({ mode: 'none' });
    expect(applyDedup(block, await mark(a, session, 'orders', t0), 'none')).toBe(block);
    expect(applyDedup(block, await mark(b, session, 'orders', t0 + 1), 'none')).toBe(block);
    expect((await dbA.query('SELECT 1 FROM mcp_session_dedup WHERE session_id = $1', [session])).rowCount).toBe(0);
  });

  it('a call naming several tables: a repeat on B only when A sent all of them; a full send renews the others', async () => {
    const [a, b] = replicas();
    await a.markSent(session, full(['orders', 'customers']), t0);
    expect(applyDedup(block, await b.markSent(session, full(['customers', 'orders']), t0 + 1), 'reference')).toMatchObject({
      metadata_reference: { tables: ['customers', 'orders'], sent_at: '2026-03-01T10:00:00.000Z' },
    });
    expect(await b.markSent(session, full(['orders', 'products']), t0 + 4 * minute)).toEqual([{ first: true }, { first: true }]);
    expect(await mark(a, session, 'orders', t0 + 8 * minute)).toEqual({ first: false, table: 'orders', extent: 'full', firstSeenAt: t0 + 4 * minute });
    expect((await mark(a, session, 'customers', t0 + 8 * minute)).first).toBe(true);
  });

  it('of concurrent first marks of one table on both replicas exactly one is first', async () => {
    const [a, b] = replicas();
    // Each call at its own instant: the repeats' sent time names the one call that recorded.
    const marks = await Promise.all(Array.from({ length: 16 }, (_, i) => mark(i % 2 ? a : b, session, 'orders', t0 + i)));
    const firsts = marks.filter((m) => m.first);
    expect(firsts.length).toBe(1);
    const winner = marks.indexOf(firsts[0]!);
    for (const m of marks) if (!m.first) expect(m).toMatchObject({ firstSeenAt: t0 + winner });
  });

  it('concurrent first calls listing shared tables in opposite orders record them without a deadlock', async () => {
    const [a, b] = replicas();
    const keys = ['k1', 'k2'].map((t) => JSON.stringify(['full', 'trino-a', t]));
    const store = new DatabaseDedupStore(dbA);
    const limits = { entryTtlMs: 5 * minute, sessionTimeoutMs: 30 * minute };
    await store.renew(session, keys, t0, limits);
    // Two transactions hold one row each, so each call's upsert provably takes its first row and
    // then waits for its second: in table order, A would hold k1 wanting k2 while B holds k2 wanting k1.
    const holders = await Promise.all(keys.map((key) => rowHolder(session, key)));
    const renewing = [store.renew(session, keys, t0 + 1, limits), new DatabaseDedupStore(dbB).renew(session, [...keys].reverse(), t0 + 1, limits)];
    await upsertsWaiting(2, []);
    await holders[0]!.release();
    await upsertsWaiting(2, [holders[0]!.pid]);
    await holders[1]!.release();
    await expect(Promise.all(renewing)).resolves.toEqual([undefined, undefined]);
    expect(await mark(a, session, 'k1', t0 + 2)).toMatchObject({ first: false, firstSeenAt: t0 + 1 });
    expect(await mark(b, session, 'k2', t0 + 2)).toMatchObject({ first: false, firstSeenAt: t0 + 1 });
  });

  it('entry_ttl: after it, the next replica sends the full block again (injected clock)', async () => {
    const [a, b] = replicas();
    await mark(a, session, 'orders', t0);
    expect((await mark(b, session, 'orders', t0 + 5 * minute - 1)).first).toBe(false);
    expect((await mark(b, session, 'orders', t0 + 5 * minute)).first).toBe(true);
    expect(await mark(a, session, 'orders', t0 + 6 * minute)).toMatchObject({ first: false, firstSeenAt: t0 + 5 * minute });
  });

  it('session_timeout: a session idle that long starts afresh', async () => {
    const [a, b] = replicas({ entry_ttl: 60 * minute, session_timeout: 10 * minute });
    await mark(a, session, 'orders', t0);
    await mark(a, session, 'customers', t0 + 9 * minute);
    expect((await mark(b, session, 'orders', t0 + 18 * minute)).first).toBe(false);
    expect((await mark(b, session, 'customers', t0 + 28 * minute)).first).toBe(true);
    expect((await mark(a, session, 'orders', t0 + 28 * minute)).first).toBe(true);
  });

  it('keeps sessions apart, and records nothing for a session that does not exist', async () => {
    const [a, b] = replicas();
    const other = await openSession();
    await mark(a, session, 'orders', t0);
    expect((await mark(b, other, 'orders', t0)).first).toBe(true);
    expect(await mark(a, 'no-such-session', 'orders', t0)).toEqual({ first: true });
    expect(await mark(b, 'no-such-session', 'orders', t0)).toEqual({ first: true });
    expect((await dbA.query(`SELECT 1 FROM mcp_session_dedup WHERE session_id = 'no-such-session'`)).rowCount).toBe(0);
  });

  it('holds at most maxEntriesPerSession entries per session, and expired ones go', async () => {
    const [a] = replicas({}, 3);
    for (const [i, table] of ['t1', 't2', 't3', 't4'].entries()) await mark(a, session, table, t0 + i, 'brief');
    const held = async () =>
      (await dbA.query<{ table_key: string }>('SELECT table_key FROM mcp_session_dedup WHERE session_id = $1', [session])).rows.map((r) => (JSON.parse(r.table_key) as string[])[2]).sort();
    expect(await held()).toEqual(['t2', 't3', 't4']);
    // at t0 + 5m + 2 the entries sent at t0 + 1 and t0 + 2 have expired
    await mark(a, session, 't5', t0 + 5 * minute + 2, 'brief');
    expect(await held()).toEqual(['t4', 't5']);
    // A table sent in full records its three extents, within the same bound.
    await mark(a, session, 't6', t0 + 5 * minute + 3);
    expect(await held()).toEqual(['t6', 't6', 't6']);
  });

  it('rows go with the session row, and forgetSession clears them on any replica', async () => {
    const [a, b] = replicas();
    await mark(a, session, 'orders', t0);
    await b.forgetSession(session);
    expect((await mark(a, session, 'orders', t0 + 1)).first).toBe(true);
    await dbA.query('DELETE FROM mcp_sessions WHERE id = $1', [session]);
    expect((await dbA.query('SELECT 1 FROM mcp_session_dedup WHERE session_id = $1', [session])).rowCount).toBe(0);
  });
});
