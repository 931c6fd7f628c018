/**
 * The scratch catalog of a SQL connection: where the platform registers tables over files in its
 * own storage (webhook tables, registered tables). Engine-neutral: external tables partitioned
 * Hive-style, partitions registered and unregistered one by one, views over them. Trino implements
 * it with a Hive connector catalog (file or Thrift metastore) and `system.register_partition`;
 * DuckDB with views over `read_parquet` / `read_json` and a partitions table as its metastore.
 */
import type { EngineKind } from '../types.js';

/** Column types a scratch table may declare (Trino: varchar, bigint, double, boolean, timestamp(6)). */
export type ScratchColumnType = 'varchar' | 'bigint' | 'double' | 'boolean' | 'timestamp';

export interface ScratchColumn {
  name: string;
  type: ScratchColumnType;
}

/**
 * How a table's files are written: Parquet, or gzipped JSON lines (one object per line, keys named
 * like the columns; timestamps as `YYYY-MM-DD HH:MM:SS.ffffff` in UTC, which both engines read).
 */
export type ScratchFormat = 'parquet' | 'json_gz';

/**
 * A "directory" in the platform's storage: a bucket of the platform's storage connection and a key
 * prefix ending in `/`. A table or partition reads the objects directly under it (not deeper), except
 * hidden ones (names starting with `_` or `.`), as Hive does.
 */
export interface StorageLocation {
  bucket: string;
  prefix: string;
}

export interface ExternalTable {
  /** Table name in the scratch schema: lower-case letters, digits and `_`, starting with a letter. */
  name: string;
  /** Data columns, in file order. */
  columns: readonly ScratchColumn[];
  /** Partition columns (varchar, Hive-style), after the data columns; at least one. */
  partitionColumns: readonly string[];
  format: ScratchFormat;
  /** The table's own location (partitions may lie elsewhere). */
  location: StorageLocation;
}

/**
 * A table over the one text file directly under `location` (no partitions): CSV or TSV with a
 * header row, or JSON lines. What table registration (shared/tables) reads a file version through.
 */
export interface FileTable {
  /** Table name in the scratch schema (as ExternalTable's). */
  name: string;
  format: 'csv' | 'tsv' | 'json_lines';
  /**
   * Column names (checked as ExternalTable's), every column varchar: Trino maps them to the
   * header's positions (CSV, TSV) or to the keys of the same name (JSON). DuckDB reads the file's
   * own names and sniffs the types, so it does not use them.
   */
  columns: readonly string[];
  location: StorageLocation;
}

/** The answer of checkScratch(): whether the platform can register tables through this connection. */
export type ScratchCheck = { ok: true } | { ok: false; reason: string };

export interface ScratchCatalog {
  readonly engine: EngineKind;
  /** The SQL connection (instance key). */
  readonly connection: string;
  readonly catalog: string;
  readonly schema: string;
  /** The quoted, fully qualified name of a table or view of the scratch schema, for SQL. */
  relation(name: string): string;
  /**
   * A relation with one row per registered partition of `table` and one varchar column per partition
   * column (Trino's `"<table>$partitions"`; on DuckDB a view the platform keeps beside the table).
   */
  partitionsRelation(table: string): string;
  /** Creates the table unless a table of that name exists (then nothing changes). */
  createExternalTable(table: ExternalTable): Promise<void>;
  /**
   * Registers the partition with `values` (one per partition column) over `location`, which must hold
   * at least one file. Registering a partition that is already registered changes nothing.
   */
  registerPartition(table: ExternalTable, values: readonly string[], location: StorageLocation): Promise<void>;
  /** Unregisters the partition (its files stay); unregistering one that is not registered changes nothing. */
  unregisterPartition(table: ExternalTable, values: readonly string[]): Promise<void>;
  /** The registered partitions' values, sorted; with `leading`, only those whose first values are these. A table that does not exist has none. */
  listPartitions(table: ExternalTable, leading?: readonly string[]): Promise<string[][]>;
  /**
   * Makes `table.name` read the file under `table.location`. Trino: an external table, created
   * unless a table of that name exists (a table's location never changes: another file is another
   * table name). DuckDB, which has no external tables: a view over read_csv / read_json, created or
   * replaced.
   */
  createFileTable(table: FileTable): Promise<void>;
  /** Creates or replaces view `name` as `select` (SQL both engines read; name relations with `relation()`). */
  createOrReplaceView(name: string, select: string): Promise<void>;
  /** Drops the view if it exists. */
  dropView(name: string): Promise<void>;
  /** Drops the table and its partitions' registration if it exists; its files stay. */
  dropTable(name: string): Promise<void>;
  /**
   * Whether this scratch catalog can read the platform's storage and register partitions, proven by
   * doing it on a probe table; when not, the reason, naming the setting to change.
   */
  check(): Promise<ScratchCheck>;
}

/** A refused scratch operation (bad name, empty location, engine refusal), with the reason. */
export class ScratchError extends Error {
  override readonly name = 'ScratchError';
}
