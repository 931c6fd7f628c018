/**
 * Scratch catalogs to test against: the run's real Trino (Hive `scratch` catalog over the run's
 * MinIO, in a schema and buckets of the caller's own) and the embedded DuckDB over the filesystem
 * store, each with the sql tools of its connection and helpers that write files into the
 * platform's storage.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import type { CallToolResult } from '../../shared/mcp-tools/index.js';
import { createSqlToolkit, type SqlToolkit } from '../../shared/sql/index.js';
import { platformScratchStorage, scratchCatalog, type ScratchCatalog, type ScratchStorage, type StorageLocation } from '../../shared/sql/scratch/index.js';
import { sharedMinio } from './minio.js';
import { callTool, toolText } from './sql-tools.js';
import { sharedTrino } from './trino.js';

export interface ScratchRig {
  config: PlatformConfig;
  sql: SqlToolkit;
  objstore: ObjstoreConnections;
  storage: ScratchStorage;
  scratch: ScratchCatalog;
  /** Rows of a caller's sql_query on the scratch connection; throws with the tool's text on an error. */
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  /** A caller's call of a sql tool on the scratch connection. */
  call(tool: 'sql_query' | 'sql_execute', sql: string): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function rigFrom(yaml: string, connection: string, cleanup: () => Promise<void>): Promise<ScratchRig> {
  const config = parseConfig(yaml, {}).config;
  const sql = createSqlToolkit(config, { log: silentLogger() });
  const objstore = createObjstoreConnections(config);
  const storage = await platformScratchStorage(config, objstore);
  const scratch = scratchCatalog(sql.connection(connection), storage);
  return {
    config,
    sql,
    objstore,
    storage,
    scratch,
    call: (tool, statement) => callTool(sql.tools, tool, { connection, sql: statement, limit: 10_000 }),
    async query(statement) {
      const r = await callTool(sql.tools, 'sql_query', { connection, sql: statement, limit: 10_000 });
      if (r.isError) throw new Error(toolText(r));
      return (r.structuredContent as { rows: Array<Record<string, unknown>> }).rows;
    },
    async close() {
      await sql.close();
      await objstore.close();
      await cleanup();
    },
  };
}

/** platform.yaml of the embedded default's shape: the filesystem store `local` and DuckDB `local`, in `dataDir`. */
export function duckdbPlatformYaml(dataDir: string): string {
  return [`data_dir: ${JSON.stringify(dataDir)}`, 'toolkits:', '  objstore:', '    local:', '      driver: filesystem', '  sql:', '    local:', '      engine: duckdb'].join('\n');
}

/**
 * platform.yaml of the platform storage on the run's MinIO (buckets named `{bucketPrefix}…`) with
 * the Trino connection `cluster`, whose scratch catalog `scratch` holds the schema `schema`.
 */
export async function trinoPlatformYaml(opts: { bucketPrefix: string; schema: string }): Promise<string> {
  const [url, minio] = [await sharedTrino(), await sharedMinio()];
  const { hostname, port } = new URL(url);
  return [
    'resources:',
    '  managed:',
    '    connection: platform',
    'toolkits:',
    '  objstore:',
    '    platform:',
    minio.instanceYaml(6, [`bucket_prefix: ${opts.bucketPrefix}`]),
    '  sql:',
    '    cluster:',
    ...['engine: trino', `host: ${hostname}`, `port: ${port}`, 'user: platform', 'scratch:', '  catalog: scratch', `  schema: ${opts.schema}`].map((l) => `      ${l}`),
  ].join('\n');
}

/** Trino: the run's server and MinIO, in a schema and buckets of this file's own. */
export async function trinoRig(): Promise<ScratchRig> {
  const [url, minio] = [await sharedTrino(), await sharedMinio()];
  const { hostname, port } = new URL(url);
  const id = randomBytes(4).toString('hex');
  const trino = (catalog: string) => [`engine: trino`, `host: ${hostname}`, `port: ${port}`, 'user: platform', 'scratch:', `  catalog: ${catalog}`, `  schema: s${id}`];
  const yaml = [
    'resources:',
    '  managed:',
    '    connection: platform',
    'toolkits:',
    '  objstore:',
    '    platform:',
    minio.instanceYaml(6, [`bucket_prefix: sc${id}-`]),
    '  sql:',
    '    cluster:',
    ...trino('scratch').map((l) => `      ${l}`),
    '    locked:',
    ...trino('scratch_locked').map((l) => `      ${l}`),
    '    tpch:',
    ...['engine: trino', `host: ${hostname}`, `port: ${port}`, 'user: platform', 'scratch:', '  catalog: tpch', '  schema: tiny'].map((l) => `      ${l}`),
    '    unset:',
    ...['engine: trino', `host: ${hostname}`, `port: ${port}`, 'user: platform', 'scratch:', '  catalog: scratch'].map((l) => `      ${l}`),
  ].join('\n');
  return rigFrom(yaml, 'cluster', async () => undefined);
}

/** DuckDB: the embedded default's shape — a file in the data dir, the filesystem store beside it. */
export async function duckdbRig(): Promise<ScratchRig> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scratch-duckdb-'));
  return rigFrom(duckdbPlatformYaml(dataDir), 'local', () => rm(dataDir, { recursive: true, force: true }));
}

export const at = (day: number, micros: number) => `2026-11-${String(day).padStart(2, '0')} 10:00:00.${String(micros).padStart(6, '0')}`;

export async function putJsonLines(rig: ScratchRig, location: StorageLocation, name: string, rows: object[]): Promise<void> {
  await rig.storage.connection.store.putObject(location.bucket, `${location.prefix}${name}`, gzipSync(rows.map((r) => JSON.stringify(r)).join('\n') + '\n'));
}

export async function putParquet(rig: ScratchRig, location: StorageLocation, name: string, select: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'scratch-parquet-'));
  try {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`COPY (${select}) TO '${join(dir, 'f.parquet')}' (FORMAT parquet)`);
    connection.closeSync();
    instance.closeSync();
    await rig.storage.connection.store.putObject(location.bucket, `${location.prefix}${name}`, await readFile(join(dir, 'f.parquet')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

