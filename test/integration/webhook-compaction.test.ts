/**
 * The compaction of one window (issue 15, item 2; spec document 3, "Webhook window", row
 * `compacting`) on real services: events ingested through the real receiver over HTTP, then
 * compactWindow on the embedded DuckDB with the filesystem store and on real Trino with MinIO.
 * The view returns the window from Parquet (duplicates gone, the earliest kept, other windows
 * untouched), a late segment and a recompaction make version 2 of the same resource with every
 * event once, a rerun changes nothing, and a crash between storing and registering is finished by
 * the retry with one registration. A compaction puts back the table's views dropped by hand. Search
 * finds the file with its table attached.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousCaller } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { type ResourceActor } from '../../shared/resources/index.js';
import { combineAttachedTables, searchTool } from '../../shared/search/index.js';
import { registeredTables } from '../../shared/tables/index.js';
import type { DuckDbEngine } from '../../shared/sql/index.js';
import { rawWindowPrefix } from '../../shared/webhooks/layout.js';
import { compactWindow, compactedWindowTables, storeCompactedFile, writeCompactedFile, type CompactionTarget } from '../../shared/webhooks/index.js';
import { START, startHarness, type Harness } from './webhook-compaction-fixtures.js';

const WINDOW = { dt: '2026-03-02', hour: '10', minute: '15' };

/** A platform administrator reading the persona's library. */
const admin: ResourceActor = { subject: 'root', personas: ['admin'], adminOfPersonas: [], platformAdmin: true, writer: { kind: 'person', subject: 'root' } };

describe.each(['duckdb', 'trino'] as const)('compacting a window on %s', (engine) => {
  let h: Harness;
  let target: CompactionTarget;
  /** The window's rows in the view: event id and the payload's `v`, by event id. */
  const windowRows = async () =>
    (
      await h.query(
        `SELECT event_id, payload, CAST(received_at AS VARCHAR) AS received_at FROM ${h.view} WHERE dt = '${WINDOW.dt}' AND hour = '${WINDOW.hour}' AND minute = '${WINDOW.minute}' ORDER BY event_id, received_at`,
      )
    ).map((r) => ({ id: String(r.event_id), v: (JSON.parse(String(r.payload)) as { v: number }).v }));
  const compactedRows = async () => Number((await h.query(`SELECT count(*) AS n FROM ${h.compacted}`))[0]!.n);
  const postAt = async (ms: number, event: object) => {
    h.clock.now = ms;
    expect(await h.post(event)).toBe(202);
  };

  beforeAll(async () => {
    h = await startHarness(engine);
    target = { source: h.source, window: WINDOW };
    // The window 10:15: a, b, a again later (a duplicate with another payload), c; then d in 10:20.
    await postAt(START + 1_000, { id: 'a', v: 1 });
    await postAt(START + 2_000, { id: 'b', v: 1 });
    await postAt(START + 3_000, { id: 'a', v: 2 });
    await postAt(START + 4_000, { id: 'c', v: 1 });
    await postAt(START + 5 * 60_000 + 1_000, { id: 'd', v: 1 });
  }, 120_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('switches the window to one Parquet file with the earliest event per id, other windows untouched', async () => {
    const everyColumn = () =>
      h.query(
        `SELECT event_id, CAST(received_at AS VARCHAR) AS received_at, CAST(landed_at AS VARCHAR) AS landed_at, event_type, key, content_hash, replica, payload, dt, hour, minute ` +
          `FROM ${h.view} WHERE minute = '${WINDOW.minute}' ORDER BY event_id, received_at`,
      );
    const raw = await everyColumn();
    // Read from raw, one row per id already: the earliest a (the later one is in the raw segments too).
    expect(await windowRows()).toEqual([
      { id: 'a', v: 1 },
      { id: 'b', v: 1 },
      { id: 'c', v: 1 },
    ]);
    const result = await compactWindow(h.deps, target);
    expect(result).toMatchObject({ version: 1, events: 3, duplicatesDropped: 1, segments: 4, created: true });
    expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await h.compactedPartitions()).toEqual([[WINDOW.dt, WINDOW.hour, WINDOW.minute, '1']]);
    expect(await compactedRows()).toBe(3);
    // The same rows, every column, now from Parquet as well: the later a is the one the file dropped.
    expect(await everyColumn()).toEqual(raw);
    expect(raw.map((r) => r.payload)).not.toContain(JSON.stringify({ id: 'a', v: 2 }));
    const other = await h.query(`SELECT event_id FROM ${h.view} WHERE minute = '20'`);
    expect(other).toEqual([{ event_id: 'd' }]);
  });

  it('files the window in the persona library, found by details naming its table, its contents not indexed', async () => {
    const page = await h.resources.list(admin, { path: `persona:${h.source.persona}/webhooks/${h.source.name}/${WINDOW.dt}` });
    expect(page.items.map((r) => [r.path, r.file_name, r.search_setting, r.version])).toEqual([[`webhooks/${h.source.name}/${WINDOW.dt}`, '10-15.parquet', 'details_only', 1]]);
    expect(page.items[0]!.description).toContain(`query them as the table webhook_${h.source.name.replaceAll('-', '_')} of connection ${h.source.connection}`);
  });

  it('is found by search with its table attached', async () => {
    // Composed as the api composes it (cli/services.ts).
    const search = searchTool({ config: h.deps.config, db: h.db, actorOf: () => admin, attachedTables: combineAttachedTables(registeredTables(h.db), compactedWindowTables(h.db)) });
    const answer = await search.handler({ query: `webhook events ${h.source.name}` }, { caller: anonymousCaller, signal: new AbortController().signal, log: silentLogger() });
    const { results } = answer.structuredContent as { results: Array<{ title: string; tables?: unknown }> };
    expect(results.map((r) => [r.title, r.tables])).toEqual([['10-15', [{ connection: h.source.connection, table: `webhook_${h.source.name.replaceAll('-', '_')}` }]]]);
  });

  it('a rerun leaves the file, its version and the one registration as they are', async () => {
    const first = (await h.resources.list(admin, { path: `persona:${h.source.persona}/webhooks/${h.source.name}/${WINDOW.dt}` })).items[0]!;
    const again = await compactWindow(h.deps, target);
    expect(again).toMatchObject({ resourceId: first.id, version: 1, sha256: first.content_sha256, created: false, events: 3 });
    expect(await h.compactedPartitions()).toEqual([[WINDOW.dt, WINDOW.hour, WINDOW.minute, '1']]);
    expect(await h.resources.versions(admin, first.id)).toHaveLength(1);
  });

  it('a late segment and a recompaction make version 2 of the same resource, every event once', async () => {
    const before = await compactWindow(h.deps, target);
    // Received inside the window, landed after its compaction: a new event and b again.
    await postAt(START + 6_000, { id: 'e', v: 1 });
    await postAt(START + 7_000, { id: 'b', v: 2 });
    const after = await compactWindow(h.deps, target);
    expect(after).toMatchObject({ resourceId: before.resourceId, version: 2, events: 4, duplicatesDropped: 2, segments: 6, created: true });
    expect(after.sha256).not.toBe(before.sha256);
    expect(await h.compactedPartitions()).toEqual([[WINDOW.dt, WINDOW.hour, WINDOW.minute, '2']]);
    expect(await windowRows()).toEqual([
      { id: 'a', v: 1 },
      { id: 'b', v: 1 },
      { id: 'c', v: 1 },
      { id: 'e', v: 1 },
    ]);
    const versions = await h.resources.versions(admin, after.resourceId);
    expect(versions.map((v) => [v.version, v.content_sha256, v.change_summary])).toEqual([
      [2, after.sha256, 'compacted: 4 events from 6 segments, 2 duplicates dropped'],
      [1, before.sha256, 'compacted: 3 events from 4 segments, 1 duplicates dropped'],
    ]);
    const rerun = await compactWindow(h.deps, target);
    expect(rerun).toMatchObject({ version: 2, sha256: after.sha256, created: false });
  });

  it('a worker stopped after storing a version and before registering it is finished by the retry: same file, one registration', async () => {
    await postAt(START + 8_000, { id: 'f', v: 1 });
    const dir = await mkdtemp(join(h.deps.tempDir, 'crashed-'));
    const file = await writeCompactedFile(h.deps, target, dir);
    const stored = await storeCompactedFile(h.deps, target, file);
    await rm(dir, { recursive: true, force: true });
    expect(stored).toMatchObject({ version: 3, created: true });
    // Not registered yet: version 2 is the window's partition, f is read from raw meanwhile.
    expect(await h.compactedPartitions()).toEqual([[WINDOW.dt, WINDOW.hour, WINDOW.minute, '2']]);
    expect((await windowRows()).map((r) => r.id)).toEqual(['a', 'b', 'c', 'e', 'f']);
    const retried = await compactWindow(h.deps, target);
    expect(retried).toMatchObject({ version: 3, sha256: stored.sha256, created: false, events: 5 });
    expect(await h.compactedPartitions()).toEqual([[WINDOW.dt, WINDOW.hour, WINDOW.minute, '3']]);
    expect((await windowRows()).map((r) => r.id)).toEqual(['a', 'b', 'c', 'e', 'f']);
  });

  it('a recompaction after the raw segments were removed keeps every event from the previous file, and heartbeats each step', async () => {
    const { storage } = h.deps;
    const prefix = rawWindowPrefix(h.source.name, WINDOW);
    const page = await storage.connection.store.listObjects(storage.bucket, { prefix });
    for (const o of page.objects) await storage.connection.store.deleteObject(storage.bucket, o.key);
    await postAt(START + 9_000, { id: 'g', v: 1 });
    const beats: string[] = [];
    const result = await compactWindow({ ...h.deps, heartbeat: (d) => beats.push(d.step) }, target);
    expect(result).toMatchObject({ version: 4, events: 6, segments: 1, duplicatesDropped: 0, created: true });
    expect((await windowRows()).map((r) => r.id)).toEqual(['a', 'b', 'c', 'e', 'f', 'g']);
    // The filesystem store's files are read in place; MinIO's are copied first, a beat per segment.
    expect(beats.filter((step) => step !== 'copying segments')).toEqual(['segments ready', 'previous file ready', 'merged', 'stored', 'registered']);
    expect(beats.includes('copying segments')).toBe(engine === 'trino');
  });

  it('a compaction puts back what was dropped by hand: the view, and on DuckDB the raw table\'s views', async () => {
    const scratch = h.deps.tables.scratch(h.source);
    const names = h.deps.tables.names(h.source);
    await scratch.dropView(names.view);
    if (engine === 'duckdb') {
      const duckdb = h.deps.tables.sql.connection(h.source.connection).engine as DuckDbEngine;
      await duckdb.exec(`DROP VIEW ${scratch.relation(names.raw.name)}; DROP VIEW ${scratch.partitionsRelation(names.raw.name)}`);
    }
    await expect(windowRows()).rejects.toThrow();
    const result = await compactWindow(h.deps, target);
    expect(result).toMatchObject({ version: 4, created: false, events: 6 });
    expect((await windowRows()).map((r) => r.id)).toEqual(['a', 'b', 'c', 'e', 'f', 'g']);
    expect(await h.query(`SELECT event_id FROM ${h.view} WHERE minute = '20'`)).toEqual([{ event_id: 'd' }]);
  });
});
