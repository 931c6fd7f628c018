/**
 * The webhook ingest over real HTTP on real services (issue 14, item 2): Postgres, the embedded
 * DuckDB connection with its scratch schema, the filesystem store in a temp dir, the webhook
 * services of cli/webhooks.ts on an injected clock, and an admin API key that creates sources
 * through the admin REST API. Shared by webhook-ingest*.test.ts.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createWebhookServices, replicaId, type WebhookServices } from '../../cli/webhooks.js';
import type { RunningApi } from '../../api/start.js';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { createMetrics, type Metrics } from '../../shared/metrics/index.js';
import { createObjstoreConnections, embeddedObjstoreInstance, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createSqlToolkit, embeddedSqlInstance, type SqlToolkit } from '../../shared/sql/index.js';
import { platformScratchStorage, type ScratchStorage } from '../../shared/sql/scratch/index.js';
import { WebhookReceiver, WebhookWindows, webhookMetrics } from '../../shared/webhooks/index.js';
import { adminApiYaml, connectMcp, startTestApi } from '../support/api.js';
import { capturingLogger } from '../support/logs.js';
import { halfSent, type RawAnswer } from '../support/raw-http.js';
import { createTestDatabase } from '../support/postgres.js';

export const ADMIN_KEY = 'admin-key-ingest-0123456789';
/** 2026-03-02 10:15:00 UTC: the injected clock's start. */
export const START = Date.UTC(2026, 2, 2, 10, 15, 0);

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads parsed JSON freely
  json: any;
}

export interface IngestRig {
  config: PlatformConfig;
  db: Db;
  api: RunningApi;
  services: WebhookServices;
  storage: ScratchStorage;
  metrics: Metrics;
  /** Every log line of the api and the webhook services. */
  logs: string[];
  /** The injected clock (ms since the epoch); tests move it forward. */
  clock: { now: number };
  /** Where /hooks/ is served: the api, or the separate listener when one is configured. */
  hooksBase: string;
  admin(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Creates a source through the admin API (connection `local`); returns its view. */
  createSource(name: string, auth: Record<string, unknown>, config?: Record<string, unknown>): Promise<Answer['json']>;
  hook(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }, base?: string): Promise<Answer>;
  /** The keys of every raw segment of a source in the platform's storage. */
  segments(source: string): Promise<string[]>;
  /** Rows of `sql_query` on connection `local` through MCP, as the admin key. */
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  /** /metrics of the api. */
  scrape(): Promise<string>;
  /**
   * A second api on the same database, sources and tables whose receiver writes segments through
   * `writeSegment` (e.g. the real store behind a gate the test holds).
   */
  startGatedApi(opts: {
    writeTimeoutMs: number;
    writeSegment(store: ScratchStorage, key: string, body: Uint8Array, signal: AbortSignal): Promise<void>;
  }): Promise<RunningApi>;
  stop(): Promise<void>;
}

function configYaml(dataDir: string, receiver: string[]): string {
  return adminApiYaml({
    adminKey: ADMIN_KEY,
    extra: `data_dir: ${JSON.stringify(dataDir)}
webhooks:
  receiver:
${receiver.map((line) => `    ${line}`).join('\n')}
`,
  });
}

export async function startIngestRig(opts: { receiver?: string[] } = {}): Promise<IngestRig> {
  const database = await createTestDatabase();
  const db = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  await migrate(db);
  const dataDir = await mkdtemp(join(tmpdir(), 'webhook-ingest-'));
  const config = parseConfig(configYaml(dataDir, opts.receiver ?? ['enabled: true']), {}).config;
  // What `platform dev` configures when nothing is: the embedded DuckDB file and the filesystem store.
  config.toolkits.sql.local = embeddedSqlInstance(dataDir);
  config.toolkits.objstore.local = embeddedObjstoreInstance(dataDir).instance;
  const clock = { now: START };
  const now = () => clock.now;
  const captured = capturingLogger('trace');
  const metrics = createMetrics({ defaultMetrics: false });
  const sql: SqlToolkit = createSqlToolkit(config, { log: captured.log });
  const objstore: ObjstoreConnections = createObjstoreConnections(config);
  const storage = await platformScratchStorage(config, objstore);
  const services = await createWebhookServices({ config, db, objstore, sql, metrics, log: captured.log, now });
  const api = await startTestApi({ config, db, webhooks: services, metrics, clock: now, log: captured.log, tools: sql.tools });
  const extraApis: RunningApi[] = [];
  let mcp: Client | undefined;

  async function request(url: string, init: RequestInit): Promise<Answer> {
    const response = await fetch(url, init);
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  const rig: IngestRig = {
    config,
    db,
    api,
    services,
    storage,
    metrics,
    logs: captured.lines,
    clock,
    hooksBase: api.hooksUrl ?? api.url,
    admin(method, path, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_KEY}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return request(`${api.url}/api/v1/admin/webhooks/sources${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    },
    async createSource(name, auth, sourceConfig = {}) {
      // One event a segment unless a test says otherwise: answers need not wait for flush_max_interval_ms.
      const answer = await rig.admin('POST', '', { name, connection: 'local', auth, config: { flush_max_events: 1, ...sourceConfig } });
      if (answer.status !== 201) throw new Error(`creating ${name}: ${answer.status} ${answer.text}`);
      return answer.json;
    },
    hook(path, init = {}, base = rig.hooksBase) {
      return request(`${base}${path}`, {
        method: init.method ?? 'POST',
        headers: init.headers ?? {},
        ...(init.body !== undefined ? { body: init.body } : {}),
      });
    },
    async segments(source) {
      const page = await storage.connection.store.listObjects(storage.bucket, { prefix: `webhooks/${source}/` });
      return page.objects.map((o) => o.key);
    },
    async query(statement) {
      mcp ??= await connectMcp(api.url, ADMIN_KEY);
      const result = await mcp.callTool({ name: 'sql_query', arguments: { connection: 'local', sql: statement } });
      if (result.isError) throw new Error(JSON.stringify(result.content));
      return (result.structuredContent as { rows: Array<Record<string, unknown>> }).rows;
    },
    async scrape() {
      return (await fetch(`${api.url}/metrics`)).text();
    },
    async startGatedApi({ writeTimeoutMs, writeSegment }) {
      const receiver = new WebhookReceiver({
        sources: services.sources,
        rejections: services.rejections,
        tables: services.tables,
        windows: new WebhookWindows(db),
        writeSegment: (key, body, signal) => writeSegment(storage, key, body, signal),
        replica: replicaId(),
        startMs: now(),
        writeTimeoutMs,
        metrics: webhookMetrics(metrics.registry),
        log: captured.log,
        now,
      });
      const gated = await startTestApi({ config, db, webhooks: { ...services, receiver }, metrics, clock: now, log: captured.log });
      extraApis.push(gated);
      return gated;
    },
    async stop() {
      await mcp?.close();
      for (const other of extraApis) await other.stop();
      await api.stop();
      await sql.close();
      await objstore.close();
      await db.end();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return rig;
}

/** The hex (or base64) HMAC of `data` under `secret`. */
export function sign(secret: string, data: string | Uint8Array, algorithm: 'sha1' | 'sha256' = 'sha256', encoding: 'hex' | 'base64' = 'hex'): string {
  return createHmac(algorithm, secret).update(data).digest(encoding);
}

/** Seconds since the epoch of the rig's clock, as a timestamp header carries it. */
export const unixSeconds = (ms: number) => String(Math.floor(ms / 1000));

export type { RawAnswer };

/**
 * Sends `head` and then each of `chunks` over a raw socket to `base` and resolves with the first
 * complete answer — without ever sending the rest of the body the head announces.
 */
export async function rawRequest(base: string, head: string, chunks: Array<string | Uint8Array>): Promise<RawAnswer> {
  const exchange = halfSent(base, head, chunks);
  try {
    return await exchange.answer;
  } finally {
    exchange.socket.destroy();
  }
}
