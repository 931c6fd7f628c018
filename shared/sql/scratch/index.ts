/**
 * Scratch catalogs of SQL connections (see types.ts): where `toolkits.sql.<name>.scratch` points,
 * the catalog over it, and checkScratch() — the answer webhook source creation and table
 * registration refuse with. See docs/sql.md, "Scratch catalog".
 */
import { resourceStoreName, type PlatformConfig } from '../../config/index.js';
import { ensurePlatformBucket, type ObjstoreConnections } from '../../objstore/index.js';
import type { SqlConnection } from '../connections.js';
import { DuckDbEngine } from '../duckdb-engine.js';
import { TrinoEngine } from '../trino-engine.js';
import { DialectScratchCatalog } from './catalog.js';
import type { ScratchStorage } from './dialect.js';
import { DuckdbScratchDialect } from './duckdb-dialect.js';
import { duckdbScratchSchema } from './rules.js';
import { TrinoScratchDialect } from './trino-dialect.js';
import type { ScratchCatalog, ScratchCheck } from './types.js';

export type { ExternalTable, FileTable, ScratchCatalog, ScratchCheck, ScratchColumn, ScratchColumnType, ScratchFormat, StorageLocation } from './types.js';
export { ScratchError } from './types.js';
export { sqlIdent } from './rules.js';
export type { ScratchStorage } from './dialect.js';

/** Where a connection's scratch tables go, or why it has none. */
export function scratchTarget(connection: SqlConnection): { catalog: string; schema: string } | { reason: string } {
  const { catalog, schema } = connection.config.scratch ?? {};
  if (catalog && schema) return { catalog, schema };
  if (connection.engine instanceof DuckDbEngine && !catalog && !schema) {
    // The embedded default: the `scratch` schema of the connection's own file.
    return { catalog: connection.engine.defaults.catalog ?? 'main', schema: duckdbScratchSchema(undefined) };
  }
  const missing = [catalog ? undefined : 'scratch.catalog', schema ? undefined : 'scratch.schema'].filter(Boolean).join(' and ');
  return { reason: `SQL connection ${connection.name} has no scratch catalog: set toolkits.sql.${connection.name}.${missing} (both are required)` };
}

/** The scratch catalog of `connection` over the platform's storage; throws with the reason when it has none. */
export function scratchCatalog(connection: SqlConnection, storage: ScratchStorage): ScratchCatalog {
  const target = scratchTarget(connection);
  if ('reason' in target) throw new Error(target.reason);
  const { engine } = connection;
  if (engine instanceof TrinoEngine) return new DialectScratchCatalog(connection.name, new TrinoScratchDialect(engine, target.catalog, target.schema), storage);
  if (engine instanceof DuckDbEngine) {
    if (target.catalog !== (engine.defaults.catalog ?? 'main')) {
      throw new Error(`SQL connection ${connection.name}: a DuckDB scratch catalog is the connection's own file (${engine.defaults.catalog ?? 'main'}), not ${target.catalog}`);
    }
    if (target.schema.toLowerCase() === engine.defaults.schema) {
      // Callers' unqualified names land there, so no rule could keep their writes off the platform's views.
      throw new Error(`SQL connection ${connection.name}: the scratch schema cannot be ${engine.defaults.schema}, the schema callers' unqualified names land in: pick another schema`);
    }
    return new DialectScratchCatalog(connection.name, new DuckdbScratchDialect(engine, target.catalog, target.schema, storage), storage);
  }
  throw new Error(`SQL connection ${connection.name}: engine ${engine.kind} has no scratch catalog`);
}

/**
 * Whether `connection`'s scratch catalog can read the platform's storage and register partitions
 * (document 3: source creation refuses with this reason).
 */
export async function checkScratch(connection: SqlConnection, storage: ScratchStorage): Promise<ScratchCheck> {
  let catalog: ScratchCatalog;
  try {
    catalog = scratchCatalog(connection, storage);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  return catalog.check();
}

/** The platform's storage for scratch tables: the managed-resources connection and its bucket (created on first use). */
export async function platformScratchStorage(config: PlatformConfig, objstore: ObjstoreConnections): Promise<ScratchStorage> {
  const name = resourceStoreName(config);
  if (name === undefined) throw new Error('scratch tables need the platform storage: configure toolkits.objstore (or resources.managed.connection)');
  const connection = objstore.get(name);
  return { connection, bucket: await ensurePlatformBucket(connection, 'resources') };
}
