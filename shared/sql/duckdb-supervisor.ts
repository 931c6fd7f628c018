/**
 * The api side of a DuckDB engine process (duckdb-worker.ts): forks it on first use, sends requests
 * over IPC and routes their answers, and restarts it when it dies. A fatal fault inside DuckDB
 * costs only that process: the requests in flight fail with a SqlEngineError, and the next one
 * starts a fresh process (after a growing delay; after `maxRestarts` stops within `windowMs` it is
 * not restarted until the window has moved on, so a crash loop does not spin).
 *
 * Interrupting a request stops its statement inside DuckDB; a request still running `stuckKillMs`
 * after its interrupt is stopped by killing the process (the same as a crash for everyone on it).
 * The process also exits by itself when the api goes away (its IPC channel closes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerError, WorkerReply, WorkerRequest, WorkerSettings } from './duckdb-protocol.js';
import { SqlConnectionError, SqlEngineError, type Row } from './types.js';
import { restartDelay, type RestartPolicy } from '../supervision/index.js';

const defaultRestartPolicy: RestartPolicy = { maxRestarts: 5, windowMs: 60_000, baseDelayMs: 250, maxDelayMs: 4_000 };

/** The engine process's entry: the compiled .js next to this file, or the .ts source run through tsx. */
function workerEntry(): { file: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  const ext = path.extname(self);
  const file = path.join(path.dirname(self), `duckdb-worker${ext}`);
  if (ext !== '.ts') return { file, execArgv: [] };
  // From sources (tsx, vitest) the child needs tsx's loader; this process's own flags may be a test runner's.
  return { file, execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] };
}

/** The environment the engine process gets: enough to run, none of the api's secrets. */
function workerEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TZ', 'LANG', 'LC_ALL', 'TMPDIR', 'SystemRoot'];
  const env: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: '16' };
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  return env;
}

export interface StreamHandlers {
  onPage(rows: Row[]): void;
  onEnd(budgetReached: boolean): void;
  onError(error: Error): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  stream?: StreamHandlers;
  /** The answer arrived (`ok`), streaming may go on. */
  answered: boolean;
  sent: boolean;
  watchdog?: NodeJS.Timeout;
}

/** A request without its id (the supervisor numbers them). */
export type RequestBody = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class EngineProcess {
  readonly #settings: WorkerSettings;
  readonly #policy: RestartPolicy;
  readonly #stuckKillMs: number;
  #child: ChildProcess | undefined;
  #ready: Promise<ChildProcess> | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly #stops: number[] = [];
  #closed = false;

  constructor(settings: WorkerSettings, opts: { restartPolicy?: RestartPolicy; stuckKillMs?: number } = {}) {
    this.#settings = settings;
    this.#policy = opts.restartPolicy ?? defaultRestartPolicy;
    this.#stuckKillMs = opts.stuckKillMs ?? 5_000;
  }

  /** The engine process's pid while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Sends a request. `result` settles with its answer; for `start` the pages then go to `stream`
   * until its end. `id` names it for `interrupt`.
   */
  request<T>(body: RequestBody, stream?: StreamHandlers): { id: number; result: Promise<T> } {
    const id = this.#nextId++;
    const result = new Promise<T>((resolve, reject) => {
      const pending: Pending = { resolve: resolve as (v: unknown) => void, reject, answered: false, sent: false, ...(stream ? { stream } : {}) };
      this.#pending.set(id, pending);
      this.#started().then(
        (child) => {
          if (!this.#pending.has(id)) return; // interrupted before it was sent
          pending.sent = true;
          // A process that died a moment ago cannot answer: fail now rather than wait forever.
          child.send({ ...body, id } as WorkerRequest, (error) => {
            if (error) this.#finish(id, new SqlEngineError('the DuckDB engine stopped before it received the statement; try again'));
          });
        },
        (error: Error) => this.#finish(id, error),
      );
    });
    return { id, result };
  }

  /** The reader consumed a page of the started statement `id`: the engine may send one more (PAGE_WINDOW). */
  more(id: number): void {
    if (!this.#pending.has(id)) return;
    this.#child?.send({ id: this.#nextId++, op: 'more', target: id } satisfies WorkerRequest, () => undefined);
  }

  /** Stops request `id` inside DuckDB; if it is still running `stuckKillMs` later, the process is killed. */
  interrupt(id: number): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    if (!pending.sent) return this.#finish(id, new SqlEngineError('the statement was cancelled'));
    // A closed channel needs no interrupt: the process is gone, and its exit ends the request.
    this.#child?.send({ id: this.#nextId++, op: 'interrupt', target: id } satisfies WorkerRequest, () => undefined);
    pending.watchdog ??= setTimeout(() => {
      if (this.#pending.has(id)) this.#child?.kill('SIGKILL');
    }, this.#stuckKillMs).unref();
  }

  /** Closes the database and ends the process (waiting for it, so the file is free afterwards). */
  async close(): Promise<void> {
    this.#closed = true;
    const child = await this.#ready?.catch(() => undefined);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send({ id: this.#nextId++, op: 'close' } satisfies WorkerRequest, () => undefined);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  #started(): Promise<ChildProcess> {
    if (this.#closed) return Promise.reject(new SqlConnectionError('the DuckDB engine is closed'));
    this.#ready ??= this.#spawn().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #spawn(): Promise<ChildProcess> {
    const delay = restartDelay(this.#stops, Date.now(), this.#policy);
    if (delay === undefined) {
      throw new SqlConnectionError(
        `the DuckDB engine stopped ${this.#policy.maxRestarts} times within ${this.#policy.windowMs / 1000}s and is not restarted for now; try again later`,
      );
    }
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (this.#closed) throw new SqlConnectionError('the DuckDB engine is closed');
    const entry = workerEntry();
    const child = fork(entry.file, [JSON.stringify(this.#settings)], {
      execArgv: entry.execArgv,
      env: workerEnv(),
      serialization: 'json',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.#child = child;
    return new Promise<ChildProcess>((resolve, reject) => {
      let opened = false;
      let refused = false;
      child.on('message', (reply: WorkerReply) => {
        if (!('ready' in reply)) return this.#dispatch(reply);
        if (reply.ready) {
          opened = true;
          resolve(child);
        } else {
          refused = true;
          reject(asError(reply.error));
        }
      });
      child.on('error', (error) => reject(new SqlConnectionError(`cannot start the DuckDB engine: ${error.message}`)));
      child.on('exit', (code, signal) => {
        if (this.#child === child) {
          this.#child = undefined;
          this.#ready = undefined;
        }
        // Gone without being closed: after opening, or while opening without saying why (a crash
        // replaying the WAL counts; a clean "cannot open", e.g. the file's lock, does not).
        const unexpected = !this.#closed && (opened || !refused);
        if (unexpected) {
          const now = Date.now();
          this.#stops.push(now);
          // Only the restart window counts: older stops are forgotten, so a long uptime keeps no trail.
          while (this.#stops.length > 0 && now - this.#stops[0]! >= this.#policy.windowMs) this.#stops.shift();
        }
        reject(new SqlConnectionError(`the DuckDB engine exited while opening (${signal ?? `code ${code}`})`));
        const crash = new SqlEngineError(
          unexpected
            ? `the DuckDB engine stopped unexpectedly (${signal ?? `exit code ${code}`}) while running this statement; it is restarted for the next one`
            : 'the DuckDB engine was closed',
        );
        for (const id of [...this.#pending.keys()]) if (this.#pending.get(id)!.sent) this.#finish(id, crash);
      });
    });
  }

  #dispatch(reply: Exclude<WorkerReply, { ready: boolean }>): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    if ('error' in reply) return this.#finish(reply.id, asError(reply.error));
    if ('page' in reply) return pending.stream?.onPage(reply.page);
    if ('end' in reply) {
      pending.stream?.onEnd(reply.budgetReached);
      return this.#finish(reply.id);
    }
    pending.answered = true;
    pending.resolve(reply.value);
    if (!pending.stream) this.#finish(reply.id);
  }

  /** The request is over: its watchdog stops, and an error goes to whoever still waits. */
  #finish(id: number, error?: Error): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    clearTimeout(pending.watchdog);
    if (!error) return;
    if (pending.answered) pending.stream?.onError(error);
    else pending.reject(error);
  }
}

function asError(e: WorkerError): Error {
  return e.kind === 'connection' ? new SqlConnectionError(e.message) : new SqlEngineError(e.message);
}

export type { ParquetFile, StartedStatement } from './duckdb-protocol.js';
