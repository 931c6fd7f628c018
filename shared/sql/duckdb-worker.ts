/**
 * The DuckDB engine process (forked by duckdb-supervisor.ts): it owns one database file, so a fatal
 * fault inside DuckDB (a C++ exception escaping the binding aborts the process) costs this process,
 * never the api. It answers the requests of duckdb-protocol.ts, each on its own DuckDB connection so
 * interrupting one never touches another.
 *
 * Hardening, applied when the file is opened, before `lock_configuration`: memory, threads and the
 * spill directory are bounded; extensions are never installed or autoloaded; SQL file access is off
 * except under the configured directories (and the platform's storage, which only the platform's
 * own views read: a caller's SQL naming it is refused like the engine's own files). Every statement a caller sends passes the policy of
 * duckdb-policy.ts before DuckDB prepares it, and a statement that changes data may not name the
 * platform's objects (classify). Errors and result values leave without the server's paths.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBConnection, DuckDBInstance, ResultReturnType, StatementType, type DuckDBDataChunk, type DuckDBExtractedStatements, type DuckDBResult } from '@duckdb/node-api';
import { deriveRefusals, platformObjectRefusal, policyRefusal, privatePathScrubber, scrubPaths, type PrivatePaths, type Refusals } from './duckdb-policy.js';
import { copySubquery, parquetCopy } from './duckdb-copy.js';
import { FIRST_PAGE_ROWS, PAGE_WINDOW, type ParquetFile, type StartedStatement, type WorkerError, type WorkerReply, type WorkerRequest, type WorkerSettings } from './duckdb-protocol.js';
import { chunkRows, jsonValue, textColumns, typeName } from './duckdb-values.js';
import { explainTarget, tokenize, type Token } from './lexer.js';
import { duckdbTypeRefusal, duckdbVerdict } from './readonly.js';
import { jsonSize } from './run.js';
import type { Classification, Row, StatementVerdict } from './types.js';

const settings = JSON.parse(process.argv[2] ?? '{}') as WorkerSettings;

function send(reply: WorkerReply): void {
  if (process.connected) process.send!(reply);
}

class EngineError extends Error {}
/** The input is refused on every connection (Classification.refusal). */
class Refused extends Error {}

/** Statements whose rowsChanged is meaningful (DDL reports 0 even for CREATE TABLE AS). */
const dmlTypes = new Set<StatementType>([StatementType.INSERT, StatementType.UPDATE, StatementType.DELETE, StatementType.MERGE_INTO]);

const quoteList = (dirs: readonly string[]) => dirs.map((d) => `'${(d.endsWith(path.sep) ? d : d + path.sep).replaceAll("'", "''")}'`).join(', ');

interface Running {
  connection?: DuckDBConnection;
  stopped: boolean;
  /** Pages a started statement may still send before the api asks for more (PAGE_WINDOW). */
  credits: number;
  /** Wakes a statement waiting for credit (a `more`, or an interrupt). */
  wake?: () => void;
}

class Engine {
  /** The requests in flight (registered before their first await, so an interrupt always finds them). */
  readonly #running = new Map<number, Running>();
  readonly #scrub: readonly string[];
  /** A caller's result values without the engine's files or the platform's storage. */
  readonly #scrubValue: (value: unknown) => unknown;
  #closed = false;

  constructor(
    readonly instance: DuckDBInstance,
    readonly refusals: Refusals,
    readonly paths: PrivatePaths,
  ) {
    const file = settings.file === ':memory:' ? [] : [settings.file, path.dirname(settings.file)];
    this.#scrubValue = privatePathScrubber(paths.prefixes);
    this.#scrub = [...file, settings.tempDirectory, settings.exportDirectory, ...settings.allowedDirectories, ...settings.platformDirectories, paths.home, paths.cwd, process.execPath];
  }

  static async open(): Promise<Engine> {
    const { file } = settings;
    const name = file === ':memory:' ? file : path.basename(file);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(file, {
        memory_limit: `${settings.memoryLimit}B`,
        threads: String(settings.threads),
        temp_directory: settings.tempDirectory,
        max_temp_directory_size: `${settings.maxTempDirectorySize}B`,
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
      });
    } catch (error) {
      const message = errorMessage(error);
      if (/lock/i.test(message)) {
        throw new EngineError(`DuckDB file ${name} is in use by another process (DuckDB allows one process per database file; clustered deployments use Trino)`);
      }
      throw new EngineError(`cannot open DuckDB file ${name}: ${scrubPaths(message, [file, path.dirname(file), os.homedir()])}`);
    }
    const setup = await instance.connect();
    try {
      const functions = await setup.runAndReadAll('SELECT function_name, function_type, has_side_effects, macro_definition FROM duckdb_functions()');
      const views = await setup.runAndReadAll('SELECT view_name, sql FROM duckdb_views() WHERE internal');
      const refusals = deriveRefusals(
        functions.getRowsJS().map(([name, type, sideEffects, definition]) => ({
          name: String(name),
          type: String(type),
          sideEffects: sideEffects === true,
          definition: typeof definition === 'string' ? definition : null,
        })),
        views.getRowsJS().map(([name, sql]) => ({ name: String(name), sql: String(sql ?? '') })),
      );
      await setup.run('CREATE SCHEMA IF NOT EXISTS scratch');
      // Trino's json_extract_scalar, so the same SQL reads webhook payloads on both engines: a
      // scalar at the path as varchar, NULL for an object, an array or nothing.
      // Replaced on every open, so whatever the file held under that name is the platform's again
      // (callers may not touch it: PLATFORM_MACROS).
      await setup.run(
        "CREATE OR REPLACE MACRO json_extract_scalar(json, path) AS CASE WHEN json_type(json, path) IN ('OBJECT', 'ARRAY') THEN NULL ELSE json_extract_string(json, path) END",
      );
      // Whatever an export left when its api went away is of no use to anyone now.
      fs.rmSync(settings.exportDirectory, { recursive: true, force: true });
      fs.mkdirSync(settings.exportDirectory, { recursive: true });
      const readable = [...settings.allowedDirectories, ...settings.platformDirectories, settings.exportDirectory];
      if (readable.length) await setup.run(`SET allowed_directories = [${quoteList(readable)}]`);
      await setup.run('SET enable_external_access = false');
      await setup.run('SET lock_configuration = true');
      const prefixes = [
        ...(file === ':memory:' ? [] : [file]),
        ...(settings.tempDirectory ? [settings.tempDirectory] : []),
        settings.exportDirectory,
        ...settings.platformDirectories,
      ];
      return new Engine(instance, refusals, { prefixes, cwd: process.cwd(), home: os.homedir() });
    } finally {
      setup.closeSync();
    }
  }

  error(error: unknown): WorkerError {
    // The binding prefixes parse errors of extractStatements with its own words; DuckDB's text follows.
    const message = errorMessage(error).replace(/^Failed to extract statements: /, '').trim();
    return { kind: 'engine', message: scrubPaths(message, this.#scrub) };
  }

  /** Runs request `id`'s work on its own connection, which `interrupt(id)` stops. */
  async run<T>(id: number, work: (connection: DuckDBConnection, entry: Running) => Promise<T>): Promise<T> {
    const entry: Running = { stopped: false, credits: PAGE_WINDOW };
    this.#running.set(id, entry);
    try {
      entry.connection = await this.instance.connect();
      // An interrupt before the statement starts would be forgotten by DuckDB: check it here.
      if (entry.stopped) throw new EngineError('the statement was cancelled');
      return await work(entry.connection, entry);
    } finally {
      this.#running.delete(id);
      // Stops the rest of a statement we stopped reading (row limit, byte budget) before closing.
      entry.connection?.interrupt();
      entry.connection?.closeSync();
    }
  }

  interrupt(target: number): void {
    const entry = this.#running.get(target);
    if (!entry) return;
    entry.stopped = true;
    entry.connection?.interrupt();
    entry.wake?.();
  }

  /** The api consumed a page of `target`: one more may go. */
  more(target: number): void {
    const entry = this.#running.get(target);
    if (!entry) return;
    entry.credits++;
    entry.wake?.();
  }

  /** Sends a page once the api has room for it (false: the statement was stopped meanwhile). */
  async #sendPage(id: number, entry: Running, page: Row[]): Promise<boolean> {
    while (entry.credits === 0 && !entry.stopped) await new Promise<void>((resolve) => (entry.wake = resolve));
    entry.wake = undefined;
    if (entry.stopped) return false;
    entry.credits--;
    send({ id, page });
    return true;
  }

  /**
   * Tokens of a caller's SQL (empty when there is no statement), throwing `Refused` when the policy
   * refuses them; undefined when only DuckDB can read it (an unterminated literal).
   */
  #check(sql: string): Token[] | undefined {
    let tokens: Token[];
    try {
      tokens = tokenize(sql, 'duckdb');
    } catch {
      return undefined;
    }
    if (tokens.every((t) => t.type === 'punct' && t.text === ';')) return [];
    const refusal = policyRefusal(tokens, this.refusals, this.paths);
    if (refusal) throw new Refused(refusal);
    return tokens;
  }

  async classify(id: number, sql: string): Promise<Classification> {
    let tokens: Token[] | undefined;
    try {
      tokens = this.#check(sql);
    } catch (error) {
      if (error instanceof Refused) return { statements: [], count: 1, refusal: error.message };
      throw error;
    }
    // DuckDB's parser calls empty input an "Error in native callback"; it is no statement.
    if (tokens?.length === 0) return { statements: [], count: 0 };
    return this.run(id, async (connection) => {
      const extracted = await connection.extractStatements(sql);
      // DuckDB read what our lexer could not (an unterminated literal): nothing is decided on it.
      if (!tokens) throw new EngineError('cannot classify the statement: unterminated string, identifier or comment');
      try {
        const statements = await this.#verdicts(connection, extracted, sql, 0);
        const refusal = statements.some((s) => !s.read) ? platformObjectRefusal(tokens, settings.platformSchemas) : undefined;
        return { statements, count: extracted.count, ...(refusal ? { refusal } : {}) };
      } catch (error) {
        if (error instanceof Refused) return { statements: [], count: extracted.count, refusal: error.message };
        throw error;
      }
    });
  }

  /** Verdicts of the first two statements: a third changes nothing, as more than one is refused. */
  async #verdicts(connection: DuckDBConnection, extracted: DuckDBExtractedStatements, sql: string, depth: number): Promise<StatementVerdict[]> {
    const verdicts: StatementVerdict[] = [];
    for (let i = 0; i < Math.min(extracted.count, 2); i++) {
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
      const refusal = duckdbTypeRefusal(type);
      if (refusal) throw new Refused(refusal);
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
    const inner = await this.#verdicts(connection, await connection.extractStatements(sql.slice(first.start)), sql.slice(first.start), depth + 1);
    const verdict = inner.find((v) => !v.read) ?? inner[0];
    if (!verdict || inner.length !== 1) return { read: false, kind: 'EXPLAIN', reason: 'cannot classify the explained statement' };
    return verdict.read ? { read: true, kind: 'EXPLAIN' } : { ...verdict, kind: `EXPLAIN ${verdict.kind}` };
  }

  /**
   * Runs a caller's statement and pushes its rows until they end, `maxRows` were sent, or the next
   * row would pass `maxBytes` (then `budgetReached`): nothing larger ever crosses to the api.
   */
  async start(req: Extract<WorkerRequest, { op: 'start' }>): Promise<void> {
    let tokens: Token[] | undefined;
    try {
      tokens = this.#check(req.sql);
    } catch (error) {
      throw error instanceof Refused ? new EngineError(error.message) : error;
    }
    if (tokens?.length === 0) throw new EngineError('no statement to run');
    await this.run(req.id, async (connection, entry) => {
      if (req.readOnly) await connection.run('BEGIN TRANSACTION READ ONLY');
      if (entry.stopped) throw new EngineError('the statement was cancelled');
      // A caller reading everything gets a materialized result: its memory spills, never the api's.
      const result = req.complete ? await connection.run(req.sql) : await connection.stream(req.sql);
      const started: StartedStatement = {
        columns: result.columnNames().map((name, i) => ({ name, type: typeName(result.columnType(i)) })),
        ...updateCount(result),
      };
      send({ id: req.id, ok: true, value: started });
      // Only columns that may hold text can carry a path (numbers, dates, decimals … cannot).
      const text = textColumns(Array.from({ length: result.columnCount }, (_, i) => result.columnType(i)));
      // DuckDB makes the next chunk on its threads while this one is converted and sent; the
      // connection is closed only once that fetch is over (run's finally), whichever way we leave.
      let next: Promise<DuckDBDataChunk | null> | undefined;
      try {
        let rows = 0;
        let bytes = 0;
        next = result.fetchChunk();
        while (rows < req.maxRows && !entry.stopped) {
          const chunk = await next;
          next = undefined;
          const read = chunk ? chunkRows(chunk) : undefined;
          if (!read || read.count === 0) {
            assertFinished(result, rows);
            break;
          }
          if (rows + read.count < req.maxRows) next = result.fetchChunk();
          // The first chunk goes in two pages, so the reader starts on a result's first rows sooner.
          const pageRows = rows === 0 ? FIRST_PAGE_ROWS : Number.POSITIVE_INFINITY;
          let page: Row[] = [];
          for (let r = 0; r < read.count && rows < req.maxRows; r++, rows++) {
            if (page.length === pageRows) {
              if (!(await this.#sendPage(req.id, entry, page))) throw new EngineError('the statement was cancelled');
              page = [];
            }
            const row = read.row(r);
            for (const c of text) row[c] = this.#scrubValue(row[c]);
            bytes += jsonSize(row);
            if (bytes > req.maxBytes) {
              if (page.length && !(await this.#sendPage(req.id, entry, page))) throw new EngineError('the statement was cancelled');
              send({ id: req.id, end: true, budgetReached: true });
              return;
            }
            page.push(row);
          }
          if (!(await this.#sendPage(req.id, entry, page))) throw new EngineError('the statement was cancelled');
        }
        send({ id: req.id, end: true, budgetReached: false });
      } finally {
        // A fetch still running when we stop early: interrupted, then waited for (its outcome is nobody's).
        if (next) {
          connection.interrupt();
          await next.catch(() => undefined);
        }
      }
    });
  }

  /**
   * Writes a caller's query as a Parquet file in the export directory (duckdb-copy.ts says how its
   * text is kept inside the COPY). The file's size is watched while DuckDB writes it: past
   * `maxBytes` the statement is interrupted and the file removed, so one export holds at most
   * about that much disk (plus what one watch interval lets DuckDB write).
   */
  async copy(req: Extract<WorkerRequest, { op: 'copy' }>): Promise<ParquetFile> {
    const tokens = this.#check(req.sql);
    if (!tokens) throw new EngineError('cannot read the statement: unterminated string, identifier or comment');
    const subquery = copySubquery(tokens, req.sql);
    if ('refusal' in subquery) throw new EngineError(subquery.refusal);
    const file = path.join(settings.exportDirectory, `${randomUUID()}.parquet`);
    return this.run(req.id, async (connection, entry) => {
      const extracted = await connection.extractStatements(subquery.body);
      const prepared = extracted.count === 1 ? await extracted.prepare(0) : undefined;
      const type = prepared?.statementType;
      prepared?.destroySync();
      if (type !== StatementType.SELECT) throw new EngineError('sql_export exports one query (SELECT)');
      await connection.run('BEGIN TRANSACTION READ ONLY');
      let tooLarge = false;
      const watch = setInterval(() => {
        fs.stat(file, (error, stat) => {
          if (error || stat.size <= req.maxBytes || tooLarge) return;
          tooLarge = true;
          this.interrupt(req.id);
        });
      }, 100);
      try {
        if (entry.stopped) throw new EngineError('the statement was cancelled');
        const result = await connection.run(parquetCopy(subquery.body, file));
        if (tooLarge) throw new EngineError('too large');
        return { file, rows: Number(result.rowsChanged) };
      } catch (error) {
        fs.rmSync(file, { force: true });
        if (tooLarge) throw new EngineError(`the Parquet file grew past ${req.maxBytes} bytes, the most a resource may hold; nothing was exported`);
        throw error;
      } finally {
        clearInterval(watch);
      }
    });
  }

  /** Platform SQL (metadata, EXPLAIN of a classified statement): all rows. */
  query(id: number, sql: string, params: string[]): Promise<Row[]> {
    return this.run(id, async (connection) => (await connection.runAndReadAll(sql, params)).convertRows(jsonValue) as Row[]);
  }

  /** Platform SQL that returns nothing (DDL, sample data); preparing for `validate`. */
  exec(id: number, sql: string, prepareOnly: boolean): Promise<void> {
    return this.run(id, async (connection) => {
      if (prepareOnly) (await connection.prepare(sql)).destroySync();
      else await connection.run(sql);
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const id of [...this.#running.keys()]) this.interrupt(id);
    this.instance.closeSync();
    // No export outlives its engine: the directory goes with it (made again on the next open).
    fs.rmSync(settings.exportDirectory, { recursive: true, force: true });
  }
}

/**
 * A streaming result that fails midway ends like a finished one: the binding's fetchChunk answers
 * an empty chunk and does not expose the result's error. DuckDB's C API does mark the result: its
 * return type becomes INVALID once it holds an error (duckdb_result_return_type), so an ending is
 * a completion only while the type stays valid. The engine's message itself is out of reach.
 */
function assertFinished(result: DuckDBResult, rows: number): void {
  if (result.returnType === ResultReturnType.INVALID) {
    throw new EngineError(`the statement failed after its first ${rows} rows (DuckDB's client binding does not pass on the engine's message for an error midway through a result); no partial result is returned`);
  }
}

function updateCount(result: DuckDBResult): { updateCount?: number } {
  if (!dmlTypes.has(result.statementType)) return {};
  try {
    return { updateCount: result.rowsChanged };
  } catch {
    return {};
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function handle(engine: Engine, req: WorkerRequest): Promise<void> {
  try {
    switch (req.op) {
      case 'classify':
        return send({ id: req.id, ok: true, value: await engine.classify(req.id, req.sql) });
      case 'start':
        return await engine.start(req);
      case 'copy':
        return send({ id: req.id, ok: true, value: await engine.copy(req) });
      case 'query':
        return send({ id: req.id, ok: true, value: await engine.query(req.id, req.sql, req.params) });
      case 'exec':
      case 'prepare':
        await engine.exec(req.id, req.sql, req.op === 'prepare');
        return send({ id: req.id, ok: true });
      case 'more':
        return engine.more(req.target);
      case 'interrupt':
        return engine.interrupt(req.target);
      case 'close':
        engine.close();
        process.disconnect();
        return;
    }
  } catch (error) {
    send({ id: req.id, error: error instanceof EngineError ? { kind: 'engine', message: error.message } : engine.error(error) });
  }
}

async function main(): Promise<void> {
  let engine: Engine | undefined;
  // The api went away (or closed us), even while we were still opening: release the file and go,
  // so no engine process outlives its api.
  process.on('disconnect', () => {
    engine?.close();
    process.exit(0);
  });
  try {
    engine = await Engine.open();
  } catch (error) {
    const message = error instanceof EngineError ? error.message : scrubPaths(errorMessage(error), [settings.file, path.dirname(settings.file), os.homedir()]);
    send({ ready: false, error: { kind: 'connection', message } });
    process.disconnect();
    return;
  }
  const opened = engine;
  process.on('message', (req: WorkerRequest) => void handle(opened, req));
  send({ ready: true });
}

void main();
