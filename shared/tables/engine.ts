/**
 * A registered table in its connection's scratch catalog (shared/sql/scratch), over the directory
 * that holds exactly one file version's bytes (layout.ts):
 * - DuckDB: the view `<table>` over `read_csv` / `read_json` of that file (types sniffed by DuckDB);
 * - Trino: the external table `<table>__v<version>` (Hive CSV or JSON: every column varchar, named
 *   from the header or the keys) behind the view `<table>`, so moving to another version replaces
 *   the view in one statement and queries never see the table missing.
 * The scratch catalog checks every name and makes the views; the Trino table itself (and its schema)
 * is what its interface has no call for: a CSV or JSON external table without partitions.
 */
import { prefixDirectory } from '../objstore/index.js';
import type { SqlConnection } from '../sql/index.js';
import { scratchCatalog, sqlIdent, type ScratchCatalog, type ScratchStorage, type StorageLocation } from '../sql/scratch/index.js';
import { columnNames, delimiterOf, MAX_TABLE_COLUMNS, TableError, versionRelation, type TableFormat } from './rules.js';

const statementTimeoutMs = 60_000;

/** What a relation is built over. */
export interface VersionFile {
  format: TableFormat;
  version: number;
  /** The directory holding exactly this version's file. */
  location: StorageLocation;
  /** Header names (CSV, TSV) or keys (NDJSON), from the scan. */
  columns: readonly string[];
}

const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`;

export class TableEngine {
  readonly scratch: ScratchCatalog;

  constructor(
    readonly connection: SqlConnection,
    readonly storage: ScratchStorage,
  ) {
    try {
      this.scratch = scratchCatalog(connection, storage);
    } catch (error) {
      throw new TableError('unavailable', (error as Error).message);
    }
  }

  /**
   * Points `table` at `file`; answers the engine object that reads it (the view itself on DuckDB,
   * the version's external table on Trino). Again with the same version: nothing changes.
   */
  async register(table: string, file: VersionFile): Promise<string> {
    if (this.connection.engine.kind === 'duckdb') {
      await this.scratch.createOrReplaceView(table, this.#duckdbSelect(file));
      return table;
    }
    const relation = versionRelation(table, file.version);
    await this.#run(`CREATE SCHEMA IF NOT EXISTS ${sqlIdent(this.scratch.catalog)}.${sqlIdent(this.scratch.schema)}`);
    await this.#run(this.#trinoCreate(relation, file));
    await this.scratch.createOrReplaceView(table, `SELECT * FROM ${this.scratch.relation(relation)}`);
    return relation;
  }

  /** Drops an engine object left behind by a move (Trino's previous version table). */
  async dropRelation(table: string, relation: string): Promise<void> {
    if (relation !== table) await this.scratch.dropTable(relation);
  }

  /** Drops the table callers query and the engine object under it. */
  async drop(table: string, relation: string | null): Promise<void> {
    await this.scratch.dropView(table);
    if (relation) await this.dropRelation(table, relation);
  }

  #duckdbSelect(file: VersionFile): string {
    const root = this.storage.connection.root;
    if (root === undefined) throw new TableError('unavailable', 'DuckDB reads the platform storage only on the filesystem driver');
    const glob = sqlString(`${prefixDirectory(root, file.location.bucket, file.location.prefix)}/o_*`);
    if (file.format === 'ndjson') return `SELECT * FROM read_json(${glob}, format = 'newline_delimited')`;
    return `SELECT * FROM read_csv(${glob}, header = true, delim = ${sqlString(delimiterOf(file.format))}, quote = '"', escape = '"')`;
  }

  #trinoCreate(relation: string, file: VersionFile): string {
    const names = file.format === 'ndjson' ? file.columns.map((c) => c.toLowerCase()).filter((c, i, all) => /^[a-z][a-z0-9_]*$/.test(c) && all.indexOf(c) === i) : columnNames(file.columns);
    if (names.length === 0) throw new TableError('invalid', 'the file has no columns Trino can name (a header row, or keys of letters, digits and _)');
    if (names.length > MAX_TABLE_COLUMNS) throw new TableError('invalid', `the file has ${names.length} columns; a table here has at most ${MAX_TABLE_COLUMNS}`);
    const options =
      file.format === 'ndjson'
        ? `format = 'JSON'`
        : `format = 'CSV', skip_header_line_count = 1${file.format === 'tsv' ? `, csv_separator = ${sqlString('\t')}` : ''}`;
    return (
      `CREATE TABLE IF NOT EXISTS ${this.scratch.relation(relation)} (${names.map((n) => `${sqlIdent(n)} varchar`).join(', ')}) ` +
      `WITH (external_location = ${sqlString(`s3://${file.location.bucket}/${file.location.prefix}`)}, ${options})`
    );
  }

  async #run(sql: string): Promise<void> {
    const cursor = await this.connection.engine.start(sql, { signal: AbortSignal.timeout(statementTimeoutMs) });
    while (await cursor.nextPage());
  }
}
