/**
 * The merge of a window's compaction on an in-process DuckDB (a fresh in-memory instance per
 * compaction, bounded threads and memory, spilling to the compaction's own temp directory): the
 * raw segments and the previous Parquet file in, one Parquet file out with exactly the webhook
 * table's columns, the earliest received event per event id.
 *
 * The same input gives a byte-identical file whatever the thread count (test/unit/
 * webhook-compaction-duckdb.test.ts): the rows are written in a total order (event ids are unique
 * after the de-duplication), and with `preserve_insertion_order` DuckDB's Parquet COPY cuts that
 * ordered stream into row groups of a fixed row count and writes them in order — so every core
 * reads, gunzips, parses, de-duplicates, sorts and compresses, and the bytes do not depend on it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sqlIdent, sqlString } from '../sql/scratch/rules.js';
import type { Window } from './layout.js';
import { earliestReceivedFirst, webhookColumns } from './table.js';

export interface MergeInput {
  /** Paths of the window's raw segments (gzipped JSON lines). */
  segments: readonly string[];
  /** Path (or glob matching exactly one file) of the window's previous Parquet file, if any. */
  previous?: string;
  window: Pick<Window, 'dt' | 'hour' | 'minute'>;
  /** Where the Parquet file is written. */
  output: string;
  /** A directory of the compaction's own, where DuckDB may spill and leave its query profile. */
  tempDir: string;
  /** DuckDB's memory_limit, in bytes. */
  memoryLimitBytes: number;
  /** DuckDB's threads: the bytes written do not depend on it. */
  threads: number;
}

export interface MergeResult {
  /** Events written (one per event id). */
  events: number;
  /** Rows of the raw segments not written: the window's duplicates as of this compaction. */
  duplicatesDropped: number;
}

const duckdbTypes = { timestamp: 'TIMESTAMP', varchar: 'VARCHAR', bigint: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN' } as const;
const columns = webhookColumns.map((c) => sqlIdent(c.name)).join(', ');
const jsonColumns = `{${webhookColumns.map((c) => `${sqlString(c.name)}: ${sqlString(duckdbTypes[c.type])}`).join(', ')}}`;
/**
 * The raw segments' rows, every column of the table typed (a partial `columns` makes read_json
 * over twice as slow: test/bench/webhooks-compaction.ts).
 */
const rawSegments = (paths: readonly string[]) =>
  `read_json([${paths.map(sqlString).join(', ')}], format = 'newline_delimited', compression = 'gzip', columns = ${jsonColumns})`;
/** The operator reading the raw segments in DuckDB's query profile. */
const rawScanOperator = 'READ_JSON';

/** The earliest received copy of each event id first: the one the view shows too. */
const earliestFirst = earliestReceivedFirst.map(sqlIdent).join(', ');

export function mergeSelect(input: Pick<MergeInput, 'segments' | 'previous' | 'window'>): string {
  const sources = [
    ...(input.segments.length > 0 ? [`SELECT ${columns} FROM ${rawSegments(input.segments)}`] : []),
    ...(input.previous !== undefined ? [`SELECT ${columns} FROM read_parquet(${sqlString(input.previous)})`] : []),
  ];
  if (sources.length === 0) throw new Error('a compaction needs at least one raw segment or a previous file');
  const { dt, hour, minute } = input.window;
  return (
    `SELECT ${columns}, ${sqlString(dt)} AS dt, ${sqlString(hour)} AS hour, ${sqlString(minute)} AS minute ` +
    `FROM (${sources.join(' UNION ALL ')}) ` +
    `QUALIFY row_number() OVER (PARTITION BY event_id ORDER BY ${earliestFirst}) = 1 ` +
    `ORDER BY received_at, event_id`
  );
}

/** Writes the window's Parquet file; see the module comment. */
export async function mergeToParquet(input: MergeInput): Promise<MergeResult> {
  const profile = join(input.tempDir, 'merge-profile.json');
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(input.threads),
    memory_limit: `${input.memoryLimitBytes}B`,
    temp_directory: join(input.tempDir, 'duckdb'),
    preserve_insertion_order: 'true',
    // Only the files named here: no extensions fetched, no other reads.
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  try {
    // The raw rows read are counted by the profiler (rows out of each operator, nothing else
    // timed or measured) rather than by a second pass over the segments, which cost as much CPU
    // again as half the merge.
    await connection.run(
      `SET enable_profiling = 'json'; SET profiling_output = ${sqlString(profile)}; ` +
        `SET custom_profiling_settings = '${JSON.stringify({ OPERATOR_NAME: 'true', OPERATOR_CARDINALITY: 'true' })}'`,
    );
    const copied = await connection.run(`COPY (${mergeSelect(input)}) TO ${sqlString(input.output)} (FORMAT parquet, COMPRESSION zstd)`);
    const events = copied.rowsChanged;
    const rawRows = input.segments.length > 0 ? rowsOutOf(JSON.parse(await readFile(profile, 'utf8')) as ProfileNode, rawScanOperator) : 0;
    return { events, duplicatesDropped: Math.max(0, rawRows - events) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A node of DuckDB's JSON query profile (the fields read here). */
interface ProfileNode {
  operator_name?: string;
  operator_cardinality?: number;
  children?: ProfileNode[];
}

/** The rows out of every `operator` of the profile; an error when it has none (a profile format DuckDB changed). */
function rowsOutOf(root: ProfileNode, operator: string): number {
  let found = false;
  let rows = 0;
  const visit = (node: ProfileNode) => {
    if (node.operator_name === operator && typeof node.operator_cardinality === 'number') {
      found = true;
      rows += node.operator_cardinality;
    }
    node.children?.forEach(visit);
  };
  visit(root);
  if (!found) throw new Error(`the merge's query profile names no ${operator} operator with a row count`);
  return rows;
}
