/**
 * What the admin API's platform routes read (api/admin/platform.ts), composed over this process's
 * services: the connections with a probe of each, the system's versions and the state of the
 * database and Temporal, and the API keys (names and roles) the personas page resolves.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../shared/toolchain/index.js';
import type { PlatformConfig } from '../shared/config/index.js';
import type { Db } from '../shared/db/index.js';
import { temporalReachable, type TemporalHandle } from '../shared/temporal/index.js';
import type { ConnectionView, SystemView } from '../api/admin/platform.js';
import type { Toolkits } from './toolkits.js';

const PROBE_TIMEOUT_MS = 5_000;
const startedAt = new Date();

const platformVersion = (() => {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

type Health = ConnectionView['health'];

/** Runs `probe` under a deadline; its time, and its failure's message (cut) when it fails. */
async function probe(run: (signal: AbortSignal) => Promise<unknown>): Promise<Health> {
  const started = performance.now();
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    await Promise.race([
      run(signal),
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), { once: true })),
    ]);
    return { ok: true, latency_ms: Math.round(performance.now() - started), error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, latency_ms: Math.round(performance.now() - started), error: message.slice(0, 300) };
  }
}

/** The connections of the toolkits, each probed now (in parallel). */
export function connectionViews(config: PlatformConfig, toolkits: Toolkits): () => Promise<ConnectionView[]> {
  return async () => {
    const sql = [...toolkits.sql.connections.values()].map(async (c): Promise<ConnectionView> => {
      const instance = c.config;
      const target = instance.engine === 'duckdb' ? (instance.path ?? null) : instance.host ? `${instance.host}${instance.port ? `:${instance.port}` : ''}` : null;
      return {
        kind: 'sql',
        name: c.name,
        display_name: c.displayName,
        engine: instance.engine,
        target,
        is_default: c.name === toolkits.sql.defaultConnection,
        read_only: instance.read_only,
        internal: false,
        health: await probe((signal) => c.engine.listCatalogs(signal)),
      };
    });
    const objstore = toolkits.objstore.list().map(async (c): Promise<ConnectionView> => ({
      kind: 'objstore',
      name: c.name,
      display_name: c.displayName,
      engine: c.driver,
      target: c.driver === 'filesystem' ? (c.root ?? null) : (c.endpoint ?? c.region ?? null),
      is_default: c.name === toolkits.objstore.defaultConnection,
      read_only: c.readOnly,
      internal: c.internal,
      health: await probe(async (signal) => {
        await c.ready();
        return c.store.listBuckets({ signal });
      }),
    }));
    const catalog = [...toolkits.catalog.connections.connections.values()].map(async (c): Promise<ConnectionView> => ({
      kind: 'catalog',
      name: c.name,
      display_name: c.displayName,
      engine: 'catalog',
      target: c.config.url,
      is_default: c.name === toolkits.catalog.connections.defaultConnection,
      read_only: c.config.read_only,
      internal: false,
      health: await probe((signal) => c.client.search({ query: '*', limit: 1, offset: 0 }, { signal })),
    }));
    return Promise.all([...sql, ...objstore, ...catalog]);
  };
}

/** Versions and the state of the database and Temporal, probed now. */
export function systemView(config: PlatformConfig, deps: { db?: Db; temporal?: TemporalHandle }): () => Promise<SystemView> {
  const { db, temporal } = deps;
  return async () => {
    let version: string | null = null;
    let migration: SystemView['database']['migration'] = null;
    const database: Health = db
      ? await probe(async () => {
          version = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? null;
          const { rows } = await db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1');
          migration = rows[0] ? { version: Number(rows[0].version), name: rows[0].name } : null;
        })
      : { ok: false, latency_ms: null, error: 'no platform database (database.dsn)' };
    const temporalHealth: Health = temporal
      ? await probe(async () => {
          if (!(await temporalReachable(temporal.client, PROBE_TIMEOUT_MS))) throw new Error(`namespace ${config.temporal.namespace} not reachable at ${config.temporal.address}`);
        })
      : { ok: false, latency_ms: null, error: 'no Temporal (temporal.address)' };
    return {
      server: { name: config.server.name, version: config.server.version, description: config.server.description ?? null },
      platform: { version: platformVersion, node: process.version, started_at: startedAt.toISOString(), uptime_seconds: Math.round(process.uptime()) },
      database: { configured: db !== undefined, health: database, version, migration },
      temporal: {
        configured: temporal !== undefined,
        address: config.temporal.address ?? null,
        namespace: config.temporal.namespace,
        task_queue: config.temporal.task_queue,
        ui_url: config.temporal.ui_url || null,
        health: temporalHealth,
      },
      audit: {
        enabled: config.audit.enabled,
        log_tool_calls: config.audit.log_tool_calls,
        retention_days: config.audit.retention_days,
        recording: config.audit.enabled && db !== undefined,
      },
      portal: { enabled: config.portal.enabled, public_base_url: config.portal.public_base_url },
      admin: { persona: config.admin.persona, path_prefix: config.admin.path_prefix },
    };
  };
}

/** The API keys' names and roles: the configured ones, then those the platform created (never a key). */
export function apiKeyNames(config: PlatformConfig, db: Db | undefined): () => Promise<Array<{ name: string; roles: string[] }>> {
  return async () => {
    const configured = config.auth.api_keys.enabled ? config.auth.api_keys.keys.filter((k) => k.name).map((k) => ({ name: k.name!, roles: [...k.roles] })) : [];
    const stored = db ? (await db.query<{ name: string; roles: string[] }>('SELECT name, roles FROM api_keys ORDER BY name')).rows : [];
    const seen = new Set(configured.map((k) => k.name));
    return [...configured, ...stored.filter((k) => !seen.has(k.name))];
  };
}
