import { mkdir } from 'node:fs/promises';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../shared/db/index.js';
import { startDevServer, type DevServer } from '../shared/temporal/index.js';
import { databaseApiKeys } from '../shared/identity/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { PlatformConfig } from '../shared/config/index.js';
import { embeddedObjstoreInstance } from '../shared/objstore/index.js';
import { EMBEDDED_SQL_CONNECTION, createSqlToolkit, embeddedSqlInstance, ensureSampleData } from '../shared/sql/index.js';
import type { LoadedConfig } from './context.js';
import { openDatabase, openTemporal, startApiRole, startWorkerRole } from './services.js';
import { openPlatformServices } from './platform-services.js';
import { bindDevListenersToLoopback, checkDevListeners } from './dev-listeners.js';
import type { Progress } from './progress.js';
import { DevSignIn } from '../api/portal-auth/index.js';
import { ensurePortalBuilt } from '../shared/toolchain/index.js';

/** The role carried by the generated admin key; it maps to the `admin.persona` persona. */
export const adminRole = 'admin';

/**
 * The embedded admin persona: every tool. Added only when the configuration does not define the
 * persona `admin.persona` names, so an operator's own definition always wins.
 */
export function withAdminPersona(config: PlatformConfig): void {
  const name = config.admin.persona;
  if (config.personas.definitions[name]) return;
  config.personas.definitions[name] = {
    display_name: 'Administrator',
    description: 'Platform administrator (embedded default): may use every tool',
    roles: [adminRole],
    tools: { allow: ['*'], deny: [] },
    prompts: {},
    hints: {},
    priority: 1000,
  };
}

/** Creates the generated sample dataset in the embedded DuckDB file on first start. */
async function prepareSampleData(config: PlatformConfig, log: Logger): Promise<void> {
  const sql = createSqlToolkit(config, { log });
  try {
    if (await ensureSampleData(sql.connection(EMBEDDED_SQL_CONNECTION).engine)) log.info('sample dataset created (sample.orders, sample.customers)');
  } finally {
    // DuckDB allows one open handle per file: release it before the api opens its own.
    await sql.close();
  }
}

export interface DevPlatform {
  mcpUrl: string;
  /** The portal, and a one-time link that signs the generated administrator in (absent with an identity provider). */
  portalUrl?: string;
  signInLink?: string;
  temporalUiUrl?: string;
  dataDir: string;
  /** The admin key, only on the start that created it. */
  adminKey?: string;
  stop(): Promise<void>;
}

/**
 * `platform dev` (what `npm start` runs): api + worker in one process, with an embedded default
 * for everything not configured — Postgres in the data dir, Temporal's dev server as a child
 * process, and an admin API key generated on first start. Its listeners bind loopback unless their
 * address names a host, and are checked free before anything starts; `progress` announces the
 * steps that take long (cli/progress.ts).
 */
export async function startDev(loaded: LoadedConfig, log: Logger, progress: Progress): Promise<DevPlatform> {
  const config = structuredClone(loaded.config);
  bindDevListenersToLoopback(config);
  await checkDevListeners(config, loaded.file);
  withAdminPersona(config);
  // The generated admin key administers this platform (webhook sources, …) out of the box.
  config.admin.enabled = true;
  // The portal is the platform's face: on the embedded default it is on (its database and storage are).
  config.portal.enabled = true;
  // Where its artifacts will live: a bucket of the embedded (or the only) object store.
  config.portal.s3_bucket ??= 'portal';
  await progress('building the portal', () => ensurePortalBuilt({ quiet: true }));
  const embeddedSql = Object.keys(config.toolkits.sql).length === 0;
  if (embeddedSql) config.toolkits.sql[EMBEDDED_SQL_CONNECTION] = embeddedSqlInstance(config.data_dir);
  const embeddedObjstore = Object.keys(config.toolkits.objstore).length === 0 ? embeddedObjstoreInstance(config.data_dir) : undefined;
  if (embeddedObjstore) config.toolkits.objstore[embeddedObjstore.name] = embeddedObjstore.instance;
  await mkdir(config.data_dir, { recursive: true });
  const stack: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of stack.reverse()) await step().catch((error: unknown) => log.warn({ err: error }, 'stop step failed'));
    stack.length = 0;
  };
  try {
    let postgres: EmbeddedPostgres | undefined;
    if (!config.database.dsn) {
      postgres = await progress('starting embedded Postgres', () => startEmbeddedPostgres({ dataDir: config.data_dir, log }));
      stack.push(() => postgres!.stop());
      config.database.dsn = postgres.dsn;
    }
    let devServer: DevServer | undefined;
    if (!config.temporal.address) {
      // Temporal's usual ports when free, else others; only a server this process started is used (dev-server.ts).
      devServer = await progress('starting Temporal dev server', () => startDevServer({ dataDir: config.data_dir, preferredPorts: { port: 7233, uiPort: 8233 }, log }));
      stack.push(() => devServer!.stop());
      config.temporal.address = devServer.address;
      // The portal links workflows to the UI the banner shows.
      if (!config.temporal.ui_url && devServer.uiUrl) config.temporal.ui_url = devServer.uiUrl;
    }
    const db = await progress('applying database migrations', () => openDatabase(config, log, { sharedBackend: postgres?.kind === 'pglite' }));
    if (!db) throw new Error('no database');
    stack.push(() => db.end());
    const admin = await databaseApiKeys(db).ensureKey('admin', [adminRole]);
    const temporal = await openTemporal(config);
    if (!temporal) throw new Error('no temporal');
    stack.push(() => temporal.close());
    if (embeddedSql) await progress('preparing the sample dataset', () => prepareSampleData(config, log));
    // One set of services for both roles: the embedded DuckDB file can be open only once.
    const services = await progress('opening the toolkits', () => openPlatformServices({ config, log, db, temporal, ...(embeddedObjstore ? { seedBuckets: embeddedObjstore.seedBuckets } : {}) }));
    stack.push(() => services.close());
    const worker = await progress('starting the worker', () => startWorkerRole({ config, log, db, temporal, services }));
    stack.push(() => worker.shutdown());
    const signIn = config.auth.browser_session.enabled ? undefined : devSignIn(config);
    const api = await progress('starting the api', () => startApiRole({ config, log, db, temporal, services, ...(signIn ? { signIn } : {}) }));
    stack.push(() => api.stop());
    return {
      mcpUrl: `${api.url}/mcp`,
      ...(config.portal.enabled ? { portalUrl: `${api.url}/portal/` } : {}),
      ...(config.portal.enabled && signIn ? { signInLink: `${api.url}${signIn.link(devAdministrator)}` } : {}),
      ...(devServer?.uiUrl ? { temporalUiUrl: devServer.uiUrl } : {}),
      dataDir: config.data_dir,
      ...(admin.created ? { adminKey: admin.key } : {}),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Who the one-time link signs in: the generated administrator (the admin key's role). */
const devAdministrator = { sub: 'admin', name: 'Administrator', roles: [adminRole] };

/** The one-time sign-in of `platform dev` when no identity provider is configured (api/portal-auth/dev-sign-in.ts). */
function devSignIn(config: PlatformConfig): DevSignIn {
  const { cookie_name: name, secure, domain, ttl } = config.auth.browser_session;
  // Plain HTTP on loopback: a Secure cookie would not come back over it.
  return new DevSignIn({ cookie: { name, secure: secure && config.server.tls.enabled, domain }, ttlSeconds: Math.ceil(ttl / 1000) });
}

export function devBanner(dev: DevPlatform): string {
  const lines = [
    'platform is running',
    ...(dev.portalUrl ? [`  portal         ${dev.portalUrl}`] : []),
    ...(dev.signInLink ? [`  sign in        ${dev.signInLink}`, '                 (one-time link for the administrator, valid 15 minutes, this machine only; restart for a new one)'] : []),
    `  MCP endpoint   ${dev.mcpUrl}`,
    `  Temporal UI    ${dev.temporalUiUrl ?? '(external Temporal: see temporal.address)'}`,
    `  data dir       ${dev.dataDir}`,
  ];
  if (dev.adminKey) {
    lines.push(
      `  admin API key  ${dev.adminKey}`,
      '                 (shown once: only its hash is stored. Send it as "Authorization: Bearer <key>".)',
    );
  } else {
    lines.push('  admin API key  created on first start (only its hash is kept)');
  }
  lines.push('press Ctrl-C to stop');
  return `${lines.join('\n')}\n`;
}
