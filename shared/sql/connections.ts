/**
 * SQL connections from `toolkits.sql.<instance>`: one engine per instance, the default connection
 * and the lookup a tool call's `connection` argument goes through.
 */
import path from 'node:path';
import { duckdbPath, objstoreRoot, resourceStoreName, type PlatformConfig, type SqlInstanceConfig } from '../config/index.js';
import { platformBucketKinds, platformBucketName } from '../objstore/index.js';
import { DuckDbEngine } from './duckdb-engine.js';
import { duckdbScratchSchema } from './scratch/rules.js';
import { TrinoEngine, trinoServerUrl } from './trino-engine.js';
import { SqlConnectionError, type SqlEngine } from './types.js';

export interface SqlConnection {
  /** The instance key: what `connection` arguments name. */
  name: string;
  /** `connection_name`, else the instance key. */
  displayName: string;
  config: SqlInstanceConfig;
  engine: SqlEngine;
}

export interface EngineBuildOptions {
  /** Directories DuckDB SQL may read files under (none by default). */
  duckdbAllowedDirectories?: readonly string[];
}

/** The engine an instance configures. Trino instances without host or user are configuration errors. */
export function createSqlEngine(config: PlatformConfig, name: string, options: EngineBuildOptions = {}): SqlEngine {
  const instance = config.toolkits.sql[name];
  if (!instance) throw new SqlConnectionError(`no SQL connection "${name}"`);
  if (instance.engine === 'duckdb') {
    return new DuckDbEngine({
      path: duckdbPath(config, name),
      ...(options.duckdbAllowedDirectories ? { allowedDirectories: options.duckdbAllowedDirectories } : {}),
      platformDirectories: platformStorageDirectories(config),
      platformSchemas: [duckdbScratchSchema(instance.scratch)],
      memoryLimit: instance.memory_limit,
      threads: instance.threads,
      maxTempDirectorySize: instance.max_temp_directory_size,
    });
  }
  if (!instance.host || !instance.user) throw new SqlConnectionError(`toolkits.sql.${name}: host and user are required for engine trino`);
  try {
    return new TrinoEngine({
      host: instance.host,
      ...(instance.port !== undefined ? { port: instance.port } : {}),
      user: instance.user,
      ...(instance.password !== undefined ? { password: instance.password } : {}),
      ssl: instance.ssl,
      sslVerify: instance.ssl_verify,
      ...(instance.catalog ? { catalog: instance.catalog } : {}),
      ...(instance.schema ? { schema: instance.schema } : {}),
      ...(instance.scratch?.catalog && instance.scratch.schema
        ? { platformSchema: { catalog: instance.scratch.catalog.toLowerCase(), schema: instance.scratch.schema.toLowerCase() } }
        : {}),
    });
  } catch (error) {
    throw new SqlConnectionError(`toolkits.sql.${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The platform buckets' directories when the managed-resources store is on the filesystem driver:
 * DuckDB's scratch tables read them (and only the platform's views may).
 */
export function platformStorageDirectories(config: PlatformConfig): string[] {
  const name = resourceStoreName(config);
  const instance = name === undefined ? undefined : config.toolkits.objstore[name];
  if (name === undefined || instance?.driver !== 'filesystem') return [];
  return platformBucketKinds.map((kind) => path.join(objstoreRoot(config, name), platformBucketName({ bucketPrefix: instance.bucket_prefix }, kind)));
}

/** The connection a call without `connection` uses: the alphabetically first instance key (spec 1.1). */
export function defaultConnectionName(names: Iterable<string>): string | undefined {
  return [...names].sort()[0];
}

/** What a `connection` argument can name: an instance key, or its `connection_name`. */
export interface NamedConnection {
  name: string;
  displayName: string;
}

/**
 * The connection a `connection` argument names (SQL and catalog alike): empty means the default;
 * the instance key or its `connection_name` match. Unknown names list what exists, in `unknown`'s
 * error (SQL's by default).
 */
export function resolveConnection<C extends NamedConnection>(
  connections: ReadonlyMap<string, C>,
  defaultName: string | undefined,
  requested: string | undefined,
  unknown: (wanted: string, known: string) => Error = (wanted, known) => new SqlConnectionError(`unknown connection "${wanted}"; available connections: ${known}`),
): C {
  const wanted = requested?.trim() ? requested.trim() : defaultName;
  const byKey = wanted === undefined ? undefined : connections.get(wanted);
  if (byKey) return byKey;
  const byDisplay = [...connections.values()].filter((c) => c.displayName === wanted);
  if (byDisplay.length === 1) return byDisplay[0]!;
  throw unknown(wanted ?? '', [...connections.keys()].sort().join(', ') || 'none');
}

/** What sql_list_connections shows of a connection (never the password). */
export function describeConnection(c: SqlConnection, isDefault: boolean): Record<string, unknown> {
  const i = c.config;
  const base: Record<string, unknown> = {
    name: c.name,
    ...(c.displayName !== c.name ? { display_name: c.displayName } : {}),
    engine: i.engine,
    ...(i.description ? { description: i.description } : {}),
    is_default: isDefault,
    read_only: i.read_only,
  };
  if (i.engine === 'duckdb') return { ...base, catalog: c.engine.defaults.catalog, schema: c.engine.defaults.schema, ssl: false };
  return {
    ...base,
    host: i.host,
    port: i.port ?? (i.ssl ? 443 : 8080),
    url: i.host ? trinoServerUrl({ host: i.host, ssl: i.ssl, ...(i.port !== undefined ? { port: i.port } : {}) }) : undefined,
    ...(i.catalog ? { catalog: i.catalog } : {}),
    ...(i.schema ? { schema: i.schema } : {}),
    ssl: i.ssl,
  };
}
