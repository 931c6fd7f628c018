/**
 * The engine interface behind the sql_* tools. Two engines implement it: Trino (production
 * clusters, over its HTTP client protocol) and DuckDB (embedded, one process per database file).
 */

/** One result column as the engine names and types it (`integer`, `varchar(10)`, `DECIMAL(10,2)`, …). */
export interface ColumnMeta {
  name: string;
  type: string;
}

/** One row, values in column order, already JSON-ready (no bigint, no class instances). */
export type Row = unknown[];

/** A table name; missing parts resolve against the connection's defaults. */
export interface TableRef {
  catalog?: string;
  schema?: string;
  table: string;
}

export interface ColumnInfo {
  name: string;
  type: string;
  nullable?: boolean;
  comment?: string;
}

/**
 * A running statement. Pages arrive as the engine produces them; `cancel` stops the work on the
 * engine (DuckDB interrupt, Trino DELETE of the next URI) and is safe to call more than once.
 */
export interface QueryCursor {
  readonly columns: readonly ColumnMeta[];
  /** The next page of rows, or null at the end. */
  nextPage(): Promise<Row[] | null>;
  /** Rows changed, for statements that report it (Trino updateCount, DuckDB rowsChanged). */
  readonly updateCount?: number;
  /** Set once the pages have ended early because `StartOptions.maxBytes` was reached (more rows may exist). */
  readonly budgetReached?: boolean;
  cancel(): Promise<void>;
}

export interface StartOptions {
  /** Aborting stops the engine's work; the pending call rejects. */
  signal: AbortSignal;
  /**
   * The caller asked for a read (sql_query): engines that can enforce it do so on their side too
   * (DuckDB runs the statement in a READ ONLY transaction), as a second wall behind classification.
   */
  readOnly?: boolean;
  /**
   * How much the caller will read at most (rows; bytes as `jsonSize` counts them). An engine may
   * stop producing beyond them (DuckDB does, so nothing larger crosses its process boundary); the
   * caller enforces both itself either way.
   */
  maxRows?: number;
  maxBytes?: number;
  /**
   * The caller reads every row and must learn of any error (an export). DuckDB then produces the
   * whole result before the first page (a materialized result, spilled to its temp directory past
   * memory_limit): its streaming results end silently, like a finished result, when the statement
   * fails midway. Trino reports such errors in its protocol either way.
   */
  complete?: boolean;
}

/** What an EXPLAIN type is called on our tools (spec: logical, distributed, io, validate). */
export type ExplainType = 'logical' | 'distributed' | 'io' | 'validate';

export interface ExplainResult {
  plan: string;
  type: ExplainType;
}

/** How one statement was classified by the engine's own parser or the dialect's grammar. */
export interface StatementVerdict {
  /** True only when the statement provably cannot change data. */
  read: boolean;
  /** Statement kind as the classifier names it (`SELECT`, `INSERT`, `EXPLAIN`, `MERGE_INTO`, …). */
  kind: string;
  /** Why a statement that is not a write still could not be proven read-only. */
  reason?: string;
}

export interface Classification {
  /** Verdicts of the first statements only: classification stops at the second, as more are refused anyway. */
  statements: StatementVerdict[];
  /** How many statements the input holds. */
  count: number;
  /** Why the engine refuses this input on every connection (engine-wide state, its own files), if it does. */
  refusal?: string;
}

export type EngineKind = 'duckdb' | 'trino';

export interface SqlEngine {
  readonly kind: EngineKind;
  /** The catalog and schema unqualified names resolve against. */
  readonly defaults: { catalog?: string; schema?: string };
  /** Starts a statement and resolves once its columns are known (or it finished). */
  start(sql: string, options: StartOptions): Promise<QueryCursor>;
  /**
   * Splits and classifies the statements of `sql` (read or not, refused or not); throws the engine's
   * parse error. Aborting `signal` stops the work and rejects with its reason.
   */
  classify(sql: string, signal?: AbortSignal): Promise<Classification>;
  /** Runs the engine's EXPLAIN of the given type. */
  explain(sql: string, type: ExplainType, signal: AbortSignal): Promise<ExplainResult>;
  /** The engine's row estimate for `sql`, when it gives one; undefined when it does not. */
  estimateRows(sql: string, signal: AbortSignal): Promise<number | undefined>;
  /** Base tables a statement reads (CTE names excluded); empty when it cannot tell. */
  referencedTables(sql: string): Promise<TableRef[]>;
  listCatalogs(signal: AbortSignal): Promise<string[]>;
  listSchemas(catalog: string, signal: AbortSignal): Promise<string[]>;
  listTables(catalog: string, schema: string, signal: AbortSignal): Promise<string[]>;
  describeTable(ref: Required<TableRef>, signal: AbortSignal): Promise<ColumnInfo[]>;
  close(): Promise<void>;
}

/** An error the engine reported (syntax, missing table, permission …): its message goes to the agent as is. */
export class SqlEngineError extends Error {
  override readonly name = 'SqlEngineError';
  constructor(
    message: string,
    readonly details: { errorName?: string; errorType?: string; errorCode?: number; httpStatus?: number } = {},
  ) {
    super(message);
  }
}

/** The engine could not be reached or refused the connection (network, TLS, authentication). */
export class SqlConnectionError extends Error {
  override readonly name = 'SqlConnectionError';
}

/** The statement ran past its deadline and was cancelled on the engine. */
export class SqlTimeoutError extends Error {
  override readonly name = 'SqlTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`query exceeded the timeout of ${formatSeconds(timeoutMs)} and was cancelled`);
  }
}

/** The caller went away (MCP cancellation or closed connection); the statement was cancelled on the engine. */
export class SqlCancelledError extends Error {
  override readonly name = 'SqlCancelledError';
  constructor() {
    super('query cancelled by the caller');
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
