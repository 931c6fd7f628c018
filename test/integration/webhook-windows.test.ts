/**
 * The window bookkeeping behind compaction (spec document 3, "Webhook window"; migration 0012):
 * each segment landed records its window — the longer length kept when compact_every_minutes
 * changed, a landing sequence that grows across replicas, segment and event counts — on real Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { WebhookWindows } from '../../shared/webhooks/index.js';
import { windowOf } from '../../shared/webhooks/layout.js';
import { createTestDatabase } from '../support/postgres.js';

const AT = Date.parse('2025-06-01T12:00:00.000Z');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let windows: WebhookWindows;

async function addSource(id: string): Promise<void> {
  await db.query(
    `INSERT INTO webhook_sources (id, name, connection, persona, auth, config, created_at, updated_at, created_by)
     VALUES ($1, $1, 'local', 'admin', '{"mode":"path_token"}', '{}', now(), now(), 'test')`,
    [id],
  );
}

const rows = async (sourceId: string) =>
  (await db.query('SELECT dt, hour, minute, length_minutes, landed_seq::int AS seq, segments::int, events::int, last_landed_at FROM webhook_windows WHERE source_id = $1 ORDER BY start_at', [sourceId])).rows;

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

describe('webhook windows: a segment landed records its window before any request in it is answered', () => {
  it('records the window with its partition values, length, counts and landing time', async () => {
    await addSource('w-first');
    await windows.landed({ sourceId: 'w-first', window: windowOf(AT + 5 * 60_000, 15), landedAtMs: AT + 5 * 60_000 + 200, events: 3 });
    await windows.landed({ sourceId: 'w-first', window: windowOf(AT + 6 * 60_000, 15), landedAtMs: AT + 6 * 60_000 + 200, events: 2 });
    const [row, ...rest] = await rows('w-first');
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ dt: '2025-06-01', hour: '12', minute: '00', length_minutes: 15, segments: 2, events: 5 });
    expect((row.last_landed_at as Date).getTime()).toBe(AT + 6 * 60_000 + 200);
  });

  it('a window already holding segments keeps the longer of the old and new lengths', async () => {
    await addSource('w-length');
    await windows.landed({ sourceId: 'w-length', window: windowOf(AT, 60), landedAtMs: AT, events: 1 });
    // compact_every_minutes changed to 5: the events of 12:00–12:05 land in partition minute=00 too.
    await windows.landed({ sourceId: 'w-length', window: windowOf(AT + 60_000, 5), landedAtMs: AT + 60_000, events: 1 });
    await windows.landed({ sourceId: 'w-length', window: windowOf(AT + 30 * 60_000, 5), landedAtMs: AT + 30 * 60_000, events: 1 });
    expect((await rows('w-length')).map((r) => [r.minute, r.length_minutes])).toEqual([
      ['00', 60],
      ['30', 5],
    ]);
  });

  it('every landing moves the sequence on, whichever replica and clock wrote it', async () => {
    await addSource('w-seq');
    await windows.landed({ sourceId: 'w-seq', window: windowOf(AT, 60), landedAtMs: AT + 1000, events: 1 });
    const before = (await rows('w-seq'))[0]!.seq as number;
    // A replica whose clock is behind still counts as a later landing.
    await windows.landed({ sourceId: 'w-seq', window: windowOf(AT, 60), landedAtMs: AT + 10, events: 1 });
    const after = (await rows('w-seq'))[0]!;
    expect(after.seq).toBeGreaterThan(before);
    expect((after.last_landed_at as Date).getTime()).toBe(AT + 1000);
  });

  it('a source deleted while its segment was written records nothing and does not fail the write', async () => {
    await expect(windows.landed({ sourceId: 'w-gone', window: windowOf(AT, 60), landedAtMs: AT, events: 1 })).resolves.toBeUndefined();
    expect(await rows('w-gone')).toEqual([]);
  });
});
