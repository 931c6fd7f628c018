/**
 * What the scratch catalog accepts (pure rules): names, partition values and locations are checked
 * before any SQL is written, so every identifier and literal the engines see is one of these shapes.
 */
import type { ExternalTable, FileTable, ScratchColumnType, StorageLocation } from './types.js';
import { ScratchError } from './types.js';

const namePattern = /^[a-z][a-z0-9_]{0,127}$/;
/** Partition values become path segments and literals: dates, hours, ids. */
const valuePattern = /^[A-Za-z0-9_:-][A-Za-z0-9_.:-]{0,127}$/;
const segmentPattern = /^[A-Za-z0-9=:-][A-Za-z0-9_.=:-]{0,127}$/;
const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const columnTypes: ReadonlySet<ScratchColumnType> = new Set(['varchar', 'bigint', 'double', 'boolean', 'timestamp']);

/** The DuckDB schema that holds scratch tables when the connection names none. */
export const DUCKDB_SCRATCH_SCHEMA = 'scratch';

/** The schema a DuckDB connection's scratch tables go to (`scratch.schema`, else `scratch`), lower case as DuckDB compares it. */
export function duckdbScratchSchema(scratch: { schema?: string | undefined } | undefined): string {
  return (scratch?.schema ?? DUCKDB_SCRATCH_SCHEMA).toLowerCase();
}

/** A table, view or column name: lower-case letters, digits and `_`, starting with a letter, at most 128. */
export function checkName(name: string, what = 'name'): string {
  if (!namePattern.test(name)) {
    throw new ScratchError(`${what} "${name}" is not allowed: use lower-case letters, digits and _, starting with a letter (at most 128)`);
  }
  return name;
}

function checkColumnNames(table: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    checkName(name, 'column name');
    if (seen.has(name)) throw new ScratchError(`table ${table} names column ${name} twice`);
    seen.add(name);
  }
}

export function checkTable(table: ExternalTable): ExternalTable {
  checkName(table.name, 'table name');
  if (table.columns.length === 0) throw new ScratchError(`table ${table.name} needs at least one data column`);
  if (table.partitionColumns.length === 0) throw new ScratchError(`table ${table.name} needs at least one partition column`);
  checkColumnNames(table.name, [...table.columns.map((c) => c.name), ...table.partitionColumns]);
  for (const c of table.columns) {
    if (!columnTypes.has(c.type)) throw new ScratchError(`column ${c.name} has type ${String(c.type)}; allowed: ${[...columnTypes].join(', ')}`);
  }
  if (table.format !== 'parquet' && table.format !== 'json_gz') throw new ScratchError(`table ${table.name} has format ${String(table.format)}; allowed: parquet, json_gz`);
  checkLocation(table.location);
  return table;
}

const fileFormats: ReadonlySet<FileTable['format']> = new Set(['csv', 'tsv', 'json_lines']);

export function checkFileTable(table: FileTable): FileTable {
  checkName(table.name, 'table name');
  if (!fileFormats.has(table.format)) throw new ScratchError(`table ${table.name} has format ${String(table.format)}; allowed: ${[...fileFormats].join(', ')}`);
  checkColumnNames(table.name, table.columns);
  checkLocation(table.location);
  return table;
}

/** One value per partition column, each a safe path segment. */
export function checkPartitionValues(table: ExternalTable, values: readonly string[]): readonly string[] {
  if (values.length !== table.partitionColumns.length) {
    throw new ScratchError(`table ${table.name} is partitioned by ${table.partitionColumns.join(', ')}: give ${table.partitionColumns.length} values, not ${values.length}`);
  }
  for (const v of values) {
    if (!valuePattern.test(v)) throw new ScratchError(`partition value "${v}" is not allowed: use letters, digits, _ . : - (at most 128, not starting with .)`);
  }
  return values;
}

/** A bucket name and a prefix of safe segments ending in `/` (no empty, `.` or `..` segment). */
export function checkLocation(location: StorageLocation): StorageLocation {
  if (!bucketPattern.test(location.bucket)) throw new ScratchError(`bucket "${location.bucket}" is not a valid bucket name`);
  const { prefix } = location;
  if (!prefix.endsWith('/') || prefix.length > 1024) throw new ScratchError(`location prefix "${prefix}" must end with / (at most 1024 characters)`);
  for (const segment of prefix.slice(0, -1).split('/')) {
    if (!segmentPattern.test(segment)) throw new ScratchError(`location prefix "${prefix}" has a segment that is empty, hidden or has characters outside letters, digits and _ . = : -`);
  }
  return location;
}

/** A SQL string literal (both engines double the quote). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A quoted SQL identifier. */
export function sqlIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Whether an object name (the part after the location's prefix) is one Hive reads: not hidden, not deeper. */
export function isReadableName(rest: string): boolean {
  return rest !== '' && !rest.includes('/') && !rest.startsWith('_') && !rest.startsWith('.');
}
