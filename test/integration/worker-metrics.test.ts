/**
 * The worker role run on its own (`platform worker`) serves /metrics on `metrics.address` (issue 15,
 * item 6): the compaction metrics are counted in the process that compacts, so without a listener
 * of its own a separate worker's `webhook_compactions_total` could never be scraped. Sharing the
 * api's services (`platform dev`), it leaves /metrics to the api.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPlatformServices } from '../../cli/platform-services.js';
import { startWorkerRole } from '../../cli/services.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { connectTemporal, freePort, type TemporalHandle } from '../../shared/temporal/index.js';
import { apiConfigYaml, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { duckdbPlatformYaml } from '../support/scratch-rigs.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';

let temporal: TestTemporal;
let handle: TemporalHandle;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let dataDir: string;

beforeAll(async () => {
  temporal = await startTestTemporal();
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 4, applicationName: 'worker-metrics' });
  await migrate(db, { log: silentLogger() });
  dataDir = await mkdtemp(join(tmpdir(), 'worker-metrics-'));
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await temporal?.stop();
  await db?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function workerConfig(metricsPort: number) {
  const config = testConfig(
    apiConfigYaml({
      extra: [
        duckdbPlatformYaml(dataDir),
        `temporal:\n  address: ${temporal.address}\n  task_queue: worker-metrics-${randomBytes(4).toString('hex')}`,
        `metrics:\n  address: "127.0.0.1:${metricsPort}"`,
      ].join('\n'),
    }),
  );
  handle ??= await connectTemporal(config.temporal);
  return config;
}

describe('the worker role and metrics.address', () => {
  it('on its own, serves its /metrics there, the compaction series included, and closes it on shutdown', async () => {
    const port = await freePort();
    const config = await workerConfig(port);
    const worker = await startWorkerRole({ config, log: silentLogger(), db, temporal: handle });
    try {
      expect(worker.metricsUrl).toBe(`http://127.0.0.1:${port}`);
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toMatch(/# TYPE webhook_compactions_total counter/);
      expect(text).toMatch(/# TYPE webhook_duplicates_dropped_total counter/);
    } finally {
      await worker.shutdown();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  }, 60_000);

  it('sharing the api services (platform dev), opens no listener of its own: the api serves /metrics', async () => {
    const port = await freePort();
    const config = await workerConfig(port);
    const services = await openPlatformServices({ config, log: silentLogger(), db });
    const worker = await startWorkerRole({ config, log: silentLogger(), db, temporal: handle, services });
    try {
      expect(worker.metricsUrl).toBeUndefined();
      await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    } finally {
      await worker.shutdown();
      await services.close();
    }
  }, 60_000);
});
