/**
 * The rig of the Temporal webhook tests (webhook-compactor*.test.ts): the ingest rig (Postgres,
 * filesystem store, embedded DuckDB, the api with its receiver), a real Temporal dev server, and
 * the platform worker given the webhook activities with `webhooks.compactor.enabled` as asked.
 */
import { randomBytes } from 'node:crypto';
import { webhookActivityDeps } from '../../cli/webhooks.js';
import type { WebhookActivityDeps } from '../../activities/index.js';
import type { RunningApi } from '../../api/start.js';
import type { DuckDbEngine } from '../../shared/sql/index.js';
import type { WebhookJobs } from '../../shared/webhooks/index.js';
import type { WebhookTableSource } from '../../shared/webhooks/table.js';
import { startTestApi } from '../support/api.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, type ResourceService } from '../../shared/resources/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { compactorSettings, createPlatformWorker, webhookJobs, type WorkerConfig } from '../../worker/index.js';
import type { CompactorSettings } from '../../workflows/index.js';
import { startTestTemporal } from '../support/temporal.js';
import { ADMIN_KEY, sign, startIngestRig, type Answer, type IngestRig } from './webhook-ingest-fixtures.js';

/** webhooks.compactor as the worker reads it (ms): short retries, schedules too slow to fire in a test. */
const compactor = { grace: 120_000, poll: 3_600_000, lease: 60_000, batch: 4, retry_backoff: 1_000, retention_every: 3_600_000 };

export interface CompactorRig {
  rig: IngestRig;
  handle: TemporalHandle;
  taskQueue: string;
  /** The workflows' settings, as the worker's schedules pass them. */
  settings: CompactorSettings;
  resources: ResourceService;
  deps: WebhookActivityDeps;
  /** The webhook workflows started through the rig's Temporal client, as the admin API starts them. */
  jobs: WebhookJobs;
  /**
   * A second api on the rig's services whose admin routes start workflows through `jobs` (the
   * rig's own api has no Temporal client), and a caller of its source routes as the admin key;
   * closed by stop().
   */
  startJobsApi(): Promise<{ api: RunningApi; admin(method: string, path: string): Promise<Answer> }>;
  stop(): Promise<void>;
}

export async function startCompactorRig(opts: { enabled: boolean; queuePrefix: string }): Promise<CompactorRig> {
  const rig = await startIngestRig();
  const temporal = await startTestTemporal();
  const taskQueue = `${opts.queuePrefix}-${randomBytes(4).toString('hex')}`;
  const temporalConfig = { address: temporal.address, namespace: temporal.namespace, task_queue: taskQueue, tls: { enabled: false } };
  const handle = await connectTemporal(temporalConfig);
  const objstore = createObjstoreConnections(rig.config);
  const resources = createResourceService({ config: rig.config, db: rig.db, objstore, log: silentLogger() });
  const webhooks = { compactor: { enabled: opts.enabled, ...compactor } };
  const config: WorkerConfig = { temporal: temporalConfig, sessions: { store: 'memory', ttl: 3_600_000, idle_timeout: 600_000, cleanup_interval: 60_000 }, webhooks };
  const jobs = webhookJobs(handle.client, { temporal: temporalConfig, webhooks });
  const deps = webhookActivityDeps({ config: rig.config, webhooks: rig.services, resources, metrics: rig.metrics, jobs });
  const worker = await createPlatformWorker({ config, db: rig.db, temporal: { connection: handle.connection, client: handle.client }, log: silentLogger(), webhooks: deps });
  const running = worker.run();
  const apis: RunningApi[] = [];
  return {
    rig,
    handle,
    taskQueue,
    settings: compactorSettings({ temporal: temporalConfig, webhooks }),
    resources,
    deps,
    jobs,
    async startJobsApi() {
      // Admin routes only: the rig's own api receives (one receiver, drained once).
      const { sources, rejections, windows, requestCounts } = rig.services;
      const api = await startTestApi({ config: rig.config, db: rig.db, webhooks: { sources, rejections, windows, requestCounts, jobs }, metrics: rig.metrics, clock: () => rig.clock.now });
      apis.push(api);
      return {
        api,
        async admin(method, path) {
          const response = await fetch(`${api.url}/api/v1/admin/webhooks/sources${path}`, { method, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
          const text = await response.text();
          return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
        },
      };
    },
    async stop() {
      for (const api of apis) await api.stop();
      await worker.shutdown();
      await running.catch(() => undefined);
      await handle.close();
      await temporal.stop();
      await objstore.close();
      await rig.stop();
    },
  };
}

/** Polls until `check` holds (a retry is Temporal's timer, not ours); fails at the deadline. */
export async function until<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The HMAC auth a test file's sources are made with, and a signed POST of one event to a source of
 * the rig (`rig` read at call time: the rig starts in beforeAll).
 */
export function hmacSender(rig: () => IngestRig, secret: string) {
  return {
    auth: { mode: 'hmac', signature_header: 'X-Signature', secret },
    send(source: string, event: Record<string, unknown>) {
      const body = JSON.stringify(event);
      return rig().hook(`/hooks/${source}`, { headers: { 'content-type': 'application/json', 'x-signature': sign(secret, body) }, body });
    },
  };
}

/**
 * Makes the source's compactions fail: a table made by hand (on the engine, as no caller may now)
 * stands where its view goes, which a compaction cannot put back. Answers what removes it.
 */
export async function blockCompactions(rig: IngestRig, source: WebhookTableSource): Promise<() => Promise<void>> {
  const scratch = rig.services.tables.scratch(source);
  const view = scratch.relation(rig.services.tables.names(source).view);
  const duckdb = rig.services.tables.sql.connection(source.connection).engine as DuckDbEngine;
  await scratch.dropView(rig.services.tables.names(source).view);
  await duckdb.exec(`CREATE TABLE ${view} (x INTEGER)`);
  return () => duckdb.exec(`DROP TABLE ${view}`);
}
