/**
 * The rig of the compaction tests (webhook-compaction.test.ts, webhook-compaction-view.test.ts):
 * real Postgres, the api with its receiver and admin routes, one hmac source with 5-minute
 * windows (event ids from `$.id`), and the compaction's deps — on the embedded DuckDB with the
 * filesystem store, or on real Trino with MinIO.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebhookServices, removeWebhookSource, type WebhookServices } from '../../cli/webhooks.js';
import type { RunningApi } from '../../api/start.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, type ResourceService } from '../../shared/resources/index.js';
import type { DialectScratchCatalog } from '../../shared/sql/scratch/catalog.js';
import type { CompactionDeps, CompactionTarget } from '../../shared/webhooks/index.js';
import { adminApiYaml, startTestApi } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { duckdbPlatformYaml, rigFrom, trinoPlatformYaml, type ScratchRig } from '../support/scratch-rigs.js';

export const ADMIN_KEY = 'admin-key-compaction-0123456789';
export const SECRET = 'whsec-compaction-S3CR3T';
/** 2026-03-02 10:15:00 UTC: the injected clock's start (the 10:15 window of 5-minute windows). */
export const START = Date.UTC(2026, 2, 2, 10, 15, 0);

export interface Harness {
  clock: { now: number };
  deps: CompactionDeps;
  resources: ResourceService;
  source: CompactionTarget['source'];
  /** The view, as SQL names it. */
  view: string;
  /** The compacted table, as SQL names it. */
  compacted: string;
  scratch: DialectScratchCatalog;
  webhooks: WebhookServices;
  db: Db;
  compactedPartitions(): Promise<string[][]>;
  /** POSTs `event` signed, to the source; answers the status. */
  post(event: object): Promise<number>;
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  stop(): Promise<void>;
}

export async function startHarness(engine: 'duckdb' | 'trino'): Promise<Harness> {
  const id = randomBytes(4).toString('hex');
  const database = await createTestDatabase();
  const db: Db = createPool({ dsn: database.dsn, maxOpenConns: 8, applicationName: 'webhook-compaction' });
  await migrate(db, { log: silentLogger() });
  const dataDir = await mkdtemp(join(tmpdir(), 'webhook-compaction-'));
  let extra: string;
  let connection: string;
  if (engine === 'duckdb') {
    connection = 'local';
    extra = duckdbPlatformYaml(dataDir);
  } else {
    connection = 'cluster';
    extra = await trinoPlatformYaml({ bucketPrefix: `wc${id}-`, schema: `s${id}` });
  }
  const rig: ScratchRig = await rigFrom(adminApiYaml({ adminKey: ADMIN_KEY, extra }), connection, () => rm(dataDir, { recursive: true, force: true }));
  const clock = { now: START };
  const log = silentLogger();
  const metrics = createMetrics({ defaultMetrics: false });
  const webhooks: WebhookServices = await createWebhookServices({ config: rig.config, db, objstore: rig.objstore, sql: rig.sql, metrics, log, now: () => clock.now });
  const api: RunningApi = await startTestApi({ config: rig.config, db, webhooks, metrics, tools: rig.sql.tools, log, clock: () => clock.now });
  const objstore: ObjstoreConnections = createObjstoreConnections(rig.config);
  const resources = createResourceService({ config: rig.config, db, objstore, log });
  const name = `orders-${id}`;
  const created = await fetch(`${api.url}/api/v1/admin/webhooks/sources`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      connection,
      auth: { mode: 'hmac', signature_header: 'X-Signature', secret: SECRET },
      config: { event_id_path: '$.id', compact_every_minutes: 5, flush_max_events: 1 },
    }),
  });
  const view = (await created.json()) as { id: string; table: string; config: { persona: string } };
  if (created.status !== 201) throw new Error(`creating ${name}: ${created.status} ${JSON.stringify(view)}`);
  const source = { id: view.id, name, connection, persona: view.config.persona };
  const scratch = webhooks.tables.scratch(source) as DialectScratchCatalog;
  const tempDir = await mkdtemp(join(tmpdir(), 'webhook-compaction-work-'));
  return {
    clock,
    resources,
    source,
    scratch,
    webhooks,
    db,
    view: scratch.relation(view.table),
    compacted: scratch.relation(webhooks.tables.names(source).compacted.name),
    deps: { storage: rig.storage, tables: webhooks.tables, resources, config: rig.config, tempDir },
    compactedPartitions: () => scratch.listPartitions(webhooks.tables.names(source).compacted),
    async post(event) {
      const body = JSON.stringify(event);
      const response = await fetch(`${api.hooksUrl ?? api.url}/hooks/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': createHmac('sha256', SECRET).update(body).digest('hex') },
        body,
      });
      await response.arrayBuffer();
      return response.status;
    },
    query: (sql) => rig.query(sql),
    async stop() {
      // The source goes with its tables, so a shared Trino keeps no catalog entries of this file.
      // (DELETE only marks it: no worker here, so the removal runs in this process.)
      await fetch(`${api.url}/api/v1/admin/webhooks/sources/${name}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      await removeWebhookSource({ webhooks, resources }, source);
      await api.stop();
      await objstore.close();
      await rig.close();
      await db.end();
      await database.drop();
      await rm(tempDir, { recursive: true, force: true });
    },
  };
}
