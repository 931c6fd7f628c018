/**
 * DuckDB engine (`@duckdb/node-api`): a database file owned by an engine process of its own.
 *
 * DuckDB runs in a supervised child process (duckdb-worker.ts, managed by duckdb-supervisor.ts) so
 * that a fatal fault inside it — a C++ exception escaping the binding aborts its process — costs
 * that process, never the api: the statements in flight fail with a SqlEngineError and the next one
 * starts a fresh process. Rows cross over IPC already JSON-ready, bounded by the caller's row limit
 * and byte budget, and paced by the reader: the engine process sends a few pages ahead of what
 * `nextPage` took (duckdb-protocol.ts PAGE_WINDOW), so a long result streams through bounded memory.
 *
 * DuckDB is single-process: one process may open a database file for writing, and it holds a file
 * lock while it does. All DuckDbEngines on one file in this process share one engine process (a
 * reference-counted registry below); each statement runs on its own DuckDB connection there, so
 * cancelling one never touches another. Clustered deployments (several api replicas, a separate
 * worker) use Trino.
 */
import os from 'node:os';
import path from 'node:path';
import { EngineProcess, type ParquetFile, type RequestBody, type StartedStatement } from './duckdb-supervisor.js';
import type { RestartPolicy } from '../supervision/index.js';
import { duckdbPlanEstimate } from './explain.js';
import { DEFAULT_MAX_RESULT_BYTES, raceSignal } from './run.js';
import {
  SqlConnectionError,
  SqlEngineError,
  type Classification,
  type ColumnInfo,
  type ExplainResult,
  type ExplainType,
  type QueryCursor,
  type Row,
  type SqlEngine,
  type StartOptions,
  type TableRef,
} from './types.js';

export interface DuckDbEngineOptions {
  /** Database file; its directory is created when missing. `:memory:` for a throwaway database. */
  path: string;
  /** Directories SQL may read files from; none by default. */
  allowedDirectories?: readonly string[];
  /**
   * The platform's own storage (the filesystem driver's platform buckets): read by the views the
   * platform writes (scratch tables), never named by a caller's SQL (refused like the engine's files).
   */
  platformDirectories?: readonly string[];
  /** Schemas where the platform registers tables: a caller's statement that changes data may not name them (none by default). */
  platformSchemas?: readonly string[];
  /** DuckDB `memory_limit` in bytes (default 1 GiB), `threads` (default 2), `max_temp_directory_size` in bytes (default 4 GiB). */
  memoryLimit?: number;
  threads?: number;
  maxTempDirectorySize?: number;
  /** How long an interrupted statement may go on before its engine process is killed (default 5 s). */
  stuckKillMs?: number;
  restartPolicy?: RestartPolicy;
}

// ---------------------------------------------------------------------------
// One engine process per file per api process

interface Shared {
  key: string;
  process: EngineProcess;
  refs: number;
}
const shared = new Map<string, Shared>();
let memoryDatabases = 0;

function acquire(options: DuckDbEngineOptions): Shared {
  // Every :memory: engine is its own database; a file's spill directory sits next to it (`<file>.tmp`).
  const file = options.path === ':memory:' ? options.path : path.resolve(options.path);
  const key = file === ':memory:' ? `:memory:${++memoryDatabases}` : file;
  let entry = shared.get(key);
  if (!entry) {
    const engineProcess = new EngineProcess(
      {
        file,
        tempDirectory: file === ':memory:' ? '' : `${file}.tmp`,
        // Parquet exports: next to the file (its prefix is already private), or a directory of this process's own for :memory:.
        exportDirectory: file === ':memory:' ? path.join(os.tmpdir(), `duckdb-exports-${process.pid}-${memoryDatabases}`) : `${file}.exports`,
        allowedDirectories: (options.allowedDirectories ?? []).map((d) => path.resolve(d)),
        platformDirectories: (options.platformDirectories ?? []).map((d) => path.resolve(d)),
        platformSchemas: (options.platformSchemas ?? []).map((s) => s.toLowerCase()),
        memoryLimit: options.memoryLimit ?? 1024 ** 3,
        threads: options.threads ?? 2,
        maxTempDirectorySize: options.maxTempDirectorySize ?? 4 * 1024 ** 3,
      },
      {
        ...(options.stuckKillMs !== undefined ? { stuckKillMs: options.stuckKillMs } : {}),
        ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
      },
    );
    entry = { key, process: engineProcess, refs: 0 };
    shared.set(key, entry);
  }
  entry.refs++;
  return entry;
}

async function release(entry: Shared): Promise<void> {
  entry.refs--;
  if (entry.refs > 0) return;
  shared.delete(entry.key);
  await entry.process.close();
}

const quoteIdent = (s: string) => `"${s.replaceAll('"', '""')}"`;

// ---------------------------------------------------------------------------

export class DuckDbEngine implements SqlEngine {
  readonly kind = 'duckdb' as const;
  readonly defaults: { catalog?: string; schema?: string };
  readonly #options: DuckDbEngineOptions;
  #shared: Shared | undefined;
  #closed = false;

  constructor(options: DuckDbEngineOptions) {
    this.#options = options;
    // DuckDB names an attached file's catalog after the file's stem.
    this.defaults = { catalog: options.path === ':memory:' ? 'memory' : path.basename(options.path).replace(/\.[^.]*$/, ''), schema: 'main' };
  }

  /** The engine process; it starts (and the file opens) on the first request. */
  #process(): EngineProcess {
    if (this.#closed) throw new SqlConnectionError('the DuckDB engine is closed');
    this.#shared ??= acquire(this.#options);
    return this.#shared.process;
  }

  /** The engine process's pid while it runs (for tests and diagnostics). */
  get enginePid(): number | undefined {
    return this.#shared?.process.pid;
  }

  /** One request; aborting `signal` interrupts it inside DuckDB and rejects with the signal's reason. */
  async #call<T>(body: RequestBody, signal?: AbortSignal): Promise<T> {
    const engine = this.#process();
    if (signal?.aborted) throw signal.reason as Error;
    const { id, result } = engine.request<T>(body);
    if (!signal) return result;
    const stop = () => engine.interrupt(id);
    signal.addEventListener('abort', stop, { once: true });
    try {
      return await raceSignal(result, signal);
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  async start(sql: string, options: StartOptions): Promise<QueryCursor> {
    const engine = this.#process();
    const { signal } = options;
    if (signal.aborted) throw signal.reason as Error;
    const pages: Row[][] = [];
    let ended = false;
    let budgetReached = false;
    let failure: Error | undefined;
    let wake: (() => void) | undefined;
    const settle = () => {
      wake?.();
      wake = undefined;
    };
    const { id, result } = engine.request<StartedStatement>(
      {
        op: 'start',
        sql,
        readOnly: options.readOnly ?? false,
        maxRows: Math.min(options.maxRows ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
        maxBytes: options.maxBytes ?? DEFAULT_MAX_RESULT_BYTES,
        complete: options.complete ?? false,
      },
      {
        onPage: (rows) => {
          pages.push(rows);
          settle();
        },
        onEnd: (budget) => {
          ended = true;
          budgetReached = budget;
          settle();
        },
        onError: (error) => {
          failure = error;
          ended = true;
          settle();
        },
      },
    );
    const stop = () => {
      engine.interrupt(id);
      failure ??= signal.reason as Error;
      ended = true;
      settle();
    };
    signal.addEventListener('abort', stop, { once: true });
    let started: StartedStatement;
    try {
      started = await raceSignal(result, signal);
    } catch (error) {
      signal.removeEventListener('abort', stop);
      throw error;
    }
    return {
      columns: started.columns,
      ...(started.updateCount !== undefined ? { updateCount: started.updateCount } : {}),
      get budgetReached() {
        return budgetReached;
      },
      async nextPage() {
        for (;;) {
          const page = pages.shift();
          if (page) {
            // Room for the next page: the engine process sends at most PAGE_WINDOW ahead of us.
            if (!ended) engine.more(id);
            return page;
          }
          if (failure) throw failure;
          if (ended) {
            signal.removeEventListener('abort', stop);
            return null;
          }
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
      async cancel() {
        signal.removeEventListener('abort', stop);
        if (ended) return;
        ended = true;
        engine.interrupt(id);
        settle();
      },
    };
  }

  /**
   * Writes a caller's query (one SELECT, run read-only, under the same call policy as every caller
   * statement) as a Parquet file in the engine's export directory, stopped past `maxBytes`. The
   * caller streams the file and removes it; aborting `signal` interrupts the COPY.
   */
  exportParquet(sql: string, maxBytes: number, signal: AbortSignal): Promise<ParquetFile> {
    return this.#call<ParquetFile>({ op: 'copy', sql, maxBytes }, signal);
  }

  /** Runs SQL that the platform itself wrote (DDL, sample data), bypassing classification. */
  async exec(sql: string): Promise<void> {
    await this.#call({ op: 'exec', sql });
  }

  /** Runs SQL that the platform itself wrote, bypassing classification: all rows. */
  query(sql: string, params: string[], signal: AbortSignal): Promise<Row[]> {
    return this.#call<Row[]>({ op: 'query', sql, params }, signal);
  }

  classify(sql: string, signal?: AbortSignal): Promise<Classification> {
    return this.#call<Classification>({ op: 'classify', sql }, signal);
  }

  async explain(sql: string, type: ExplainType, signal: AbortSignal): Promise<ExplainResult> {
    if (type === 'validate') {
      // DuckDB has no EXPLAIN (TYPE VALIDATE): preparing the statement is the validation.
      await this.#call({ op: 'prepare', sql }, signal);
      return { plan: 'Valid: true', type };
    }
    // logical and distributed are the same single-node physical plan; io is the JSON plan with
    // each operator's estimated cardinality.
    const statement = type === 'io' ? `EXPLAIN (FORMAT JSON) ${sql}` : `EXPLAIN ${sql}`;
    const rows = await this.query(statement, [], signal);
    return { plan: rows.map((r) => String(r[1] ?? '')).join('\n'), type };
  }

  async estimateRows(sql: string, signal: AbortSignal): Promise<number | undefined> {
    const rows = await this.query(`EXPLAIN (FORMAT JSON) ${sql}`, [], signal);
    return duckdbPlanEstimate(rows.map((r) => String(r[1] ?? '')).join('\n'));
  }

  async referencedTables(sql: string): Promise<TableRef[]> {
    // DuckDB's own parser, serialised: base-table references anywhere in the statement.
    let json: unknown;
    try {
      const rows = await this.query('SELECT json_serialize_sql($1::VARCHAR)', [sql], AbortSignal.timeout(10_000));
      json = JSON.parse(String(rows[0]?.[0] ?? '{}'));
    } catch {
      return [];
    }
    return duckdbTablesFromAst(json);
  }

  async listCatalogs(signal: AbortSignal): Promise<string[]> {
    // duckdb_databases() also holds file paths, which callers may not read: names only leave here.
    const rows = await this.query('SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY 1', [], signal);
    return rows.map((r) => String(r[0]));
  }

  async listSchemas(catalog: string, signal: AbortSignal): Promise<string[]> {
    const rows = await this.query(
      `SELECT schema_name FROM information_schema.schemata
       WHERE catalog_name = $1 AND schema_name NOT IN ('information_schema', 'pg_catalog') ORDER BY 1`,
      [catalog],
      signal,
    );
    return rows.map((r) => String(r[0]));
  }

  async listTables(catalog: string, schema: string, signal: AbortSignal): Promise<string[]> {
    const rows = await this.query(
      'SELECT table_name FROM information_schema.tables WHERE table_catalog = $1 AND table_schema = $2 ORDER BY 1',
      [catalog, schema],
      signal,
    );
    return rows.map((r) => String(r[0]));
  }

  async describeTable(ref: Required<TableRef>, signal: AbortSignal): Promise<ColumnInfo[]> {
    const rows = await this.query(
      `SELECT column_name, data_type, is_nullable, comment FROM duckdb_columns()
       WHERE database_name = $1 AND schema_name = $2 AND table_name = $3 ORDER BY column_index`,
      [ref.catalog, ref.schema, ref.table],
      signal,
    );
    if (rows.length === 0) {
      throw new SqlEngineError(`Catalog Error: Table ${[ref.catalog, ref.schema, ref.table].map(quoteIdent).join('.')} does not exist`);
    }
    return rows.map((r) => ({
      name: String(r[0]),
      type: String(r[1]),
      nullable: r[2] === true,
      ...(typeof r[3] === 'string' && r[3] !== '' ? { comment: r[3] } : {}),
    }));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const entry = this.#shared;
    this.#shared = undefined;
    if (entry) await release(entry);
  }
}

/** Base tables of a `json_serialize_sql` document, CTE names excluded. */
export function duckdbTablesFromAst(doc: unknown): TableRef[] {
  const ctes = new Set<string>();
  const found = new Map<string, TableRef>();
  const visit = (node: unknown, depth: number) => {
    if (depth > 300 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    const rec = node as Record<string, unknown>;
    const cteMap = (rec.cte_map as { map?: Array<{ key?: unknown }> } | undefined)?.map;
    if (Array.isArray(cteMap)) for (const e of cteMap) if (typeof e.key === 'string') ctes.add(e.key.toLowerCase());
    if (rec.type === 'BASE_TABLE' && typeof rec.table_name === 'string') {
      const catalog = typeof rec.catalog_name === 'string' && rec.catalog_name ? rec.catalog_name : undefined;
      const schema = typeof rec.schema_name === 'string' && rec.schema_name ? rec.schema_name : undefined;
      const ref: TableRef = { ...(catalog ? { catalog } : {}), ...(schema ? { schema } : {}), table: rec.table_name };
      found.set(`${catalog ?? ''}.${schema ?? ''}.${ref.table}`, ref);
    }
    for (const value of Object.values(rec)) visit(value, depth + 1);
  };
  visit(doc, 0);
  return [...found.values()].filter((t) => t.schema !== undefined || t.catalog !== undefined || !ctes.has(t.table.toLowerCase()));
}
