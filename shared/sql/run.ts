/**
 * Running a statement with a row limit and a deadline, the same way on every engine: rows are read
 * page by page until the limit is reached (one more row tells whether there were more), then the
 * rest of the statement is cancelled on the engine. The deadline and the caller's signal both cancel
 * it on the engine too, so nothing keeps running after the tool has answered.
 */
import { SqlCancelledError, SqlTimeoutError, type ColumnMeta, type Row, type SqlEngine } from './types.js';

/** Per-call timeout bounds (spec toolkits.md 1.1): at most 300 s. */
export const MAX_TIMEOUT_MS = 300_000;

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

export interface RunResult {
  columns: ColumnMeta[];
  rows: Row[];
  truncated: boolean;
  updateCount?: number;
  durationMs: number;
}

/** A signal that aborts on the deadline or when `parent` aborts, with the matching error as reason. */
export function deadlineSignal(timeoutMs: number, parent?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onParent = () => controller.abort(new SqlCancelledError());
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
 * Runs `sql` on `engine`, returning at most `limit` rows. `now` is injectable so durations are
 * testable; `readOnly` asks the engine to enforce reads on its side as well.
 */
export async function runWithLimit(
  engine: SqlEngine,
  sql: string,
  opts: { limit: number; timeoutMs: number; signal?: AbortSignal; readOnly?: boolean; now?: () => number },
): Promise<RunResult> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const deadline = deadlineSignal(opts.timeoutMs, opts.signal);
  try {
    const cursor = await raceSignal(engine.start(sql, { signal: deadline.signal, readOnly: opts.readOnly ?? false }), deadline.signal);
    const rows: Row[] = [];
    let truncated = false;
    try {
      for (;;) {
        const page = await raceSignal(cursor.nextPage(), deadline.signal);
        if (page === null) break;
        const room = opts.limit - rows.length;
        if (page.length > room) {
          for (let i = 0; i < room; i++) rows.push(page[i]!);
          truncated = true;
          break;
        }
        for (const row of page) rows.push(row);
        if (rows.length === opts.limit) {
          // Exactly at the limit: one more page (or its end) decides whether there was more.
          const more = await raceSignal(cursor.nextPage(), deadline.signal);
          truncated = more !== null && more.length > 0;
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
      truncated,
      ...(cursor.updateCount !== undefined ? { updateCount: cursor.updateCount } : {}),
      durationMs: Math.max(0, Math.round(now() - started)),
    };
  } finally {
    deadline.dispose();
  }
}
