/**
 * The audit log writer: a bounded in-memory queue drained by one background writer in batches
 * (one INSERT per batch). Callers only enqueue; database latency and failures never
 * reach them.
 */
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../logging/index.js';
import type { PlatformConfig } from '../config/index.js';
import { auditRow, type AuditEntry } from './entry.js';
import { insertAuditRows, MAX_ROWS_PER_INSERT, type Queryable } from './store.js';

export type Clock = () => number;
export type QueueFullPolicy = 'drop' | 'block';
/** Why an entry was not written: the queue was full (drop mode), the write failed twice, or the log was closed. */
export type DropReason = 'queue_full' | 'write_failed' | 'closed';

export interface AuditLog {
  /** False for the no-op logger (audit off, or no database): callers may skip building entries. */
  readonly enabled: boolean;
  /** `audit.on_queue_full`. In `block` mode, call `recordAsync` and await it. */
  readonly mode: QueueFullPolicy;
  /** Entries this log discarded so far (any reason); also counted in `platform_audit_dropped_total`. */
  readonly dropped: number;
  /** Entries accepted but not yet written (queued plus the batch being written). */
  readonly pending: number;
  /**
   * Enqueues an entry and returns at once. When the queue is full the entry is dropped and counted,
   * whatever the mode: a synchronous call cannot wait (use `recordAsync` for backpressure).
   */
  record(entry: AuditEntry): void;
  /**
   * `block` mode: resolves once the entry is in the queue, waiting (in arrival order) while the
   * queue is full until a written batch makes room. `drop` mode: same as `record`. Never rejects.
   */
  recordAsync(entry: AuditEntry): Promise<void>;
  /** Writes everything queued so far (and what blocked callers add meanwhile); never rejects. */
  flush(): Promise<void>;
  /** Stops accepting entries (later ones are dropped as `closed`), then flushes. Idempotent; for shutdown. */
  close(): Promise<void>;
}

export interface CreateAuditLogOptions {
  config: { audit: PlatformConfig['audit'] };
  /** The platform database. Without it the log is a no-op. */
  db?: Queryable;
  log: Pick<Logger, 'warn' | 'error'>;
  /** `platform_audit_dropped_total` is registered on this registry. */
  metrics?: { registry: Registry };
  /** Stamps entries recorded without `occurredAt`. */
  clock?: Clock;
  /** Rows per INSERT (default 200, at most 1000). A full batch is written at once. */
  batchSize?: number;
  /**
   * A partial batch waits this long from its first record before it is written (default 250 ms),
   * also while full batches are being written: under load the writer sends full batches, each row
   * costing the database about a third less than in the small batches it sent back to back before.
   */
  flushIntervalMs?: number;
  /** Pause before the single retry of a failed write (default 500 ms). */
  retryDelayMs?: number;
}

const droppedMetricName = 'platform_audit_dropped_total';

/** The registry's counter when another audit log already registered it (tests, re-created logs). */
function droppedCounter(registry: Registry | undefined): Counter<'reason'> {
  const existing = registry?.getSingleMetric(droppedMetricName);
  if (existing instanceof Counter) return existing as Counter<'reason'>;
  return new Counter({
    name: droppedMetricName,
    help: 'Audit records discarded, by reason (queue_full | write_failed | closed)',
    labelNames: ['reason'],
    registers: registry ? [registry] : [],
  });
}

/** The logger used when auditing is off: accepts everything, writes nothing, counts nothing. */
export function noopAuditLog(mode: QueueFullPolicy = 'drop'): AuditLog {
  return {
    enabled: false,
    mode,
    dropped: 0,
    pending: 0,
    record() {},
    recordAsync: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

function positiveInt(value: number, what: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${what} must be an integer from 1 to ${max}, got ${value}`);
  return value;
}

interface Waiter {
  entry: AuditEntry;
  resolve: () => void;
}

/** Whether tool calls are to be audited: both switches on (a database is needed as well). */
export function auditsToolCalls(config: { audit: PlatformConfig['audit'] }): boolean {
  return config.audit.enabled && config.audit.log_tool_calls;
}

/**
 * The audit log for this config: a real writer when `audit.enabled` and `audit.log_tool_calls` are
 * both on and a database is given, otherwise the no-op logger. It does not warn about a missing
 * database: the CLI already says so once at startup (spec: "warning logged; no-op audit logger").
 */
export function createAuditLog(opts: CreateAuditLogOptions): AuditLog {
  const { audit } = opts.config;
  const mode: QueueFullPolicy = audit.on_queue_full;
  const db = opts.db;
  if (!db || !auditsToolCalls(opts.config)) return noopAuditLog(mode);

  const log = opts.log;
  const clock = opts.clock ?? Date.now;
  const capacity = positiveInt(audit.queue_size, 'audit.queue_size');
  const batchSize = positiveInt(opts.batchSize ?? 200, 'batchSize', MAX_ROWS_PER_INSERT);
  const flushIntervalMs = opts.flushIntervalMs ?? 250;
  const retryDelayMs = opts.retryDelayMs ?? 500;
  const counter = droppedCounter(opts.metrics?.registry);

  const queue: AuditEntry[] = [];
  /** When each queued entry was queued (performance.now()), in queue order: a partial batch's timer runs from its first. */
  const queuedAt: number[] = [];
  const waiters: Waiter[] = [];
  /** Entries of the batch being written: they still hold memory, so they count against capacity. */
  let inFlight = 0;
  let dropped = 0;
  let closed = false;
  let closing: Promise<void> | undefined;
  let draining: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** One warning per episode of a full queue, not one per dropped entry. */
  let fullWarned = false;

  const pending = () => queue.length + inFlight;

  function drop(reason: DropReason, count = 1): void {
    dropped += count;
    counter.inc({ reason }, count);
  }

  function clearTimer(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
  }

  /** Stamps the time now, so an entry waiting in the queue keeps its call's time. */
  function stamped(entry: AuditEntry): AuditEntry {
    return entry.occurredAt === undefined ? { ...entry, occurredAt: clock() } : entry;
  }

  function schedule(): void {
    if (pending() >= capacity) {
      // A full queue goes now, partial batch and all (or right after the batch being written).
      clearTimer();
      void drain(true);
      return;
    }
    if (queue.length >= batchSize) {
      clearTimer();
      void drain(false);
      return;
    }
    if (timer || draining) return; // the running drain schedules what it leaves when it stops
    timer = setTimeout(
      () => {
        timer = undefined;
        void drain(true);
      },
      Math.max(0, flushIntervalMs - (performance.now() - queuedAt[0]!)),
    );
    // Shutdown calls close(); a pending audit batch must not keep an otherwise finished process alive.
    timer.unref();
  }

  function push(entry: AuditEntry): void {
    queue.push(entry);
    queuedAt.push(performance.now());
  }

  function enqueue(entry: AuditEntry): void {
    push(entry);
    schedule();
  }

  /** Moves blocked callers into the queue, first come first served, while there is room. */
  function admitWaiters(): void {
    while (waiters.length > 0 && pending() < capacity) {
      const waiter = waiters.shift()!;
      push(waiter.entry);
      waiter.resolve();
    }
    if (queue.length > 0) schedule();
  }

  async function write(batch: AuditEntry[]): Promise<void> {
    const now = clock();
    let rows;
    try {
      rows = batch.map((e) => auditRow(e, now));
    } catch (err) {
      // Cannot happen for well-typed entries; never let one bad entry stop the writer.
      log.error({ err: { message: (err as Error).message }, rows: batch.length }, 'audit records could not be prepared; dropped');
      drop('write_failed', batch.length);
      return;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await insertAuditRows(db!, rows);
        fullWarned = false;
        return;
      } catch (err) {
        // The message only: the statement's parameters are the audited values.
        const error = { message: (err as Error).message, code: (err as { code?: string }).code };
        if (attempt >= 2) {
          log.error({ err: error, rows: rows.length }, 'audit write failed twice; records dropped');
          drop('write_failed', rows.length);
          return;
        }
        log.warn({ err: error, rows: rows.length }, 'audit write failed; retrying once');
        await new Promise((r) => setTimeout(r, retryDelayMs));
      }
    }
  }

  /**
   * The single writer: full batches and — when `all` (the interval passed, a full queue, a flush)
   * — every entry queued when it started. Never rejects. A partial batch it leaves (entries that
   * arrived while it wrote) waits for its own timer, so a steady stream goes in full batches.
   */
  function drain(all: boolean): Promise<void> {
    if (draining) return draining;
    clearTimer();
    // The loop below always awaits before its `finally`, so `draining` is assigned before it is cleared.
    if (queue.length === 0 || (!all && queue.length < batchSize)) return Promise.resolve();
    let owed = all ? queue.length : 0;
    draining = (async () => {
      try {
        while (queue.length >= batchSize || owed > 0) {
          const batch = queue.splice(0, batchSize);
          queuedAt.splice(0, batch.length);
          owed -= batch.length;
          inFlight = batch.length;
          try {
            await write(batch);
          } finally {
            inFlight = 0;
            admitWaiters();
          }
        }
      } catch (err) {
        log.error({ err: { message: (err as Error).message } }, 'audit writer failed');
      } finally {
        draining = undefined;
        if (queue.length > 0) schedule();
      }
    })();
    return draining;
  }

  function full(): boolean {
    return pending() >= capacity;
  }

  function warnFull(): void {
    if (fullWarned) return;
    fullWarned = true;
    log.warn({ queueSize: capacity, mode }, mode === 'drop' ? 'audit queue full: dropping new audit records' : 'audit queue full: tool calls wait for room');
  }

  function record(entry: AuditEntry): void {
    if (closed) return drop('closed');
    // Waiters go first: a synchronous record must not jump the queue ahead of blocked callers.
    if (full() || waiters.length > 0) {
      warnFull();
      return drop('queue_full');
    }
    enqueue(stamped(entry));
  }

  async function flush(): Promise<void> {
    clearTimer();
    while (queue.length > 0 || draining) await (draining ?? drain(true));
  }

  return {
    enabled: true,
    mode,
    get dropped() {
      return dropped;
    },
    get pending() {
      return pending();
    },
    record,
    recordAsync(entry) {
      if (mode === 'drop' || closed) {
        record(entry);
        return Promise.resolve();
      }
      if (!full() && waiters.length === 0) {
        enqueue(stamped(entry));
        return Promise.resolve();
      }
      warnFull();
      const waiting = new Promise<void>((resolve) => waiters.push({ entry: stamped(entry), resolve }));
      // Room appears only when a batch is written: make sure one is on its way.
      if (queue.length > 0) {
        clearTimer();
        void drain(true);
      }
      return waiting;
    },
    flush,
    close() {
      closed = true;
      closing ??= flush();
      return closing;
    },
  };
}
