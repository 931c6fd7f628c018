/**
 * A platform worker that indexes, for the search tests: the search deps over a resource env, on a
 * fresh task queue, with its index-sweep Schedule paused (the tests run the sweep themselves; the
 * Schedule's own passes would race them).
 */
import { randomBytes } from 'node:crypto';
import { silentLogger } from '../../shared/logging/index.js';
import type { Embedder } from '../../shared/search/index.js';
import type { TemporalHandle } from '../../shared/temporal/index.js';
import { createPlatformWorker, indexSweepSchedule, type PlatformWorker, type WorkerConfig } from '../../worker/index.js';
import type { TestTemporal } from '../support/temporal.js';
import type { ResourceEnv } from './resources-core-fixtures.js';

export async function startSearchWorker(
  env: ResourceEnv,
  temporal: TestTemporal,
  handle: TemporalHandle,
  opts: { queuePrefix: string; embedder?: Embedder },
): Promise<{ worker: PlatformWorker; taskQueue: string }> {
  const taskQueue = `${opts.queuePrefix}-${randomBytes(4).toString('hex')}`;
  const config: WorkerConfig = {
    temporal: { address: temporal.address, namespace: temporal.namespace, task_queue: taskQueue, tls: { enabled: false } },
    sessions: { store: 'memory', ttl: 3_600_000, idle_timeout: 600_000, cleanup_interval: 60_000 },
  };
  const worker = await createPlatformWorker({
    config,
    db: env.db,
    temporal: handle,
    log: silentLogger(),
    search: { config: env.config, db: env.db, resources: env.service, store: env.connections.get('main').store, ...(opts.embedder ? { embedder: opts.embedder } : {}) },
  });
  void worker.run();
  await handle.client.schedule.getHandle(indexSweepSchedule(taskQueue).id).pause('the test runs the sweep');
  return { worker, taskQueue };
}
