/**
 * The platform's Temporal worker: polls `temporal.task_queue` with every platform workflow and
 * activity, and (re-)registers the platform's Schedules when it starts.
 */
import type { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Pool } from 'pg';
import { createActivities } from '../activities/index.js';
import { HEARTBEAT_EVERY_MS, heartbeatInterceptor } from '../activities/heartbeat.js';
import type { Logger } from '../shared/logging/index.js';
import { temporalTlsOptions } from '../shared/temporal/index.js';
import { workflowBundle } from './bundle.js';
import type { WorkerConfig } from './config.js';
import { installTemporalRuntime } from './runtime.js';
import { platformSchedules, registerSchedules } from './schedules.js';
import { webhookActivityQueue, webhookSearchAttributes } from './webhooks.js';
import { registerKeywordSearchAttributes } from './search-attributes.js';
import { createWebhookActivities, type WebhookActivityDeps } from '../activities/webhooks.js';
import { createScriptActivities, type ScriptActivityDeps } from '../activities/scripts.js';
import { scriptActivityQueue, scriptReconcileSchedule } from './script-schedules.js';
import { scriptNameAttribute } from '../workflows/scripts.js';
import { createSearchActivities, type SearchWorkerDeps } from '../activities/search.js';
import { indexSweepSchedule, searchActivityQueue } from './search.js';
import { createThumbnailActivities, type ThumbnailActivityDeps } from '../activities/thumbnails.js';
import { thumbnailActivityQueue } from '../workflows/thumbnails.js';
import { createResourceActivities, type ResourceActivityDeps } from '../activities/resources.js';
import { resourceActivityQueue } from './resource-requests.js';
import { createTableActivities, type TableActivityDeps } from '../activities/tables.js';
import { tableActivityQueue } from '../workflows/tables.js';

export interface PlatformWorkerDeps {
  config: WorkerConfig;
  db: Pool;
  temporal: { connection: Connection; client: Client };
  log: Logger;
  /** Webhook window compaction: with these (and `webhooks.compactor.enabled`) the worker compacts. */
  webhooks?: WebhookActivityDeps;
  /** Scheduled script runs: with these the worker runs scripts and reconciles their Schedules. */
  scripts?: ScriptActivityDeps;
  /** Search indexing: with these the worker indexes resources and runs the index sweep. */
  search?: SearchWorkerDeps;
  /** Thumbnail drawing (`drawThumbnail`'s activities): with these the worker draws tiles. */
  thumbnails?: ThumbnailActivityDeps;
  /** Archive extraction and folder renames: with these the worker runs the resource requests' activities. */
  resources?: ResourceActivityDeps;
  /** Table registration's follow-ups and large corrections (registerTable's activity): with these the worker runs them. */
  tables?: TableActivityDeps;
}

export interface PlatformWorker {
  /** Polls until shutdown() (or a fatal worker error, which rejects). */
  run(): Promise<void>;
  /** Stops polling, lets in-flight tasks finish, closes the worker's connection. Idempotent. */
  shutdown(): Promise<void>;
}

/**
 * Every worker's activities heartbeat (activities/heartbeat.ts), and their beats reach the server
 * every 10 s at most (by default the SDK holds them back for 0.8 of the heartbeat timeout, which
 * would leave a busy worker a few seconds' slack before its activity counts as lost).
 */
const heartbeating = {
  interceptors: { activity: [heartbeatInterceptor()] },
  maxHeartbeatThrottleInterval: HEARTBEAT_EVERY_MS,
};

export async function createPlatformWorker(deps: PlatformWorkerDeps): Promise<PlatformWorker> {
  const { config, log } = deps;
  const address = config.temporal.address;
  if (!address) throw new Error('temporal.address is not set');
  installTemporalRuntime(log);
  // The worker needs the Rust-side NativeConnection; the client's Connection cannot be shared.
  const connection = await NativeConnection.connect({ address, tls: await temporalTlsOptions(config.temporal.tls) });
  const workers: Worker[] = [];
  try {
    const bundle = await workflowBundle(log);
    // Before Worker.create: once a Worker holds the connection it can only be released by running
    // and shutting it down. A schedule registered before its worker exists simply waits in the queue.
    const compacts = deps.webhooks !== undefined && config.webhooks?.compactor.enabled === true;
    if (compacts) await registerKeywordSearchAttributes(deps.temporal.connection, config.temporal.namespace, webhookSearchAttributes);
    const schedules = platformSchedules(config, { webhooks: compacts });
    if (deps.scripts) {
      await registerKeywordSearchAttributes(deps.temporal.connection, config.temporal.namespace, [scriptNameAttribute.name]);
      schedules.push(scriptReconcileSchedule(config.temporal.task_queue));
    }
    if (deps.search) schedules.push(indexSweepSchedule(config.temporal.task_queue));
    await registerSchedules(deps.temporal.client, schedules, log);
    const activityLog = log.child({ component: 'activities' });
    workers.push(
      await Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.task_queue,
        workflowBundle: bundle,
        activities: createActivities({ db: deps.db, log: activityLog }),
        ...heartbeating,
      }),
    );
    // Each family of activities has a queue of its own, polled only by a worker given what it
    // needs: a worker without them never takes (and fails) their tasks.
    const activityWorkers: Array<[queue: string, activities: object] | undefined> = [
      // The webhook activities: only with the compactor on.
      compacts && deps.webhooks ? [webhookActivityQueue(config.temporal.task_queue), createWebhookActivities(deps.webhooks)] : undefined,
      // The scripts' activities: only with a ScriptRunner.
      deps.scripts ? [scriptActivityQueue(config.temporal.task_queue), createScriptActivities(deps.scripts)] : undefined,
      // Search indexing: only with the resources and their storage.
      deps.search ? [searchActivityQueue(config.temporal.task_queue), createSearchActivities(deps.search)] : undefined,
      // Thumbnails (CPU-heavy, and they need the object store).
      deps.thumbnails ? [thumbnailActivityQueue(config.temporal.task_queue), createThumbnailActivities(deps.thumbnails)] : undefined,
      // The resource requests (extraction, folder renames): only with the resources service.
      deps.resources ? [resourceActivityQueue(config.temporal.task_queue), createResourceActivities(deps.resources)] : undefined,
      // Table corrections and follow-ups: only with the resources, the SQL connections and the platform storage.
      deps.tables ? [tableActivityQueue(config.temporal.task_queue), createTableActivities(deps.tables)] : undefined,
    ];
    for (const [taskQueue, activities] of activityWorkers.filter((entry) => entry !== undefined)) {
      workers.push(await Worker.create({ connection, namespace: config.temporal.namespace, taskQueue, activities, ...heartbeating }));
    }
  } catch (err) {
    await Promise.all(workers.map((w) => drain(w)));
    await connection.close().catch(() => undefined);
    throw err;
  }
  log.info({ taskQueue: config.temporal.task_queue, namespace: config.temporal.namespace, webhookActivities: deps.webhooks !== undefined && config.webhooks?.compactor.enabled === true, scriptActivities: deps.scripts !== undefined, searchActivities: deps.search !== undefined, thumbnailActivities: deps.thumbnails !== undefined, resourceActivities: deps.resources !== undefined, tableActivities: deps.tables !== undefined }, 'temporal worker ready');

  let running: Promise<void> | undefined;
  let closed: Promise<void> | undefined;
  const closeConnection = () => (closed ??= connection.close());
  const runAll = () => Promise.all(workers.map((w) => w.run())).then(() => undefined).finally(closeConnection);

  return {
    run() {
      running ??= runAll();
      return running;
    },
    async shutdown() {
      // A created worker holds the connection until it has run and drained, so even one that
      // never ran is started and stopped at once to release it.
      running ??= runAll();
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running.catch(() => undefined);
    },
  };
}

/** Runs a created worker and stops it at once: the only way to release its hold on the connection. */
async function drain(worker: Worker): Promise<void> {
  const run = worker.run();
  if (worker.getState() === 'RUNNING') worker.shutdown();
  await run.catch(() => undefined);
}
