import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCluster } from './embedded-cluster.js';
import { startPglite } from './embedded-pglite.js';
import {
  ClusterUnavailableError,
  silentEmbeddedLog,
  type EmbeddedLog,
  type EmbeddedPostgres,
} from './embedded-types.js';

export interface StartEmbeddedOptions {
  /** The platform's data dir; the database lives in `<dataDir>/postgres`. */
  dataDir: string;
  log?: EmbeddedLog;
  /**
   * Force one kind (tests, operators who want one explicitly). Without it: an existing cluster or
   * PGlite store is reused as it is; a fresh data dir gets a cluster when local Postgres binaries
   * can run here, else PGlite.
   */
  prefer?: 'cluster' | 'pglite';
  /** PGlite only: concurrent connections multiplexed onto its single backend. Default 100. */
  maxConnections?: number;
}

/**
 * The platform database for `platform dev` when `database.dsn` is not configured.
 * Returns a DSN for createPool(); call stop() on shutdown.
 */
export async function startEmbeddedPostgres(opts: StartEmbeddedOptions): Promise<EmbeddedPostgres> {
  const root = resolve(opts.dataDir, 'postgres');
  const log = opts.log ?? silentEmbeddedLog;
  const maxConnections = opts.maxConnections ?? 100;
  const pglite = () => startPglite({ root, log, maxConnections });
  const cluster = () => startCluster({ root, log });

  if (opts.prefer === 'pglite') return pglite();
  if (opts.prefer === 'cluster') return cluster();

  // Keep whatever already holds this data dir's database, so data never seems to vanish.
  if (existsSync(join(root, 'data', 'PG_VERSION'))) return cluster();
  if (existsSync(join(root, 'pglite', 'PG_VERSION'))) return pglite();
  try {
    return await cluster();
  } catch (err) {
    if (!(err instanceof ClusterUnavailableError)) throw err;
    log.warn({ reason: err.message }, 'private Postgres cluster unavailable here; using embedded PGlite');
    return pglite();
  }
}
