/**
 * The scratch catalog on the embedded DuckDB: the `scratch` schema of the connection's own file
 * (or `scratch.schema`). DuckDB has no metastore, so the platform keeps one in the file's
 * `platform_scratch` schema (no caller's SQL may name it: duckdb-policy.ts) — each table's
 * definition and its registered partitions — and rewrites the table's views (duckdb-views.ts) in
 * the same transaction as every change. The views read the filesystem store's files directly: the
 * engine process may read the platform's storage, a caller's SQL may not name it.
 */
import path from 'node:path';
import { prefixDirectory } from '../../objstore/index.js';
import type { DuckDbEngine } from '../duckdb-engine.js';
import { PLATFORM_SCHEMA } from '../duckdb-policy.js';
import type { Row } from '../types.js';
import type { ProbeStep, ScratchDialect, ScratchStorage } from './dialect.js';
import { fileViewSelect, partitionsViewSelect, tableViewSelect, type DuckdbPartition } from './duckdb-views.js';
import { sqlIdent, sqlString } from './rules.js';
import { ScratchError, type ExternalTable, type FileTable, type StorageLocation } from './types.js';

const statementTimeoutMs = 60_000;
const tablesTable = `${PLATFORM_SCHEMA}.tables`;
const partitionsTable = `${PLATFORM_SCHEMA}.partitions`;

/** One change at a time per engine: each rewrites views from what it read of the metastore. */
const queues = new WeakMap<DuckDbEngine, Promise<unknown>>();

export class DuckdbScratchDialect implements ScratchDialect {
  readonly engine = 'duckdb' as const;
  #root: string | undefined;
  #ready: Promise<void> | undefined;

  constructor(
    readonly duckdb: DuckDbEngine,
    readonly catalog: string,
    readonly schema: string,
    storage: ScratchStorage,
  ) {
    this.#root = storage.connection.root === undefined ? undefined : path.resolve(storage.connection.root);
  }

  relation(name: string): string {
    return `${sqlIdent(this.catalog)}.${sqlIdent(this.schema)}.${sqlIdent(name)}`;
  }

  partitionsRelation(table: string): string {
    return this.relation(`${table}$partitions`);
  }

  locate(location: StorageLocation): string {
    if (this.#root === undefined) throw new ScratchError('DuckDB reads the platform storage only on the filesystem driver');
    return prefixDirectory(this.#root, location.bucket, location.prefix);
  }

  storageGap(storage: ScratchStorage): string | undefined {
    if (storage.connection.driver === 'filesystem') return undefined;
    return (
      `DuckDB reads the platform's storage only from the filesystem driver, and toolkits.objstore.${storage.connection.name} is on S3: ` +
      'use a Trino connection whose scratch catalog is a Hive catalog on that store (docs/sql.md)'
    );
  }

  async preflight(): Promise<void> {}

  ensureSchema(): Promise<void> {
    this.#ready ??= this.duckdb
      .exec(
        [
          `CREATE SCHEMA IF NOT EXISTS ${PLATFORM_SCHEMA}`,
          `CREATE TABLE IF NOT EXISTS ${tablesTable} (schema_name VARCHAR, table_name VARCHAR, definition VARCHAR NOT NULL, PRIMARY KEY (schema_name, table_name))`,
          `CREATE TABLE IF NOT EXISTS ${partitionsTable} (schema_name VARCHAR, table_name VARCHAR, partition_values VARCHAR, directory VARCHAR NOT NULL, ` +
            'PRIMARY KEY (schema_name, table_name, partition_values))',
          `CREATE SCHEMA IF NOT EXISTS ${sqlIdent(this.schema)}`,
        ].join(';\n'),
      )
      .catch((error: unknown) => {
        this.#ready = undefined;
        throw error;
      });
    return this.#ready;
  }

  createExternalTable(table: ExternalTable): Promise<void> {
    return this.#serial(async () => {
      const stored = await this.#definition(table.name);
      // Created before: its views are written again from the metastore, so whatever happened to
      // them (a file copied in, a view dropped by hand) the table reads what is registered.
      if (stored) return this.#commit(this.#views(stored, await this.#partitions(table.name)));
      await this.#commit([
        `INSERT INTO ${tablesTable} VALUES (${sqlString(this.schema)}, ${sqlString(table.name)}, ${sqlString(JSON.stringify(table))})`,
        ...this.#views(table, []),
      ]);
    });
  }

  async createFileTable(table: FileTable): Promise<void> {
    await this.createOrReplaceView(table.name, fileViewSelect(table, this.locate(table.location)));
  }

  registerPartition(table: ExternalTable, values: readonly string[], location: StorageLocation): Promise<void> {
    return this.#serial(async () => {
      const stored = await this.#stored(table.name);
      const partitions = await this.#partitions(table.name);
      const key = JSON.stringify(values);
      if (partitions.some((p) => JSON.stringify(p.values) === key)) return;
      const directory = this.locate(location);
      await this.#commit([
        `INSERT INTO ${partitionsTable} VALUES (${[this.schema, table.name, key, directory].map(sqlString).join(', ')})`,
        ...this.#views(stored, [...partitions, { values, directory }]),
      ]);
    });
  }

  unregisterPartition(table: ExternalTable, values: readonly string[]): Promise<void> {
    return this.#serial(async () => {
      const stored = await this.#definition(table.name);
      if (!stored) return;
      const key = JSON.stringify(values);
      const partitions = await this.#partitions(table.name);
      if (!partitions.some((p) => JSON.stringify(p.values) === key)) return;
      await this.#commit([
        `DELETE FROM ${partitionsTable} WHERE ${this.#where(table.name)} AND partition_values = ${sqlString(key)}`,
        ...this.#views(
          stored,
          partitions.filter((p) => JSON.stringify(p.values) !== key),
        ),
      ]);
    });
  }

  async listPartitions(table: ExternalTable, leading: readonly string[] = []): Promise<string[][]> {
    await this.ensureSchema();
    return (await this.#partitions(table.name)).filter((p) => leading.every((v, i) => p.values[i] === v)).map((p) => [...p.values]);
  }

  async createOrReplaceView(name: string, select: string): Promise<void> {
    await this.duckdb.exec(`CREATE OR REPLACE VIEW ${this.relation(name)} AS ${select}`);
  }

  async dropView(name: string): Promise<void> {
    await this.duckdb.exec(`DROP VIEW IF EXISTS ${this.relation(name)}`);
  }

  dropTable(name: string): Promise<void> {
    return this.#serial(async () => {
      if (!(await this.#definition(name))) return;
      await this.#commit([
        `DELETE FROM ${partitionsTable} WHERE ${this.#where(name)}`,
        `DELETE FROM ${tablesTable} WHERE ${this.#where(name)}`,
        `DROP VIEW IF EXISTS ${this.partitionsRelation(name)}`,
        `DROP VIEW IF EXISTS ${this.relation(name)}`,
      ]);
    });
  }

  read(select: string): Promise<Row[]> {
    return this.duckdb.query(select, [], AbortSignal.timeout(statementTimeoutMs));
  }

  explainFailure(step: ProbeStep, error: unknown): string | undefined {
    const message = error instanceof Error ? error.message : String(error);
    if (step === 'read' && /allowed_directories|Permission Error|enable_external_access/i.test(message)) {
      return `DuckDB file of catalog ${this.catalog} may not read the platform's storage: the connection must be built by the platform with the managed-resources store on the filesystem driver (${message})`;
    }
    return undefined;
  }

  #views(table: ExternalTable, partitions: readonly DuckdbPartition[]): string[] {
    return [
      `CREATE OR REPLACE VIEW ${this.relation(table.name)} AS ${tableViewSelect(table, partitions)}`,
      `CREATE OR REPLACE VIEW ${this.partitionsRelation(table.name)} AS ${partitionsViewSelect(table, partitions)}`,
    ];
  }

  #where(table: string): string {
    return `schema_name = ${sqlString(this.schema)} AND table_name = ${sqlString(table)}`;
  }

  async #commit(statements: readonly string[]): Promise<void> {
    await this.duckdb.exec(['BEGIN TRANSACTION', ...statements, 'COMMIT'].join(';\n'));
  }

  async #definition(table: string): Promise<ExternalTable | undefined> {
    await this.ensureSchema();
    const rows = await this.read(`SELECT definition FROM ${tablesTable} WHERE ${this.#where(table)}`);
    return rows[0] ? (JSON.parse(String(rows[0][0])) as ExternalTable) : undefined;
  }

  async #stored(table: string): Promise<ExternalTable> {
    const stored = await this.#definition(table);
    if (!stored) throw new ScratchError(`${this.schema}.${table} is not a scratch table of this connection: create it first`);
    return stored;
  }

  async #partitions(table: string): Promise<DuckdbPartition[]> {
    const rows = await this.read(`SELECT partition_values, directory FROM ${partitionsTable} WHERE ${this.#where(table)} ORDER BY partition_values`);
    return rows.map(([values, directory]) => ({ values: JSON.parse(String(values)) as string[], directory: String(directory) }));
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const previous = queues.get(this.duckdb) ?? Promise.resolve();
    const next = previous.then(work, work);
    queues.set(
      this.duckdb,
      next.catch(() => undefined),
    );
    return next;
  }
}
