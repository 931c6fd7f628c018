/**
 * Worker killed mid-compaction (issue 15, acceptance): `platform worker` as a child process on
 * real Temporal (a dev server of this file's own), Postgres, Trino and MinIO — DuckDB files cannot
 * be shared between processes. The test writes one window of many small raw segments (recorded as
 * landed, so the sweep finds it), runs a sweep pass, and SIGKILLs the worker while the compaction's
 * activity heartbeats `copying segments`. A second worker takes the retried activity once the first
 * one's heartbeat times out (`webhooks.compactor.lease` is short here), and the workflow ends with
 * the same file an uninterrupted run writes (SHA-256), version 1, and one registered partition.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookServices, removeWebhookSource, type WebhookServices } from '../../cli/webhooks.js';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, type ResourceService } from '../../shared/resources/index.js';
import { canonicalUri } from '../../shared/resources/uri.js';
import { createSqlToolkit, type SqlToolkit } from '../../shared/sql/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { compactedFileAddress, compactorActor, writeCompactedFile, type CompactedFile, type CompactionDeps, type CompactionTarget } from '../../shared/webhooks/index.js';
import { segmentKey, segmentLine, windowOf, windowValues } from '../../shared/webhooks/layout.js';
import { compactorSettings, webhookRetentionScheduleId, webhookSweepScheduleId } from '../../worker/index.js';
import { compactWorkflowId, webhookSweep } from '../../workflows/index.js';
import { spawnPlatform, type PlatformChild } from '../support/platform-child.js';
import { createTestDatabase } from '../support/postgres.js';
import { trinoPlatformYaml } from '../support/scratch-rigs.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';

/** Small segments, so copying them takes long enough to be killed half-way. */
const SEGMENTS = 400;
const EVENTS_PER_SEGMENT = 5;
/** A 5-minute window long ended (the child's sweep runs on the real clock). */
const WINDOW = windowOf(Date.UTC(2026, 2, 2, 10, 15), 5);
const REPLICA = 'kill-test-replica';
/** `webhooks.compactor.lease`: the activity's heartbeat timeout too, so the retry comes this soon after the kill. */
const LEASE = '10s';

let dir: string;
let configFile: string;
let config: PlatformConfig;
let database: { dsn: string; drop(): Promise<void> };
let db: Db;
let temporal: TestTemporal;
let handle: TemporalHandle;
let sql: SqlToolkit;
let objstore: ObjstoreConnections;
let services: WebhookServices;
let resources: ResourceService;
let target: CompactionTarget;
/** The window's file as an uninterrupted run writes it. */
let expected: CompactedFile;
const children: PlatformChild[] = [];

/** The compaction's scratch space in the children (their TMPDIR): what a killed try left is seen, and removed with `dir`. */
const childTmp = () => join(dir, 'worker-tmp');

function spawnWorker(): PlatformChild {
  // LOG_LEVEL info: the worker's "temporal worker ready" line says it polls.
  const child = spawnPlatform(['worker', '--config', configFile], { LOG_LEVEL: 'info', TMPDIR: childTmp() });
  children.push(child);
  return child;
}

/**
 * Writes the window's segments as receivers would, each recorded as landed: segment s holds events
 * [s × EVENTS_PER_SEGMENT, …) received in order, then the previous segment's first event again, a
 * second after its first copy (another payload: the earliest must be kept).
 */
async function writeWindow(): Promise<void> {
  const { storage } = services.tables;
  const spacingMs = (WINDOW.endMs - WINDOW.startMs - 10_000) / (SEGMENTS * EVENTS_PER_SEGMENT);
  const row = (i: number, copy: number) => {
    const payload = JSON.stringify({ id: `evt-${i}`, copy });
    return {
      receivedAtMs: WINDOW.startMs + i * spacingMs + copy * 1_000,
      eventId: `evt-${i}`,
      eventType: 'order.created',
      key: `k-${i % 7}`,
      contentHash: createHash('sha256').update(payload).digest('hex'),
      payload,
    };
  };
  const write = async (s: number) => {
    const landedAtMs = WINDOW.startMs + Math.floor(((s + 1) * (WINDOW.endMs - WINDOW.startMs - 1)) / SEGMENTS);
    const lines = Array.from({ length: EVENTS_PER_SEGMENT }, (_, n) => segmentLine(row(s * EVENTS_PER_SEGMENT + n, 0), landedAtMs, REPLICA));
    if (s > 0) lines.push(segmentLine(row((s - 1) * EVENTS_PER_SEGMENT, 1), landedAtMs, REPLICA));
    const key = segmentKey(target.source.name, WINDOW, REPLICA, WINDOW.startMs, s + 1);
    await storage.connection.store.putObject(storage.bucket, key, gzipSync(lines.join('\n') + '\n'), { contentType: 'application/gzip' });
    await services.windows.landed({ sourceId: target.source.id, window: WINDOW, landedAtMs, events: lines.length });
  };
  for (let s = 0; s < SEGMENTS; s += 20) await Promise.all(Array.from({ length: Math.min(20, SEGMENTS - s) }, (_, n) => write(s + n)));
}

/** The compaction activity's last heartbeat as the workflow's description shows it, if any. */
async function pendingCompaction(workflowId: string) {
  const description = await handle.client.workflow.getHandle(workflowId).describe();
  const pending = description.raw.pendingActivities ?? [];
  const payload = pending[0]?.heartbeatDetails?.payloads?.[0];
  const heartbeat = payload ? defaultPayloadConverter.fromPayload<{ step: string; segments?: number }>(payload) : undefined;
  return { status: description.status.name, pending: pending.length, attempt: pending[0]?.attempt ?? undefined, heartbeat };
}

const sha256 = async (body: AsyncIterable<unknown>) => {
  const hash = createHash('sha256');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

beforeAll(async () => {
  const id = randomBytes(4).toString('hex');
  dir = await mkdtemp(join(tmpdir(), 'webhook-compaction-kill-'));
  await mkdir(childTmp());
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 8, applicationName: 'webhook-compaction-kill' });
  await migrate(db, { log: silentLogger() });
  temporal = await startTestTemporal();
  const yaml = [
    `data_dir: ${JSON.stringify(join(dir, 'data'))}`,
    'database:',
    `  dsn: ${JSON.stringify(database.dsn)}`,
    'temporal:',
    `  address: ${temporal.address}`,
    `  namespace: ${temporal.namespace}`,
    `  task_queue: kill-${id}`,
    'personas:',
    '  definitions:',
    '    admin: { roles: [admin] }',
    'webhooks:',
    '  compactor:',
    `    lease: ${LEASE}`,
    '    retry_backoff: 1s',
    // The test runs its own sweep pass; the Schedules are paused as soon as the worker made them.
    '    poll: 24h',
    '    retention_every: 24h',
    await trinoPlatformYaml({ bucketPrefix: `wk${id}-`, schema: `s${id}` }),
  ].join('\n');
  configFile = join(dir, 'platform.yaml');
  await writeFile(configFile, yaml);
  config = parseConfig(yaml, {}).config;
  const log = silentLogger();
  handle = await connectTemporal(config.temporal);
  sql = createSqlToolkit(config, { log });
  objstore = createObjstoreConnections(config);
  services = await createWebhookServices({ config, db, objstore, sql, metrics: createMetrics({ defaultMetrics: false }), log });
  resources = createResourceService({ config, db, objstore, log });
  const name = `kill-${id}`;
  const view = await services.sources.create({ name, connection: 'cluster', auth: { mode: 'path_token', secret: randomBytes(16).toString('hex') }, config: { event_id_path: '$.id', compact_every_minutes: 5 } }, 'test');
  target = { source: { id: view.id, name, connection: 'cluster', persona: view.config.persona }, window: WINDOW };
  await writeWindow();
  // The file an uninterrupted run writes from these segments (read only: nothing stored or registered).
  const deps: CompactionDeps = { storage: services.tables.storage, tables: services.tables, resources, config, tempDir: dir };
  await mkdir(join(dir, 'expected'));
  expected = await writeCompactedFile(deps, target, join(dir, 'expected'));
}, 180_000);

afterAll(async () => {
  await Promise.all(children.map((child) => child.kill()));
  try {
    await handle?.close();
    await temporal?.stop();
    // The source goes with its tables, so the shared Trino keeps no catalog entries of this file.
    if (target) {
      await services.sources.markRemoving(target.source.name);
      await removeWebhookSource({ webhooks: services, resources }, target.source);
    }
  } finally {
    await sql?.close();
    await objstore?.close();
    await db?.end();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

describe('a worker SIGKILLed in the middle of a compaction', () => {
  it('the workflow completes on a new worker with the same file (SHA-256) as an uninterrupted run, version 1, one registered partition', async () => {
    expect(expected).toMatchObject({ segments: SEGMENTS, events: SEGMENTS * EVENTS_PER_SEGMENT, duplicatesDropped: SEGMENTS - 1 });
    const first = spawnWorker();
    await first.waitFor('temporal worker ready', 60_000);
    for (const id of [webhookSweepScheduleId, webhookRetentionScheduleId]) await handle.client.schedule.getHandle(id).pause('the test runs its own passes');

    const settings = compactorSettings({ temporal: config.temporal, webhooks: config.webhooks });
    const sweep = await handle.client.workflow.execute(webhookSweep, { workflowId: `sweep-${randomBytes(4).toString('hex')}`, taskQueue: config.temporal.task_queue, args: [{ settings }] });
    const workflowId = compactWorkflowId({ source: target.source.name, ...WINDOW });
    expect(sweep.started).toEqual([workflowId]);

    // The worker is another process: its progress is read from Temporal, a short poll, bounded.
    let seen: Awaited<ReturnType<typeof pendingCompaction>> | undefined;
    for (let tries = 0; tries < 400 && seen?.heartbeat?.step !== 'copying segments'; tries++) {
      seen = await pendingCompaction(workflowId);
      if (seen.heartbeat?.step !== 'copying segments') await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen?.heartbeat?.step, `the compaction never heartbeat "copying segments":\n${first.output()}`).toBe('copying segments');
    await first.kill();
    expect(first.process.signalCode).toBe('SIGKILL');

    // Killed half-way: no result, the activity pending on its first try, no file stored, and the
    // try's scratch directory holding only part of the segments and no Parquet file.
    expect(await pendingCompaction(workflowId)).toMatchObject({ status: 'RUNNING', pending: 1, attempt: 1 });
    const actor = compactorActor(target.source.persona);
    const address = compactedFileAddress(target);
    await expect(resources.resolve(actor, canonicalUri(address.library, address.path, address.fileName))).rejects.toMatchObject({ code: 'not_found' });
    const tries = (await readdir(childTmp())).filter((name) => name.startsWith('webhook-compaction-'));
    expect(tries).toHaveLength(1);
    const left = await readdir(join(childTmp(), tries[0]!));
    expect(left).not.toContain('window.parquet');
    const copied = left.filter((name) => name.startsWith('segment-')).length;
    expect(copied).toBeGreaterThan(0);
    expect(copied).toBeLessThan(SEGMENTS);

    const second = spawnWorker();
    const result = await Promise.race([
      handle.client.workflow.getHandle(workflowId).result(),
      second.exited.then(() => Promise.reject(new Error(`the second worker exited:\n${second.output()}`))),
    ]);
    expect(result).toMatchObject({ version: 1, created: true, sha256: expected.sha256, events: expected.events, duplicatesDropped: expected.duplicatesDropped });

    // The stored bytes are that file; the resource has one version; the window one partition.
    const { object } = await resources.headObject(actor, result.resourceId);
    const { storage } = services.tables;
    expect(await sha256((await storage.connection.store.getObject(object.bucket, object.key)).body)).toBe(expected.sha256);
    expect((await resources.versions(actor, result.resourceId)).map((v) => v.version)).toEqual([1]);
    expect(await services.tables.scratch(target.source).listPartitions(services.tables.names(target.source).compacted)).toEqual([[...windowValues(WINDOW), '1']]);
    const { rows } = await db.query('SELECT compacted_seq, landed_seq, resource_version, attempts FROM webhook_windows WHERE source_id = $1', [target.source.id]);
    expect(rows).toEqual([{ compacted_seq: rows[0].landed_seq, landed_seq: rows[0].landed_seq, resource_version: 1, attempts: 0 }]);

    // The result is the second try's: the first one timed out with the killed worker.
    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    const started = history.events?.find((event) => event.activityTaskStartedEventAttributes)?.activityTaskStartedEventAttributes;
    expect(started?.attempt).toBeGreaterThanOrEqual(2);
    expect(started?.lastFailure?.timeoutFailureInfo).toBeTruthy();
  }, 90_000);
});
