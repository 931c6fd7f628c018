/**
 * DuckDB engine (`@duckdb/node-api`): a database file opened in this process.
 *
 * DuckDB is single-process: one process may open a database file for writing, and it holds a file
 * lock while it does. Inside the process all statements share one DuckDBInstance per file (a
 * reference-counted registry below), each statement on its own connection so that cancelling one
 * (connection.interrupt) never touches another. Clustered deployments (several api replicas, a
 * separate worker) use Trino; a DuckDB file belongs to the one process that opened it.
 *
 * Hardening, applied when the file is opened: file-system access from SQL is off
 * (`enable_external_access=false`) except for configured directories, and the configuration is
 * locked so a statement cannot turn it back on. A `scratch` schema exists in every database.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  DuckDBConnection,
  DuckDBInstance,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  StatementType,
  arrayFromArrayValue,
  arrayFromListValue,
  objectFromStructValue,
  type DuckDBDataChunk,
  type DuckDBResult,
  type DuckDBType,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';
import { explainTarget, tokenize } from './lexer.js';
import { duckdbVerdict } from './readonly.js';
import { duckdbPlanEstimate } from './explain.js';
import {
  SqlConnectionError,
  SqlEngineError,
  type Classification,
  type ColumnInfo,
  type ColumnMeta,
  type ExplainResult,
  type ExplainType,
  type QueryCursor,
  type Row,
  type SqlEngine,
  type StartOptions,
  type StatementVerdict,
  type TableRef,
} from './types.js';
import { raceSignal } from './run.js';

export interface DuckDbEngineOptions {
  /** Database file; its directory is created when missing. `:memory:` for a throwaway database. */
  path: string;
  /** Directories SQL may read files from (e.g. webhook segments); none by default. */
  allowedDirectories?: readonly string[];
}

// ---------------------------------------------------------------------------
// One instance per file per process

interface SharedInstance {
  key: string;
  instance: DuckDBInstance;
  refs: number;
}
const openFiles = new Map<string, Promise<SharedInstance>>();

async function openInstance(key: string, file: string, allowed: readonly string[]): Promise<SharedInstance> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file);
  } catch (error) {
    const message = errorMessage(error);
    if (/lock/i.test(message)) {
      throw new SqlConnectionError(
        `DuckDB file ${file} is in use by another process (DuckDB allows one process per database file; ` +
          `clustered deployments use Trino): ${message}`,
      );
    }
    throw new SqlConnectionError(`cannot open DuckDB file ${file}: ${message}`);
  }
  const setup = await instance.connect();
  try {
    await setup.run('CREATE SCHEMA IF NOT EXISTS scratch');
    if (allowed.length) {
      const list = allowed.map((d) => `'${withTrailingSlash(path.resolve(d)).replaceAll("'", "''")}'`).join(', ');
      await setup.run(`SET allowed_directories = [${list}]`);
    }
    await setup.run('SET enable_external_access = false');
    await setup.run('SET lock_configuration = true');
  } finally {
    setup.closeSync();
  }
  return { key, instance, refs: 0 };
}

function withTrailingSlash(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

async function acquire(file: string, allowed: readonly string[]): Promise<SharedInstance> {
  // Every :memory: engine is its own database.
  const key = file === ':memory:' ? `:memory:${++memoryDatabases}` : path.resolve(file);
  let pending = openFiles.get(key);
  if (!pending) {
    pending = openInstance(key, file, allowed);
    openFiles.set(key, pending);
    pending.catch(() => openFiles.delete(key));
  }
  const shared = await pending;
  shared.refs++;
  return shared;
}
let memoryDatabases = 0;

function release(shared: SharedInstance): void {
  shared.refs--;
  if (shared.refs > 0) return;
  openFiles.delete(shared.key);
  shared.instance.closeSync();
}

// ---------------------------------------------------------------------------
// Values: JSON-ready and close to what Trino's protocol sends

const isSafe = (n: bigint) => n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);

/** Integers as numbers while exact (else strings), decimals as strings, blobs as base64, intervals as text. */
export const jsonValue: DuckDBValueConverter<Json> = (value, type, converter) => {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return typeof value === 'bigint' && isSafe(value) ? Number(value) : String(value);
    case DuckDBTypeId.BLOB: {
      const bytes = (value as { bytes?: Uint8Array }).bytes;
      return bytes ? Buffer.from(bytes).toString('base64') : String(value);
    }
    case DuckDBTypeId.INTERVAL:
      return String(value);
    case DuckDBTypeId.MAP: {
      const entries = (value as { entries?: Array<{ key: unknown; value: unknown }> }).entries ?? [];
      const mapType = type as DuckDBType & { keyType: DuckDBType; valueType: DuckDBType };
      const out: Record<string, Json> = {};
      for (const e of entries) {
        const k = converter(e.key as never, mapType.keyType, converter);
        out[typeof k === 'string' ? k : JSON.stringify(k)] = converter(e.value as never, mapType.valueType, converter);
      }
      return out;
    }
    case DuckDBTypeId.LIST:
      return arrayFromListValue(value, type, converter);
    case DuckDBTypeId.ARRAY:
      return arrayFromArrayValue(value, type, converter);
    case DuckDBTypeId.STRUCT:
      return objectFromStructValue(value, type, converter);
    default:
      return JsonDuckDBValueConverter(value, type, converter);
  }
};

function typeName(type: DuckDBType): string {
  return type.alias ?? type.toString();
}

function chunkRows(chunk: DuckDBDataChunk): Row[] {
  return chunk.convertRows(jsonValue) as Row[];
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** DuckDB's messages start with the error class ("Catalog Error: …"); kept, it is what users search for. */
function engineError(error: unknown): Error {
  if (error instanceof SqlEngineError || error instanceof SqlConnectionError) return error;
  // The binding prefixes parse errors of extractStatements with its own words; DuckDB's text follows.
  return new SqlEngineError(errorMessage(error).replace(/^Failed to extract statements: /, '').trim());
}

const quoteIdent = (s: string) => `"${s.replaceAll('"', '""')}"`;

// ---------------------------------------------------------------------------

export class DuckDbEngine implements SqlEngine {
  readonly kind = 'duckdb' as const;
  readonly defaults: { catalog?: string; schema?: string };
  readonly #file: string;
  readonly #allowed: readonly string[];
  #shared: Promise<SharedInstance> | undefined;
  #closed = false;

  constructor(options: DuckDbEngineOptions) {
    this.#file = options.path;
    this.#allowed = options.allowedDirectories ?? [];
    // DuckDB names an attached file's catalog after the file's stem.
    this.defaults = { catalog: options.path === ':memory:' ? 'memory' : path.basename(options.path).replace(/\.[^.]*$/, ''), schema: 'main' };
  }

  /** The file is opened on first use, so building the toolkit never blocks on it. */
  async #connect(): Promise<DuckDBConnection> {
    if (this.#closed) throw new SqlConnectionError('the DuckDB engine is closed');
    this.#shared ??= acquire(this.#file, this.#allowed);
    const shared = await this.#shared.catch((error: unknown) => {
      this.#shared = undefined;
      throw error;
    });
    return shared.instance.connect();
  }

  async start(sql: string, options: StartOptions): Promise<QueryCursor> {
    const connection = await this.#connect();
    const { signal } = options;
    let closed = false;
    // The DuckDB call in flight, if any: the connection is closed only once it has settled, since
    // closing under a running statement is not safe.
    let inflight: Promise<unknown> = Promise.resolve();
    const track = <T>(p: Promise<T>): Promise<T> => {
      inflight = p.then(
        () => undefined,
        () => undefined,
      );
      return p;
    };
    const close = () => {
      if (closed) return;
      closed = true;
      signal.removeEventListener('abort', stop);
      void inflight.then(() => {
        try {
          connection.closeSync();
        } catch {
          /* already closed */
        }
      });
    };
    // Stops the running statement inside DuckDB; the pending call then rejects with INTERRUPT.
    const stop = () => connection.interrupt();
    signal.addEventListener('abort', stop, { once: true });
    let result: DuckDBResult;
    try {
      if (signal.aborted) throw signal.reason as Error;
      if (options.readOnly) await track(connection.run('BEGIN TRANSACTION READ ONLY'));
      result = await raceSignal(track(connection.stream(sql)), signal);
    } catch (error) {
      close();
      throw signal.aborted ? (signal.reason as Error) : engineError(error);
    }
    const columns: ColumnMeta[] = result.columnNames().map((name, i) => ({ name, type: typeName(result.columnType(i)) }));
    const updateCount = dmlTypes.has(result.statementType) ? safeRowsChanged(result) : undefined;
    return {
      columns,
      ...(updateCount !== undefined ? { updateCount } : {}),
      async nextPage() {
        if (closed) return null;
        try {
          const chunk = await track(result.fetchChunk());
          if (!chunk || chunk.rowCount === 0) {
            close();
            return null;
          }
          return chunkRows(chunk);
        } catch (error) {
          close();
          throw signal.aborted ? (signal.reason as Error) : engineError(error);
        }
      },
      async cancel() {
        if (closed) return;
        connection.interrupt();
        close();
        await inflight;
      },
    };
  }

  /** Runs SQL that the platform itself wrote (DDL, sample data), bypassing classification. */
  async exec(sql: string): Promise<void> {
    const connection = await this.#connect();
    try {
      await connection.run(sql);
    } catch (error) {
      throw engineError(error);
    } finally {
      connection.closeSync();
    }
  }

  async #query(sql: string, values: string[], signal: AbortSignal): Promise<Row[]> {
    const connection = await this.#connect();
    const stop = () => connection.interrupt();
    signal.addEventListener('abort', stop, { once: true });
    const pending = connection.runAndReadAll(sql, values);
    try {
      const reader = await raceSignal(pending, signal);
      return reader.convertRows(jsonValue) as Row[];
    } catch (error) {
      throw signal.aborted ? (signal.reason as Error) : engineError(error);
    } finally {
      signal.removeEventListener('abort', stop);
      // Closed once the statement has settled (interrupted or not).
      void pending.then(
        () => connection.closeSync(),
        () => connection.closeSync(),
      );
    }
  }

  async classify(sql: string): Promise<Classification> {
    const connection = await this.#connect();
    try {
      return { statements: await this.#classifyOn(connection, sql, 0) };
    } catch (error) {
      throw engineError(error);
    } finally {
      connection.closeSync();
    }
  }

  async #classifyOn(connection: DuckDBConnection, sql: string, depth: number): Promise<StatementVerdict[]> {
    const extracted = await connection.extractStatements(sql);
    const verdicts: StatementVerdict[] = [];
    for (let i = 0; i < extracted.count; i++) {
      let type: string;
      try {
        const prepared = await extracted.prepare(i);
        type = StatementType[prepared.statementType] ?? 'UNKNOWN';
        prepared.destroySync();
      } catch (error) {
        // A statement after a write may depend on it (CREATE then INSERT) and cannot be prepared
        // alone: it counts, unclassified. Otherwise the engine's error is the answer.
        if (verdicts.some((v) => !v.read)) {
          verdicts.push({ read: false, kind: 'UNKNOWN', reason: 'depends on an earlier statement' });
          continue;
        }
        throw error;
      }
      let verdict = duckdbVerdict(type);
      if (verdict.kind === 'EXPLAIN') verdict = await this.#explainVerdict(connection, sql, extracted.count, depth);
      verdicts.push(verdict);
    }
    return verdicts;
  }

  /** EXPLAIN [ANALYZE] runs its target (ANALYZE executes it): the target decides. */
  async #explainVerdict(connection: DuckDBConnection, sql: string, count: number, depth: number): Promise<StatementVerdict> {
    if (count !== 1 || depth > 4) return { read: false, kind: 'EXPLAIN', reason: 'EXPLAIN must be the only statement' };
    const tokens = tokenize(sql, 'duckdb');
    const target = explainTarget(tokens);
    const first = target ? tokens[target.index] : undefined;
    if (!target || !first) return { read: false, kind: 'EXPLAIN', reason: 'cannot find the explained statement' };
    const inner = await this.#classifyOn(connection, sql.slice(first.start), depth + 1);
    const verdict = inner.find((v) => !v.read) ?? inner[0];
    if (!verdict || inner.length !== 1) return { read: false, kind: 'EXPLAIN', reason: 'cannot classify the explained statement' };
    return verdict.read ? { read: true, kind: 'EXPLAIN' } : { ...verdict, kind: `EXPLAIN ${verdict.kind}` };
  }

  async explain(sql: string, type: ExplainType, signal: AbortSignal): Promise<ExplainResult> {
    if (type === 'validate') {
      // DuckDB has no EXPLAIN (TYPE VALIDATE): preparing the statement is the validation.
      const connection = await this.#connect();
      try {
        const prepared = await connection.prepare(sql);
        prepared.destroySync();
      } catch (error) {
        throw engineError(error);
      } finally {
        connection.closeSync();
      }
      return { plan: 'Valid: true', type };
    }
    // logical and distributed are the same single-node physical plan; io is the JSON plan with
    // each operator's estimated cardinality.
    const statement = type === 'io' ? `EXPLAIN (FORMAT JSON) ${sql}` : `EXPLAIN ${sql}`;
    const rows = await this.#query(statement, [], signal);
    return { plan: rows.map((r) => String(r[1] ?? '')).join('\n'), type };
  }

  async estimateRows(sql: string, signal: AbortSignal): Promise<number | undefined> {
    const rows = await this.#query(`EXPLAIN (FORMAT JSON) ${sql}`, [], signal);
    return duckdbPlanEstimate(rows.map((r) => String(r[1] ?? '')).join('\n'));
  }

  async referencedTables(sql: string): Promise<TableRef[]> {
    // DuckDB's own parser, serialised: base-table references anywhere in the statement.
    let json: unknown;
    try {
      const rows = await this.#query('SELECT json_serialize_sql($1::VARCHAR)', [sql], AbortSignal.timeout(10_000));
      json = JSON.parse(String(rows[0]?.[0] ?? '{}'));
    } catch {
      return [];
    }
    return duckdbTablesFromAst(json);
  }

  async listCatalogs(signal: AbortSignal): Promise<string[]> {
    const rows = await this.#query('SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY 1', [], signal);
    return rows.map((r) => String(r[0]));
  }

  async listSchemas(catalog: string, signal: AbortSignal): Promise<string[]> {
    const rows = await this.#query(
      `SELECT schema_name FROM information_schema.schemata
       WHERE catalog_name = $1 AND schema_name NOT IN ('information_schema', 'pg_catalog') ORDER BY 1`,
      [catalog],
      signal,
    );
    return rows.map((r) => String(r[0]));
  }

  async listTables(catalog: string, schema: string, signal: AbortSignal): Promise<string[]> {
    const rows = await this.#query(
      'SELECT table_name FROM information_schema.tables WHERE table_catalog = $1 AND table_schema = $2 ORDER BY 1',
      [catalog, schema],
      signal,
    );
    return rows.map((r) => String(r[0]));
  }

  async describeTable(ref: Required<TableRef>, signal: AbortSignal): Promise<ColumnInfo[]> {
    const rows = await this.#query(
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
    const shared = this.#shared;
    this.#shared = undefined;
    const opened = await shared?.catch(() => undefined);
    if (opened) release(opened);
  }
}

/** Statements whose rowsChanged is meaningful (DDL reports 0 even for CREATE TABLE AS). */
const dmlTypes = new Set<StatementType>([StatementType.INSERT, StatementType.UPDATE, StatementType.DELETE, StatementType.MERGE_INTO]);

function safeRowsChanged(result: DuckDBResult): number | undefined {
  try {
    return result.rowsChanged;
  } catch {
    return undefined;
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
