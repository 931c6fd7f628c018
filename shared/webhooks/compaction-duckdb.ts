/**
 * The merge of a window's compaction on an in-process DuckDB (a fresh in-memory instance per
 * compaction, bounded threads and memory, spilling to the compaction's own temp directory): local
 * copies of the raw segments and of the previous Parquet file in, one Parquet file out with
 * exactly the webhook table's columns, the earliest received event per event id. The same input
 * gives a byte-identical file: one thread writes it, rows in a total order.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sqlIdent, sqlString } from '../sql/scratch/rules.js';
import type { Window } from './layout.js';
import { webhookColumns } from './table.js';

export interface MergeInput {
  /** Local paths of the window's raw segments (gzipped JSON lines). */
  segments: readonly string[];
  /** Local path of the window's previous Parquet file, if any. */
  previous?: string;
  window: Pick<Window, 'dt' | 'hour' | 'minute'>;
  /** Where the Parquet file is written. */
  output: string;
  /** A directory of the compaction's own, where DuckDB may spill. */
  tempDir: string;
  /** DuckDB memory_limit, e.g. `512MB`. */
  memoryLimit: string;
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
/** The raw segments' rows, every column of the table typed. */
const rawSegments = (paths: readonly string[]) =>
  `read_json([${paths.map(sqlString).join(', ')}], format = 'newline_delimited', compression = 'gzip', columns = ${jsonColumns})`;

/**
 * The earliest received event per event id; ties (the same event received in the same
 * microsecond) broken by the remaining columns, so the choice never depends on reading order.
 */
const earliestFirst = ['received_at', 'landed_at', 'replica', 'content_hash', 'payload', 'event_type', 'key'].map(sqlIdent).join(', ');

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

/** Writes the window's Parquet file from local copies; see the module comment. */
export async function mergeToParquet(input: MergeInput): Promise<MergeResult> {
  const instance = await DuckDBInstance.create(':memory:', {
    threads: '1',
    memory_limit: input.memoryLimit,
    temp_directory: join(input.tempDir, 'duckdb'),
    preserve_insertion_order: 'true',
    // Only the files named here: no extensions fetched, no other reads.
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  const counter = await instance.connect();
  try {
    // The raw rows are counted beside the merge, on a connection of their own (one more thread
    // reading the segments; counting holds no rows). With every column declared: a partial
    // `columns` makes read_json over twice as slow (test/bench/webhooks-compaction.ts).
    const counting = input.segments.length > 0 ? counter.runAndReadAll(`SELECT count(*) FROM ${rawSegments(input.segments)}`) : undefined;
    const [counted, copied] = await Promise.all([counting, connection.run(`COPY (${mergeSelect(input)}) TO ${sqlString(input.output)} (FORMAT parquet, COMPRESSION zstd)`)]);
    const rawRows = counted ? Number(counted.getRows()[0]![0]) : 0;
    const events = copied.rowsChanged;
    return { events, duplicatesDropped: Math.max(0, rawRows - events) };
  } finally {
    counter.closeSync();
    connection.closeSync();
    instance.closeSync();
  }
}
