/**
 * Issue 41 (scale-out with database sessions): a replica opens, reads and ends database sessions in
 * steps of one round trip — the work of one turn, or that arrives while its previous step is in
 * flight, shares the next — keeping every rule of one at a time: the per-subject cap across
 * replicas, the subject binding, and the announcement of exactly the sessions that ended.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool, listen, migrate, type Db, type Listening } from '../../shared/db/index.js';
import { DatabaseSessions, endedSessionIds, sessionEndedChannel, touchEveryMs } from '../../api/mcp/database-sessions.js';
import { createTestDatabase } from '../support/postgres.js';

const limits = { ttlMs: 8 * 3_600_000, idleMs: 30 * 60_000 };
const newSession = (subject: string) => ({ id: randomUUID(), subject, protocolVersion: '2025-11-25', clientInfo: { name: 'batch' }, capabilities: {} });

describe('database sessions in steps (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let statements: string[];
  let announced: string[];
  let listening: Listening;
  /** The platform pool, counting the session statements it runs. */
  let counted: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPool({ dsn: database.dsn, maxOpenConns: 8 });
    await migrate(db);
    counted = Object.assign(Object.create(db) as Db, {
      query: (text: string, values?: unknown[]) => {
        statements.push(text);
        return db.query(text, values as never);
      },
    });
    listening = await listen({
      dsn: database.dsn,
      channel: sessionEndedChannel,
      onNotification: (payload) => void announced.push(...endedSessionIds(payload)),
      onReconnected: () => undefined,
      log: { warn: () => undefined, info: () => undefined },
    });
  });
  afterAll(async () => {
    await listening?.close();
    await db?.end();
    await database?.drop();
  });
  beforeEach(async () => {
    statements = [];
    announced = [];
    await db.query('DELETE FROM mcp_sessions');
  });

  it('initializes that arrive together share statements, and one subject gets exactly its cap of them', async () => {
    const sessions = new DatabaseSessions(counted, limits, 3);
    const opening = Array.from({ length: 10 }, () => newSession('apikey:alice'));
    const admissions = await Promise.all(opening.map((s) => sessions.create(s)));
    expect(admissions.filter((a) => a.ok)).toHaveLength(3);
    for (const refused of admissions.filter((a) => !a.ok)) expect(refused).toEqual({ ok: false, retryAfterSeconds: expect.any(Number) });
    // Asked in one turn: one statement.
    expect(statements).toHaveLength(1);
    // The admitted are the first three asked, in the order asked.
    expect(admissions.map((a) => a.ok)).toEqual([true, true, true, false, false, false, false, false, false, false]);
    const { rows } = await db.query<{ id: string; client_info: unknown }>('SELECT id, client_info FROM mcp_sessions ORDER BY created_at');
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(opening.slice(0, 3).map((s) => s.id)));
    expect(rows[0]!.client_info).toEqual({ name: 'batch' });
  });

  it('one subject at its cap in a batch does not refuse another subject of the same batch', async () => {
    const sessions = new DatabaseSessions(counted, limits, 1);
    const opening = ['apikey:alice', 'apikey:alice', 'apikey:bob', 'apikey:carol', 'apikey:bob'].map(newSession);
    const admissions = await Promise.all(opening.map((s) => sessions.create(s)));
    expect(admissions.map((a) => a.ok)).toEqual([true, false, true, true, false]);
  });

  it('two replicas opening batches of the same subjects in opposite orders neither deadlock nor overshoot the cap', async () => {
    const a = new DatabaseSessions(db, limits, 4);
    const b = new DatabaseSessions(db, limits, 4);
    const subjects = ['apikey:s1', 'apikey:s2', 'apikey:s3', 'apikey:s4', 'apikey:s5'];
    const admissions = await Promise.all(
      Array.from({ length: 6 }, () => [...subjects.map((s) => a.create(newSession(s))), ...[...subjects].reverse().map((s) => b.create(newSession(s)))]).flat(),
    );
    expect(admissions.filter((r) => r.ok)).toHaveLength(subjects.length * 4);
    const { rows } = await db.query<{ subject: string; n: number }>('SELECT subject, count(*)::int AS n FROM mcp_sessions GROUP BY subject');
    expect(rows.every((r) => r.n === 4)).toBe(true);
  });

  it('reads of sessions not remembered go together and keep the subject binding', async () => {
    const opener = new DatabaseSessions(db, limits, 10);
    const opened = Array.from({ length: 5 }, () => newSession('apikey:alice'));
    await Promise.all(opened.map((s) => opener.create(s)));
    // Another replica: it remembers none of them.
    const reader = new DatabaseSessions(counted, limits, 10);
    const found = await Promise.all([...opened.map((s) => reader.use(s.id, 'apikey:alice')), reader.use(opened[0]!.id, 'apikey:mallory'), reader.use('never-issued', 'apikey:alice')]);
    expect(found.slice(0, 5).map((s) => s?.id)).toEqual(opened.map((s) => s.id));
    expect(found[0]).toEqual({ id: opened[0]!.id, subject: 'apikey:alice', protocolVersion: '2025-11-25' });
    expect(found.slice(5)).toEqual([undefined, undefined]);
    expect(statements).toHaveLength(1);
    // The same id asked twice in one batch answers both.
    statements = [];
    const again = new DatabaseSessions(counted, limits, 10);
    expect(await Promise.all([again.use(opened[1]!.id, 'apikey:alice'), again.use(opened[2]!.id, 'apikey:alice'), again.use(opened[2]!.id, 'apikey:alice')])).toEqual(
      [1, 2, 2].map((i) => ({ id: opened[i]!.id, subject: 'apikey:alice', protocolVersion: '2025-11-25' })),
    );
  });

  it('ends that arrive together share a statement; only the caller\'s own existing sessions end, and exactly those are announced', async () => {
    const sessions = new DatabaseSessions(counted, limits, 10);
    const alice = Array.from({ length: 4 }, () => newSession('apikey:alice'));
    const bob = newSession('apikey:bob');
    await Promise.all([...alice, bob].map((s) => sessions.create(s)));
    statements = [];
    const ended = await Promise.all([
      ...alice.map((s) => sessions.delete(s.id, s.subject)),
      sessions.delete(bob.id, 'apikey:alice'), // another subject's session
      sessions.delete('never-issued', 'apikey:alice'),
      sessions.delete(alice[0]!.id, 'apikey:alice'), // asked twice: ends once
    ]);
    expect(ended).toEqual([true, true, true, true, false, false, false]);
    expect(statements).toHaveLength(1);
    const { rows } = await db.query<{ id: string }>('SELECT id FROM mcp_sessions');
    expect(rows.map((r) => r.id)).toEqual([bob.id]);
    await expect.poll(() => announced.length, { timeout: 5_000 }).toBe(4);
    expect(new Set(announced)).toEqual(new Set(alice.map((s) => s.id)));
  });

  it('a batch that ends nothing announces nothing', async () => {
    const sessions = new DatabaseSessions(db, limits, 10);
    const bob = newSession('apikey:bob');
    await sessions.create(bob);
    expect(await Promise.all([sessions.delete('never-issued', 'apikey:bob'), sessions.delete(bob.id, 'apikey:alice')])).toEqual([false, false]);
    // A marker announcement sent after: it arrives, and nothing came before it.
    await db.query('SELECT pg_notify($1, $2)', [sessionEndedChannel, 'marker']);
    await expect.poll(() => announced, { timeout: 5_000 }).toEqual(['marker']);
  });

  it('opens, reads and ends of one turn share one round trip, ends first', async () => {
    const opener = new DatabaseSessions(db, limits, 10);
    const [kept, ending, both] = [newSession('apikey:alice'), newSession('apikey:alice'), newSession('apikey:alice')];
    await Promise.all([kept, ending, both].map((s) => opener.create(s)));
    const sessions = new DatabaseSessions(counted, limits, 10);
    const fresh = newSession('apikey:alice');
    const [opened, read, ended, readOfEnded, endOfRead] = await Promise.all([
      sessions.create(fresh),
      sessions.use(kept.id, 'apikey:alice'),
      sessions.delete(ending.id, 'apikey:alice'),
      sessions.use(both.id, 'apikey:alice'),
      sessions.delete(both.id, 'apikey:alice'),
    ]);
    expect(statements).toHaveLength(1);
    expect(opened).toEqual({ ok: true });
    expect(read?.id).toBe(kept.id);
    expect(ended).toBe(true);
    // Read and ended in one step: the end goes first.
    expect(readOfEnded).toBeUndefined();
    expect(endOfRead).toBe(true);
    const { rows } = await db.query<{ id: string }>('SELECT id FROM mcp_sessions');
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set([kept.id, fresh.id]));
    await expect.poll(() => new Set(announced), { timeout: 5_000 }).toEqual(new Set([ending.id, both.id]));
  });

  it('rewrites a read session\'s last-seen stamp only once it is touchEveryMs old', async () => {
    const sessions = new DatabaseSessions(db, limits, 10);
    const [fresh, stale] = [newSession('apikey:alice'), newSession('apikey:alice')];
    await Promise.all([fresh, stale].map((s) => sessions.create(s)));
    await db.query(`UPDATE mcp_sessions SET last_seen_at = now() - interval '10 seconds' WHERE id = $1`, [fresh.id]);
    await db.query(`UPDATE mcp_sessions SET last_seen_at = now() - interval '2 minutes' WHERE id = $1`, [stale.id]);
    const reader = new DatabaseSessions(db, limits, 10);
    expect(touchEveryMs(limits)).toBe(30_000);
    await Promise.all([reader.use(fresh.id, 'apikey:alice'), reader.use(stale.id, 'apikey:alice')]);
    const { rows } = await db.query<{ id: string; age_s: number }>('SELECT id, extract(epoch FROM now() - last_seen_at)::float8 AS age_s FROM mcp_sessions');
    const age = new Map(rows.map((r) => [r.id, r.age_s]));
    expect(age.get(fresh.id)).toBeGreaterThan(9);
    expect(age.get(stale.id)).toBeLessThan(5);
  });

  it('a step commits without waiting for its WAL, in its own transaction only', async () => {
    const client = await db.connect();
    try {
      const empty: string[] = [];
      await client.query('BEGIN');
      await client.query('SELECT * FROM mcp_sessions_step($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)', [
        ...[empty, empty, empty, empty, empty, empty, empty, empty, empty],
        limits.ttlMs,
        limits.idleMs,
        30_000,
        3,
        sessionEndedChannel,
      ]);
      expect((await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('off');
      await client.query('COMMIT');
      expect((await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('on');
    } finally {
      client.release();
    }
  });
});
