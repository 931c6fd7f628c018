/**
 * Running a statement with a row limit, a byte budget and a deadline, the same way on every engine:
 * rows are read page by page until the limit is reached (one more row tells whether there were
 * more) or the next row would exceed the budget, then the rest of the statement is cancelled on the
 * engine. The deadline and the caller's signal both cancel it on the engine too, so nothing keeps
 * running after the tool has answered.
 */
import { SqlCancelledError, SqlEngineError, SqlTimeoutError, type ColumnMeta, type Row, type SqlEngine } from './types.js';

/** Per-call timeout bounds (spec toolkits.md 1.1): at most 300 s. */
export const MAX_TIMEOUT_MS = 300_000;

/** Default of `toolkits.sql.<name>.max_result_bytes`: 8 MiB of row values. */
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;

/**
 * A value's size as JSON, estimated without serialising it (cheap enough for every row): strings by
 * length plus quotes, numbers 8, booleans 5, null 4, arrays and objects their parts plus separators.
 */
export function jsonSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      let n = 2;
      if (Array.isArray(value)) for (const v of value) n += jsonSize(v) + 1;
      else for (const [k, v] of Object.entries(value)) n += k.length + 4 + jsonSize(v);
      return n;
    }
    default:
      return 4;
  }
}

/** Effective row limit: none or ≤ 0 means the default; above the maximum is clamped, not rejected. */
export function effectiveLimit(requested: number | undefined, defaultLimit: number, maxLimit: number): number {
  const wanted = requested === undefined || requested <= 0 ? defaultLimit : Math.floor(requested);
  return Math.max(1, Math.min(wanted, maxLimit));
}

/**
 * Effective timeout in ms: none or ≤ 0 means the connection's configured `timeout`; anything above
 * 300 s is clamped to 300 s.
 */
export function effectiveTimeoutMs(requestedSeconds: number | undefined, configuredMs: number): number {
  const wanted = requestedSeconds === undefined || requestedSeconds <= 0 ? configuredMs : requestedSeconds * 1000;
  return Math.max(1, Math.min(wanted, MAX_TIMEOUT_MS));
}

/** Why a result stopped short: the row limit, or the byte budget. */
export type TruncatedReason = 'row_limit' | 'byte_budget';

export interface RunResult<C = undefined> {
  columns: ColumnMeta[];
  rows: Row[];
  truncated: boolean;
  truncatedReason?: TruncatedReason;
  updateCount?: number;
  durationMs: number;
  /** What `collect` made of the rows (of the run that answered). */
  collected: C;
}

/** Takes a result's rows page by page, as they are accepted (within the limit and the budget). */
export interface RowCollector {
  add(rows: readonly Row[]): void;
}

export interface RunOptions<C> {
  limit: number;
  timeoutMs: number;
  maxBytes?: number;
  signal?: AbortSignal;
  readOnly?: boolean;
  now?: () => number;
  /** A collector for each run of the statement, once its columns are known (a rerun starts a new one). */
  collect?: (columns: readonly ColumnMeta[]) => C;
}

/**
 * A signal that aborts on the deadline or when `parent` aborts, with the matching error as reason
 * (a parent that is itself a deadline passes its timeout on).
 */
export function deadlineSignal(timeoutMs: number, parent?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onParent = () => controller.abort(parent?.reason instanceof SqlTimeoutError ? parent.reason : new SqlCancelledError());
  if (parent?.aborted) onParent();
  else parent?.addEventListener('abort', onParent, { once: true });
  const timer = setTimeout(() => controller.abort(new SqlTimeoutError(timeoutMs)), timeoutMs);
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? (signal.reason as Error) : e);
      },
    );
  });
}

/**
 * Engine errors that say nothing about the statement, only about the moment: the whole run is
 * made again (its rows are collected before anything is answered, so nothing was seen). Trino
 * fails a query whose partition was unregistered while it read it — a webhook window moving to
 * its recompacted version, or retention — and the next run reads the catalog as it is now.
 */
const transientErrors = new Set(['HIVE_PARTITION_DROPPED_DURING_QUERY']);
const TRANSIENT_RERUNS = 2;

export function isTransientEngineError(error: unknown): boolean {
  return error instanceof SqlEngineError && transientErrors.has(error.details.errorName ?? '');
}

/**
 * Runs `sql` on `engine`, returning at most `limit` rows and at most `maxBytes` (default 8 MiB) of
 * row values as `jsonSize` counts them. `now` is injectable so durations are testable; `readOnly`
 * asks the engine to enforce reads on its side as well. A read failing with a transient engine
 * error is run again (at most twice, within the same deadline).
 */
export async function runWithLimit<C extends RowCollector | undefined = undefined>(engine: SqlEngine, sql: string, opts: RunOptions<C>): Promise<RunResult<C>> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const deadline = deadlineSignal(opts.timeoutMs, opts.signal);
  try {
    for (let rerun = 0; ; rerun++) {
      try {
        const result = await runOnce(engine, sql, opts, deadline.signal);
        return { ...result, durationMs: Math.max(0, Math.round(now() - started)) };
      } catch (error) {
        if (!(opts.readOnly && rerun < TRANSIENT_RERUNS && isTransientEngineError(error) && !deadline.signal.aborted)) throw error;
      }
    }
  } finally {
    deadline.dispose();
  }
}

async function runOnce<C extends RowCollector | undefined>(engine: SqlEngine, sql: string, opts: RunOptions<C>, signal: AbortSignal): Promise<Omit<RunResult<C>, 'durationMs'>> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const cursor = await raceSignal(engine.start(sql, { signal, readOnly: opts.readOnly ?? false, maxRows: opts.limit + 1, maxBytes }), signal);
  const collected = opts.collect?.(cursor.columns) as C;
  const rows: Row[] = [];
  let reason: TruncatedReason | undefined;
  let bytes = 0;
  try {
    read: for (;;) {
      const page = await raceSignal(cursor.nextPage(), signal);
      if (page === null) {
        if (cursor.budgetReached) reason = 'byte_budget';
        break;
      }
      const first = rows.length;
      for (const row of page) {
        if (rows.length === opts.limit) reason = 'row_limit';
        else if ((bytes += jsonSize(row)) > maxBytes) reason = 'byte_budget';
        else {
          rows.push(row);
          continue;
        }
        break;
      }
      // Collected while the engine makes the next page.
      collected?.add(rows.length - first === page.length ? page : rows.slice(first));
      if (reason) break read;
      if (rows.length === opts.limit) {
        // Exactly at the limit: one more page (or its end) decides whether there was more.
        const more = await raceSignal(cursor.nextPage(), signal);
        if ((more !== null && more.length > 0) || cursor.budgetReached) reason = 'row_limit';
        break;
      }
    }
  } finally {
    // Stops the engine when we stopped reading early, on error or on abort; a no-op once finished.
    await cursor.cancel().catch(() => undefined);
  }
  return {
    columns: [...cursor.columns],
    rows,
    collected,
    truncated: reason !== undefined,
    ...(reason ? { truncatedReason: reason } : {}),
    ...(cursor.updateCount !== undefined ? { updateCount: cursor.updateCount } : {}),
  };
}
