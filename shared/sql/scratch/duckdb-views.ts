/**
 * The SQL of a DuckDB scratch table (pure): DuckDB has no metastore, so a table is a view the
 * platform rewrites whenever its partitions change. It reads the `o_…` files (the filesystem
 * store's object bytes) directly in each registered partition's directory — globbed at query
 * time, so files written into a registered partition are read at once — and takes each row's
 * partition values from the directory its file lies in. Hidden objects (`_…`, `.…`) are skipped,
 * as Hive skips them.
 */
import { sqlIdent, sqlString } from './rules.js';
import type { ExternalTable, FileTable, ScratchColumnType } from './types.js';

/** A registered partition: its values and the directory of its files. */
export interface DuckdbPartition {
  values: readonly string[];
  directory: string;
}

const duckdbTypes: Record<ScratchColumnType, string> = {
  varchar: 'VARCHAR',
  bigint: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
};

const fileColumn = '__scratch_file';
const directoryColumn = '__scratch_directory';
/** An object whose name starts with `_` or `.` (escaped `%2E`) in the store's layout. */
const hiddenObject = '^o_(_|%2E)';

/** No rows, with the given varchar-or-typed columns: the table before its first partition. */
function emptySelect(columns: ReadonlyArray<{ name: string; type: string }>): string {
  return `SELECT ${columns.map((c) => `CAST(NULL AS ${c.type}) AS ${sqlIdent(c.name)}`).join(', ')} WHERE false`;
}

export function tableViewSelect(table: ExternalTable, partitions: readonly DuckdbPartition[]): string {
  const dataColumns = table.columns.map((c) => ({ name: c.name, type: duckdbTypes[c.type] }));
  if (partitions.length === 0) return emptySelect([...dataColumns, ...table.partitionColumns.map((name) => ({ name, type: 'VARCHAR' }))]);
  const globs = `[${partitions.map((p) => sqlString(`${p.directory}/o_*`)).join(', ')}]`;
  const reader =
    table.format === 'parquet'
      ? `read_parquet(${globs}, union_by_name = true, filename = ${sqlString(fileColumn)})`
      : `read_json(${globs}, format = 'newline_delimited', compression = 'gzip', ` +
        `columns = {${dataColumns.map((c) => `${sqlString(c.name)}: ${sqlString(c.type)}`).join(', ')}}, filename = ${sqlString(fileColumn)})`;
  const values = partitions.map((p) => `(${[p.directory, ...p.values].map(sqlString).join(', ')})`).join(', ');
  const select = [...dataColumns.map((c) => `CAST(f.${sqlIdent(c.name)} AS ${c.type}) AS ${sqlIdent(c.name)}`), ...table.partitionColumns.map((c) => `p.${sqlIdent(c)}`)];
  return (
    `SELECT ${select.join(', ')} FROM ${reader} AS f ` +
    `JOIN (VALUES ${values}) AS p(${[directoryColumn, ...table.partitionColumns].map(sqlIdent).join(', ')}) ` +
    `ON parse_dirpath(f.${sqlIdent(fileColumn)}) = p.${sqlIdent(directoryColumn)} ` +
    `WHERE NOT regexp_matches(parse_filename(f.${sqlIdent(fileColumn)}), ${sqlString(hiddenObject)})`
  );
}

/** The registered partitions, one varchar column per partition column (Trino's `$partitions`). */
export function partitionsViewSelect(table: ExternalTable, partitions: readonly DuckdbPartition[]): string {
  if (partitions.length === 0) return emptySelect(table.partitionColumns.map((name) => ({ name, type: 'VARCHAR' })));
  const values = partitions.map((p) => `(${p.values.map(sqlString).join(', ')})`).join(', ');
  return `SELECT * FROM (VALUES ${values}) AS p(${table.partitionColumns.map(sqlIdent).join(', ')})`;
}

/** A file table: the file's own columns and DuckDB's sniffed types, read from the objects in `directory`. */
export function fileViewSelect(table: FileTable, directory: string): string {
  const glob = sqlString(`${directory}/o_*`);
  if (table.format === 'json_lines') return `SELECT * FROM read_json(${glob}, format = 'newline_delimited')`;
  return `SELECT * FROM read_csv(${glob}, header = true, delim = ${sqlString(table.format === 'tsv' ? '\t' : ',')}, quote = '"', escape = '"')`;
}
