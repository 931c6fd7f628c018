/**
 * The messages between the api process and its DuckDB engine process (duckdb-worker.ts) over the
 * IPC channel of `child_process.fork`. Every request carries an id; its answers carry the same id.
 */
import type { Classification, ColumnMeta, Row } from './types.js';

/** How the engine process opens its database (JSON in its first argument). */
export interface WorkerSettings {
  /** Absolute database file, or `:memory:`. */
  file: string;
  /** Absolute spill directory, or '' for none. */
  tempDirectory: string;
  /**
   * Absolute directory where Parquet exports are written (`copy`), emptied when the engine opens;
   * only the platform's COPY writes there, a caller's SQL may not name it.
   */
  exportDirectory: string;
  /** Directories SQL may read files under. */
  allowedDirectories: string[];
  /** Directories only the platform's own SQL may name (its views read them); a caller's SQL may not. */
  platformDirectories: string[];
  /** Schemas where the platform registers tables (lower case): a caller's statement that changes data may not name them. */
  platformSchemas: string[];
  /** DuckDB memory_limit and max_temp_directory_size, in bytes; threads. */
  memoryLimit: number;
  maxTempDirectorySize: number;
  threads: number;
}

export type WorkerRequest =
  | { id: number; op: 'classify'; sql: string }
  | { id: number; op: 'start'; sql: string; readOnly: boolean; maxRows: number; maxBytes: number; complete: boolean }
  | { id: number; op: 'query'; sql: string; params: string[] }
  | { id: number; op: 'exec'; sql: string }
  /** A caller's query written as a Parquet file in the export directory, stopped past `maxBytes`. */
  | { id: number; op: 'copy'; sql: string; maxBytes: number }
  | { id: number; op: 'prepare'; sql: string }
  /** The api consumed one page of the started statement `target`: one more may be sent (flow control). */
  | { id: number; op: 'more'; target: number }
  /** Stops the request `target` inside DuckDB (connection.interrupt); its answer follows as usual. */
  | { id: number; op: 'interrupt'; target: number }
  | { id: number; op: 'close' };

/** What a failed request reports: `connection` becomes SqlConnectionError, `engine` SqlEngineError. */
export interface WorkerError {
  kind: 'engine' | 'connection';
  message: string;
}

export type WorkerReply =
  /** The engine process opened its database (or could not: then it exits). */
  | { ready: true }
  | { ready: false; error: WorkerError }
  | { id: number; ok: true; value?: Classification | Row[] | StartedStatement | ParquetFile }
  | { id: number; error: WorkerError }
  /**
   * A started statement's rows, pushed until its row or byte bound; then `end`. At most
   * `PAGE_WINDOW` pages are unconsumed at once: the engine waits for a `more` before the next, so
   * a reader slower than DuckDB (an export writing to storage) holds a few pages, never the result.
   */
  | { id: number; page: Row[] }
  | { id: number; end: true; budgetReached: boolean };

/** Pages of one statement that may be on their way or waiting in the api (each a DuckDB chunk, up to 2,048 rows). */
export const PAGE_WINDOW = 4;

/**
 * Rows in a statement's first page: half a chunk, so the api starts on a result's first rows while
 * the engine converts the rest of the chunk. Later pages are whole chunks (each page has a cost of
 * its own in the reader: an export's encoder, a write).
 */
export const FIRST_PAGE_ROWS = 1024;

/** A Parquet export the engine process wrote: the api streams the file into storage, then removes it. */
export interface ParquetFile {
  file: string;
  rows: number;
}

export interface StartedStatement {
  columns: ColumnMeta[];
  updateCount?: number;
}
