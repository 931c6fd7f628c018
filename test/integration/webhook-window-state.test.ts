/**
 * The bookkeeping and the compaction and retention state of webhook windows on real Postgres
 * (spec document 3, "Webhook window"; migrations 0012–0013, shared/webhooks/windows.ts): each
 * landing recorded (the longer length kept, a landing sequence across replicas), and each
 * selection the sweep and the retention pass make, driven by `landed` / `compacted` / `failed` on
 * an injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { readWindowFigures, retryDelayMs, WebhookWindows, type WindowKey } from '../../shared/webhooks/index.js';
import { windowOf, type WindowLength } from '../../shared/webhooks/layout.js';
import { createTestDatabase } from '../support/postgres.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const GRACE = 2 * MINUTE;
/** 2026-03-02 10:00 UTC. */
const T0 = Date.UTC(2026, 2, 2, 10, 0);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let windows: WebhookWindows;

async function addSource(name: string, opts: { enabled?: boolean } = {}): Promise<string> {
  const id = `id-${name}`;
  await db.query(
    `INSERT INTO webhook_sources (id, name, connection, enabled, persona, auth, config, created_at, updated_at, created_by)
     VALUES ($1, $2, 'local', $3, 'ops', '{"mode":"path_token"}', '{}', now(), now(), 'test')`,
    [id, name, opts.enabled ?? true],
  );
  return id;
}

/** Lands one segment at `atMs` in the window of `minutes` that `atMs` falls in; returns its key. */
async function land(sourceId: string, atMs: number, minutes: WindowLength = 15): Promise<WindowKey> {
  const window = windowOf(atMs, minutes);
  await windows.landed({ sourceId, window, landedAtMs: atMs, events: 1 });
  return { sourceId, dt: window.dt, hour: window.hour, minute: window.minute };
}

/** Due windows of one source (others' windows left aside), as `HH:MM`. */
async function dueOf(sourceId: string, nowMs: number, limit = 100): Promise<string[]> {
  return (await windows.due({ nowMs, graceMs: GRACE, limit })).filter((w) => w.sourceId === sourceId).map((w) => `${w.hour}:${w.minute}`);
}

async function landedSeq(key: WindowKey): Promise<number> {
  const { rows } = await db.query<{ landed_seq: string }>('SELECT landed_seq FROM webhook_windows WHERE source_id = $1 AND dt = $2 AND hour = $3 AND minute = $4', [
    key.sourceId,
    key.dt,
    key.hour,
    key.minute,
  ]);
  return Number(rows[0]!.landed_seq);
}

async function compact(key: WindowKey, atMs: number, version = 1): Promise<number> {
  const seq = await landedSeq(key);
  expect(await windows.compacted(key, { landedSeq: seq, resourceId: `res-${key.sourceId}-${key.hour}${key.minute}`, version, atMs })).toBe(true);
  return seq;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 4 });
  await migrate(db);
  windows = new WebhookWindows(db);
});

afterAll(async () => {
  await db.end();
  await database.drop();
});

describe('webhook windows: the sweep takes ended windows owed a compaction', () => {
  it('a receiving window, and an ended one within the grace, are not due; after the grace it is, with its source', async () => {
    const id = await addSource('due-grace');
    const key = await land(id, T0 + 5 * MINUTE);
    const end = T0 + 15 * MINUTE;
    expect(await dueOf(id, T0 + 10 * MINUTE)).toEqual([]);
    expect(await dueOf(id, end + GRACE - 1)).toEqual([]);
    const due = (await windows.due({ nowMs: end + GRACE, graceMs: GRACE, limit: 100 })).filter((w) => w.sourceId === id);
    expect(due).toEqual([{ ...key, source: 'due-grace', connection: 'local', persona: 'ops', landedSeq: await landedSeq(key), duplicatesDropped: 0 }]);
  });

  it('a window keeps its longest length: it ends (and becomes due) by that length', async () => {
    const id = await addSource('due-length');
    await land(id, T0, 60);
    // compact_every_minutes changed to 5: 10:01 still lands in the hourly window 10:00.
    await land(id, T0 + MINUTE, 5);
    expect(await dueOf(id, T0 + 5 * MINUTE + GRACE)).toEqual([]);
    expect(await dueOf(id, T0 + 60 * MINUTE + GRACE)).toEqual(['10:00']);
  });

  it('oldest first, at most `limit`, disabled sources included', async () => {
    const id = await addSource('due-order', { enabled: false });
    await land(id, T0 + 31 * MINUTE);
    await land(id, T0 + MINUTE);
    await land(id, T0 + 16 * MINUTE);
    const now = T0 + 2 * 60 * MINUTE;
    expect(await dueOf(id, now)).toEqual(['10:00', '10:15', '10:30']);
    const limited = await windows.due({ nowMs: now, graceMs: GRACE, limit: 2 });
    expect(limited).toHaveLength(2);
    // Across sources too: nothing older than what the limit returned is left out.
    const all = await windows.due({ nowMs: now, graceMs: GRACE, limit: 1000 });
    expect(limited).toEqual(all.slice(0, 2));
  });

  it('a compacted window is not due; a segment landing late makes it owed again, and a recompaction settles it', async () => {
    const id = await addSource('due-owed');
    const key = await land(id, T0);
    const now = T0 + 20 * MINUTE;
    const first = await compact(key, now);
    expect(await dueOf(id, now)).toEqual([]);
    await land(id, T0 + 14 * MINUTE);
    const owed = (await windows.due({ nowMs: now + MINUTE, graceMs: GRACE, limit: 100 })).filter((w) => w.sourceId === id);
    expect(owed.map((w) => w.landedSeq)).toEqual([await landedSeq(key)]);
    expect(owed[0]!.landedSeq).toBeGreaterThan(first);
    await compact(key, now + 2 * MINUTE, 2);
    expect(await dueOf(id, now + 2 * MINUTE)).toEqual([]);
  });

  it('compacted is idempotent and never moves back: a stale report changes nothing', async () => {
    const id = await addSource('compacted-idem');
    const key = await land(id, T0);
    const seq = await landedSeq(key);
    const done = { landedSeq: seq, resourceId: 'r1', version: 1, atMs: T0 + 20 * MINUTE };
    expect(await windows.compacted(key, done)).toBe(true);
    expect(await windows.compacted(key, { ...done, atMs: T0 + 30 * MINUTE })).toBe(true);
    const row = async () =>
      (await db.query('SELECT compacted_seq::int AS seq, compacted_at, resource_id, resource_version FROM webhook_windows WHERE source_id = $1', [id])).rows[0];
    expect(await row()).toEqual({ seq, compacted_at: new Date(T0 + 20 * MINUTE), resource_id: 'r1', resource_version: 1 });
    expect(await windows.compacted(key, { ...done, landedSeq: seq - 1, version: 0 })).toBe(false);
    expect((await row())!.seq).toBe(seq);
    expect(await windows.compacted({ ...key, minute: '45' }, done)).toBe(false);
  });

  it('a failing window waits for its next try (growing delay), shows why, and a success clears it', async () => {
    const id = await addSource('failing');
    const key = await land(id, T0);
    const now = T0 + 20 * MINUTE;
    const tries: number[] = [];
    let at = now;
    for (const attempt of [1, 2, 3]) {
      const nextTryAtMs = at + retryDelayMs(attempt, MINUTE);
      expect(await windows.failed(key, { error: `boom ${attempt}`, attempt, nextTryAtMs, atMs: at })).toBe(true);
      expect(await dueOf(id, nextTryAtMs - 1)).toEqual([]);
      expect(await dueOf(id, nextTryAtMs)).toEqual(['10:00']);
      tries.push(nextTryAtMs - at);
      at = nextTryAtMs;
    }
    expect(tries).toEqual([MINUTE, 2 * MINUTE, 4 * MINUTE]);
    const figures = await readWindowFigures(db, id, at);
    expect(figures.lastFailure).toEqual({ window: '2026-03-02T10:00', reason: 'boom 3', attempts: 3, failedAtMs: at - 4 * MINUTE, nextTryAtMs: at });
    await compact(key, at);
    expect((await readWindowFigures(db, id, at)).lastFailure).toBeNull();
    expect((await db.query('SELECT attempts, last_error, next_try_at FROM webhook_windows WHERE source_id = $1', [id])).rows[0]).toEqual({
      attempts: 0,
      last_error: null,
      next_try_at: null,
    });
  });
});

describe('webhook windows: an administrator retries', () => {
  it('retry makes a failing window due now; a compacted, up-to-date one is not owed; an unknown one is not found', async () => {
    const id = await addSource('retry-one');
    const failing = await land(id, T0);
    const done = await land(id, T0 + 15 * MINUTE);
    const now = T0 + 40 * MINUTE;
    await windows.failed(failing, { error: 'disk full', attempt: 2, nextTryAtMs: now + 30 * MINUTE, atMs: now });
    await compact(done, now);
    expect(await dueOf(id, now)).toEqual([]);
    expect(await windows.retry(failing)).toEqual({
      result: 'retried',
      window: { due: expect.objectContaining({ ...failing, source: 'retry-one', landedSeq: expect.any(Number), duplicatesDropped: 0 }), attempts: 2, lastError: 'disk full' },
    });
    expect(await dueOf(id, now)).toEqual(['10:00']);
    expect(await windows.retry(done)).toEqual({ result: 'not_owed' });
    expect(await windows.retry({ ...failing, hour: '11' })).toEqual({ result: 'not_found' });
  });

  it('retryFailing makes every failing window of the source due and names them, leaving others alone', async () => {
    const id = await addSource('retry-all');
    const other = await addSource('retry-other');
    const a = await land(id, T0);
    const b = await land(id, T0 + 15 * MINUTE);
    await land(id, T0 + 30 * MINUTE); // owed, not failing
    const theirs = await land(other, T0);
    const now = T0 + 60 * MINUTE;
    for (const key of [b, a, theirs]) await windows.failed(key, { error: 'x', attempt: 1, nextTryAtMs: now + MINUTE, atMs: now });
    expect((await windows.retryFailing(id)).map((w) => w.due.minute)).toEqual([a.minute, b.minute]);
    expect(await dueOf(id, now)).toEqual(['10:00', '10:15', '10:30']);
    expect(await dueOf(other, now)).toEqual([]);
    expect(await windows.retryFailing(other)).toHaveLength(1);
  });
});

describe('webhook windows: retention selections', () => {
  it('raw segments expire only for compacted windows not owed, after raw_retention_days since the last landing', async () => {
    const id = await addSource('raw');
    const compacted = await land(id, T0);
    const owed = await land(id, T0 + 15 * MINUTE);
    await land(id, T0 + 30 * MINUTE); // never compacted
    await compact(compacted, T0 + DAY);
    await compact(owed, T0 + DAY);
    await land(id, T0 + 16 * MINUTE); // late, after its compaction: owed again
    const days = 7;
    const expired = (now: number) => windows.rawExpired(id, { nowMs: now, rawRetentionDays: days });
    // Retention counts from the last landing: 10:00's was at 10:00, 10:15's at 10:16.
    expect(await expired(T0 + days * DAY - 1)).toEqual([]);
    expect(await expired(T0 + days * DAY)).toEqual([{ ...compacted, landedSeq: await landedSeq(compacted) }]);
    expect(await expired(T0 + 30 * DAY)).toEqual([{ ...compacted, landedSeq: await landedSeq(compacted) }]);
    expect(await windows.markRawRemoved(compacted, { landedSeq: await landedSeq(compacted), atMs: T0 + 30 * DAY })).toBe(true);
    expect(await expired(T0 + 30 * DAY)).toEqual([]);
    // The owed window once recompacted expires too.
    await compact(owed, T0 + 30 * DAY, 2);
    expect((await expired(T0 + 30 * DAY)).map((w) => w.minute)).toEqual(['15']);
  });

  it('a segment landing after raw removal is removed again once the window is recompacted', async () => {
    const id = await addSource('raw-again');
    const key = await land(id, T0);
    await compact(key, T0 + DAY);
    await windows.markRawRemoved(key, { landedSeq: await landedSeq(key), atMs: T0 + 8 * DAY });
    await land(id, T0 + 5 * MINUTE); // a replica's clock far behind
    expect(await windows.rawExpired(id, { nowMs: T0 + 9 * DAY, rawRetentionDays: 7 })).toEqual([]);
    await compact(key, T0 + 9 * DAY, 2);
    expect(await windows.rawExpired(id, { nowMs: T0 + 9 * DAY, rawRetentionDays: 7 })).toEqual([{ ...key, landedSeq: await landedSeq(key) }]);
  });

  it('compacted_retention_days 0 keeps every window; otherwise windows ended longer ago are selected, compacted or not', async () => {
    const id = await addSource('expire');
    const compacted = await land(id, T0);
    const raw = await land(id, T0 + 15 * MINUTE);
    await land(id, T0 + 3 * DAY);
    await compact(compacted, T0 + DAY);
    expect(await windows.compactedExpired(id, { nowMs: T0 + 1000 * DAY, compactedRetentionDays: 0 })).toEqual([]);
    // 10:00–10:15 ended at 10:15: 400 days later to the millisecond it is selected.
    const later = T0 + 15 * MINUTE + 400 * DAY;
    expect(await windows.compactedExpired(id, { nowMs: later - 1, compactedRetentionDays: 400 })).toEqual([]);
    expect(await windows.compactedExpired(id, { nowMs: later + 15 * MINUTE, compactedRetentionDays: 400 })).toEqual([
      { ...compacted, resourceId: `res-${id}-1000`, removalStep: null },
      { ...raw, resourceId: null, removalStep: null },
    ]);
  });

  it('removal steps move forward only; a pass stopped half-way is selected again whatever the setting, a removed window never', async () => {
    const id = await addSource('removal');
    const key = await land(id, T0);
    const next = await land(id, T0 + 15 * MINUTE);
    await compact(key, T0 + DAY);
    const now = T0 + 500 * DAY;
    const selected = (days: number) => windows.compactedExpired(id, { nowMs: now, compactedRetentionDays: days });
    expect(await windows.removalStep(key, 'unregistered')).toBe(true);
    expect(await windows.removalStep(key, 'unregistered')).toBe(false);
    // Stopped here: the next pass finds it, even with retention since set to keep forever.
    expect(await selected(0)).toEqual([{ ...key, resourceId: `res-${id}-1000`, removalStep: 'unregistered' }]);
    expect(await windows.removalStep(key, 'resource_deleted')).toBe(true);
    expect(await windows.removalStep(key, 'unregistered')).toBe(false);
    expect((await selected(0)).map((w) => w.removalStep)).toEqual(['resource_deleted']);
    // A window being removed is neither due nor retried.
    await land(id, T0 + 2 * MINUTE);
    expect(await dueOf(id, now)).toEqual(['10:15']);
    expect(await windows.retry(key)).toEqual({ result: 'not_owed' });
    expect(await windows.removalStep(key, 'removed')).toBe(true);
    expect(await selected(0)).toEqual([]);
    expect((await selected(400)).map((w) => w.minute)).toEqual([next.minute]);
    expect(await windows.rawExpired(id, { nowMs: now, rawRetentionDays: 1 })).toEqual([]);
    expect((await readWindowFigures(db, id, now)).oldestWindowStartMs).toBe(T0 + 15 * MINUTE);
  });
});

describe('webhook windows: the source page figures', () => {
  it('last event, last compacted window, windows owed (oldest first), oldest window held', async () => {
    const id = await addSource('figures');
    expect(await readWindowFigures(db, id, T0)).toEqual({ lastEventAtMs: null, lastCompacted: null, owed: { count: 0, oldest: [] }, lastFailure: null, oldestWindowStartMs: null });
    const a = await land(id, T0 + 1000);
    for (let i = 1; i <= 8; i++) await land(id, T0 + i * 15 * MINUTE + 1000);
    await compact(a, T0 + 20 * MINUTE, 3);
    const now = T0 + 2 * 60 * MINUTE + 5 * MINUTE; // 12:05: 10:15 … 11:45 have ended, 12:00 has not
    const figures = await readWindowFigures(db, id, now);
    expect(figures.lastEventAtMs).toBe(T0 + 8 * 15 * MINUTE + 1000);
    expect(figures.lastCompacted).toEqual({ window: '2026-03-02T10:00', compactedAtMs: T0 + 20 * MINUTE, resourceId: `res-${id}-1000`, version: 3 });
    expect(figures.owed.count).toBe(7);
    expect(figures.owed.oldest.map((o) => o.window)).toEqual(['10:15', '10:30', '10:45', '11:00', '11:15'].map((t) => `2026-03-02T${t}`));
    expect(figures.owed.oldest[0]).toEqual({ window: '2026-03-02T10:15', endedAtMs: T0 + 30 * MINUTE, attempts: 0 });
    expect(figures.oldestWindowStartMs).toBe(T0);
  });

  it('deleting a source deletes its windows', async () => {
    const id = await addSource('gone');
    await land(id, T0);
    await db.query('DELETE FROM webhook_sources WHERE id = $1', [id]);
    expect((await db.query('SELECT 1 FROM webhook_windows WHERE source_id = $1', [id])).rowCount).toBe(0);
  });
});

/** 2025-06-01 12:00 UTC: the landings of the bookkeeping tests. */
const T0L = Date.parse('2025-06-01T12:00:00.000Z');

const rows = async (sourceId: string) =>
  (await db.query('SELECT dt, hour, minute, length_minutes, landed_seq::int AS seq, segments::int, events::int, last_landed_at FROM webhook_windows WHERE source_id = $1 ORDER BY start_at', [sourceId])).rows;

describe('webhook windows: a segment landed records its window before any request in it is answered', () => {
  it('records the window with its partition values, length, counts and landing time', async () => {
    const firstId = await addSource('w-first');
    await windows.landed({ sourceId: firstId, window: windowOf(T0L + 5 * 60_000, 15), landedAtMs: T0L + 5 * 60_000 + 200, events: 3 });
    await windows.landed({ sourceId: firstId, window: windowOf(T0L + 6 * 60_000, 15), landedAtMs: T0L + 6 * 60_000 + 200, events: 2 });
    const [row, ...rest] = await rows(firstId);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ dt: '2025-06-01', hour: '12', minute: '00', length_minutes: 15, segments: 2, events: 5 });
    expect((row.last_landed_at as Date).getTime()).toBe(T0L + 6 * 60_000 + 200);
  });

  it('a window already holding segments keeps the longer of the old and new lengths', async () => {
    const lengthId = await addSource('w-length');
    await windows.landed({ sourceId: lengthId, window: windowOf(T0L, 60), landedAtMs: T0L, events: 1 });
    // compact_every_minutes changed to 5: the events of 12:00–12:05 land in partition minute=00 too.
    await windows.landed({ sourceId: lengthId, window: windowOf(T0L + 60_000, 5), landedAtMs: T0L + 60_000, events: 1 });
    await windows.landed({ sourceId: lengthId, window: windowOf(T0L + 30 * 60_000, 5), landedAtMs: T0L + 30 * 60_000, events: 1 });
    expect((await rows(lengthId)).map((r) => [r.minute, r.length_minutes])).toEqual([
      ['00', 60],
      ['30', 5],
    ]);
  });

  it('every landing moves the sequence on, whichever replica and clock wrote it', async () => {
    const seqId = await addSource('w-seq');
    await windows.landed({ sourceId: seqId, window: windowOf(T0L, 60), landedAtMs: T0L + 1000, events: 1 });
    const before = (await rows(seqId))[0]!.seq as number;
    // A replica whose clock is behind still counts as a later landing.
    await windows.landed({ sourceId: seqId, window: windowOf(T0L, 60), landedAtMs: T0L + 10, events: 1 });
    const after = (await rows(seqId))[0]!;
    expect(after.seq).toBeGreaterThan(before);
    expect((after.last_landed_at as Date).getTime()).toBe(T0L + 1000);
  });

  it('a source deleted while its segment was written records nothing and says so', async () => {
    await expect(windows.landed({ sourceId: 'id-w-gone', window: windowOf(T0L, 60), landedAtMs: T0L, events: 1 })).resolves.toBeUndefined();
    expect(await rows('id-w-gone')).toEqual([]);
  });
});
