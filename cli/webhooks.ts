import { hostname, tmpdir } from 'node:os';
import type { WebhookActivityDeps, WebhookWindowRef } from '../activities/webhooks.js';
import type { ResourceService } from '../shared/resources/index.js';
import { randomBytes } from 'node:crypto';
import type { PlatformConfig } from '../shared/config/index.js';
import type { Db } from '../shared/db/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { Metrics } from '../shared/metrics/index.js';
import type { ObjstoreConnections } from '../shared/objstore/index.js';
import type { SqlToolkit } from '../shared/sql/index.js';
import { platformScratchStorage } from '../shared/sql/scratch/index.js';
import {
  applyRetention,
  compactWindow,
  removeSource,
  WebhookReceiver,
  WebhookRejections,
  WebhookRequestCounts,
  WebhookSources,
  WebhookTableCatalog,
  WebhookWindows,
  webhookMetrics,
  webhookSecretBox,
  type RemovingSource,
  type SourceRemovalResult,
  type WebhookJobs,
} from '../shared/webhooks/index.js';

export interface WebhookServices {
  sources: WebhookSources;
  rejections: WebhookRejections;
  tables: WebhookTableCatalog;
  windows: WebhookWindows;
  /** Requests per source and outcome across replicas; this replica's receiver adds to them. */
  requestCounts: WebhookRequestCounts;
  receiver: WebhookReceiver;
}

/**
 * This replica's id: the host name and a random part, so two processes on one host (or a restart)
 * never share one. Only characters a segment name may hold.
 */
export function replicaId(): string {
  const host = hostname().toLowerCase().replace(/[^a-z0-9.]+/g, '.').replace(/^\.+|\.+$/g, '').slice(0, 40) || 'replica';
  return `${host}-${randomBytes(4).toString('hex')}`;
}

/**
 * Inbound webhooks over the platform's services: sources in the database, their tables in the
 * scratch catalogs of the SQL connections, raw segments in the platform's storage (the
 * managed-resources connection and bucket).
 */
export async function createWebhookServices(opts: {
  config: PlatformConfig;
  db: Db;
  objstore: ObjstoreConnections;
  sql: Pick<SqlToolkit, 'connection'>;
  metrics: Metrics;
  log: Logger;
  now?: () => number;
}): Promise<WebhookServices> {
  const { config, db } = opts;
  const storage = await platformScratchStorage(config, opts.objstore);
  const tables = new WebhookTableCatalog(opts.sql, storage);
  const sources = new WebhookSources({ db, config, box: await webhookSecretBox(config), tables, ...(opts.now ? { clock: opts.now } : {}) });
  const rejections = new WebhookRejections(db);
  const now = opts.now ?? Date.now;
  const log = opts.log.child({ component: 'webhooks' });
  const windows = new WebhookWindows(db);
  // Written a few seconds at a time; the receiver's drain() on shutdown writes the rest.
  const requestCounts = new WebhookRequestCounts({ db, log, now });
  const receiver = new WebhookReceiver({
    sources,
    rejections,
    tables,
    windows,
    requestCounts,
    // A segment's name is new on every write ({replica}-{start}-{sequence}): written create-only,
    // so none is ever overwritten, and the filesystem store need not read what is there first.
    writeSegment: async (key, body, signal) => {
      await storage.connection.store.putObject(storage.bucket, key, body, { contentType: 'application/gzip', ifNoneMatch: '*', signal });
    },
    replica: replicaId(),
    startMs: now(),
    writeTimeoutMs: config.webhooks.receiver.write_timeout,
    metrics: webhookMetrics(opts.metrics.registry),
    log,
    now,
  });
  return { sources, rejections, tables, windows, requestCounts, receiver };
}

/** Removes a source marked for removal over the platform services (shared/webhooks/removal.ts). */
export function removeWebhookSource(
  opts: { webhooks: WebhookServices; resources: ResourceService; heartbeat?: (detail: unknown) => void },
  source: RemovingSource,
): Promise<SourceRemovalResult> {
  const { webhooks } = opts;
  return removeSource(
    { windows: webhooks.windows, storage: webhooks.tables.storage, tables: webhooks.tables, resources: opts.resources, sources: webhooks.sources, ...(opts.heartbeat ? { heartbeat: opts.heartbeat } : {}) },
    source,
  );
}

/**
 * The webhook activities of a worker (activities/webhooks.ts) over the platform services: windows
 * due from Postgres, compaction into managed resources, the bookkeeping of each try, retention,
 * and the removal of deleted sources (whose compactions `jobs` terminates).
 */
export function webhookActivityDeps(opts: {
  config: PlatformConfig;
  webhooks: WebhookServices;
  resources: ResourceService;
  metrics: Metrics;
  jobs: Pick<WebhookJobs, 'stopCompactions'>;
}): WebhookActivityDeps {
  const { config, webhooks, resources } = opts;
  const keyOf = (w: WebhookWindowRef) => ({ sourceId: w.sourceId, dt: w.dt, hour: w.hour, minute: w.minute });
  return {
    async retentionSources() {
      // A source being removed drops out: its removal takes what it holds.
      return (await webhooks.sources.list()).filter((source) => source.state !== 'removing').map((source) => ({
        id: source.id,
        name: source.name,
        connection: source.connection,
        persona: source.config.persona,
        rawRetentionDays: source.config.raw_retention_days,
        compactedRetentionDays: source.config.compacted_retention_days,
      }));
    },
    retention: (source, nowMs, heartbeat) =>
      applyRetention({ windows: webhooks.windows, storage: webhooks.tables.storage, tables: webhooks.tables, resources, heartbeat }, source, nowMs),
    due: (query) => webhooks.windows.due(query),
    compact: (window, heartbeat) =>
      compactWindow(
        { storage: webhooks.tables.storage, tables: webhooks.tables, resources, config, tempDir: tmpdir(), heartbeat },
        { source: { id: window.sourceId, name: window.source, connection: window.connection, persona: window.persona }, window },
      ),
    async compacted(window, result, atMs) {
      await webhooks.windows.compacted(keyOf(window), { landedSeq: window.landedSeq, resourceId: result.resourceId, version: result.version, atMs, duplicatesDropped: result.duplicatesDropped });
    },
    async failed(window, failure) {
      await webhooks.windows.failed(keyOf(window), failure);
    },
    isRemoving: (sourceId) => webhooks.sources.isRemoving(sourceId),
    removingSources: () => webhooks.sources.removing(),
    async stopCompactions(source) {
      return opts.jobs.stopCompactions(source.name, await webhooks.windows.owed(source.id));
    },
    removeSource: (source, heartbeat) => removeWebhookSource({ webhooks, resources, heartbeat }, source),
    metrics: webhookMetrics(opts.metrics.registry),
  };
}
