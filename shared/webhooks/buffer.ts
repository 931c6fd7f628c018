/**
 * One source's events on one replica between their request and their segment (spec document 3,
 * "Inbound webhooks" and the handling order): a group commit. Requests append their events and
 * wait; a flush writes every held event as one gzipped JSON-lines segment per window, registers
 * windows new to this replica, and only then answers the requests whose events it wrote.
 *
 * When a flush starts: at once (the next turn of the event loop, so requests parsed together share
 * it) when no segment of this source is being written — a sender never waits for a timer while the
 * store is idle, and one that waits for each answer before sending again is not held to one event
 * per interval; else when flush_max_events or flush_max_bytes are held, or flush_max_interval_ms
 * after the first event held, whichever comes first (a slow write does not hold the events behind
 * it longer than that); else right after the write in flight lands. Segments are therefore as
 * frequent as the store is fast under light load and as large as the limits allow under heavy load.
 *
 * A request is never answered for events that are not in storage: a failed or late write answers
 * its requests with WriteFailed (503, Retry-After 5), and what this replica held when it died it
 * answered nobody for.
 */
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { segmentKey, segmentLineParts, tableTimestamp, windowOf, type Window, type WindowLength, type WebhookRow } from './layout.js';

export interface BufferSettings {
  flushMaxEvents: number;
  flushMaxIntervalMs: number;
  flushMaxBytes: number;
  /** Events held (waiting or being written) at most; more is BufferFull (503, Retry-After 1). */
  bufferLimit: number;
}

/** A segment to write: its key in the platform's storage, its gzipped lines, its window. */
export interface Segment {
  key: string;
  body: Uint8Array;
  window: Window;
  events: number;
  /** When it was written: its events' landed_at. */
  landedAtMs: number;
}

export interface SourceBufferDeps {
  source: string;
  /** This replica's id and start time: segment names are `{replica}-{start}-{sequence}`. */
  replica: string;
  startMs: number;
  /** The next segment number of this replica; default: this buffer's own count from 1. */
  nextSequence?(): number;
  /**
   * Writes one segment; must reject once `signal` aborts (the write timeout). Answers the window's
   * raw generation (WebhookWindows.landed), or undefined when nothing is to be registered.
   */
  write(segment: Segment, signal: AbortSignal): Promise<number | undefined>;
  /**
   * Registers a window's raw partition; called after a segment once per window and raw generation
   * per replica (retention unregisters the partition when it removes the window's segments).
   */
  registerWindow(window: Window): Promise<void>;
  writeTimeoutMs: number;
  now?: () => number;
  /** Held events changed (the webhook_buffer_events gauge). */
  onHeld?(events: number): void;
  /** A segment was written (webhook_segments_written_total). */
  onSegment?(segment: Segment): void;
}

/** The buffer cannot take the events now (503, Retry-After 1). */
export class BufferFullError extends Error {
  override readonly name = 'BufferFullError';
}

/** The segment holding the events was not written within the write timeout, or failed (503, Retry-After 5). */
export class WriteFailedError extends Error {
  override readonly name = 'WriteFailedError';
}

interface Held {
  window: Window;
  /** The row's JSON line around its landed_at (layout.ts segmentLineParts). */
  line: [before: string, after: string];
}

const landedAtLength = tableTimestamp(0).length;

/**
 * Compresses on libuv's thread pool: a flush of flush_max_bytes (8 MiB by default) would hold the
 * event loop, and every request arriving meanwhile, for a hundred milliseconds or more.
 */
const gzip = promisify(gzipCallback);
/** Window registrations a buffer remembers before it starts afresh. */
const MAX_REGISTRATIONS_KEPT = 10_000;

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

export class SourceBuffer {
  #settings: BufferSettings;
  #pending: Held[] = [];
  #pendingBytes = 0;
  #waiters: Waiter[] = [];
  #writing = 0;
  readonly #flushing = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #scheduled = false;
  #sequence = 0;
  readonly #nextSequence: () => number;
  readonly #registered = new Set<string>();
  #lastWindow: Window | undefined;
  readonly #now: () => number;

  constructor(
    readonly deps: SourceBufferDeps,
    settings: BufferSettings,
  ) {
    this.#settings = settings;
    this.#now = deps.now ?? Date.now;
    this.#nextSequence = deps.nextSequence?.bind(deps) ?? (() => ++this.#sequence);
  }

  /** Takes effect for the next flush (a source's settings changed). */
  set settings(settings: BufferSettings) {
    this.#settings = settings;
  }

  /** Events held on this replica: waiting for a flush or being written. */
  get held(): number {
    return this.#pending.length + this.#writing;
  }

  /**
   * Holds `rows` (received in windows of `windowMinutes`) and resolves once all of them are in
   * written segments. Throws BufferFull at once when they do not fit.
   */
  append(rows: readonly WebhookRow[], windowMinutes: WindowLength): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    if (this.held + rows.length > this.#settings.bufferLimit) {
      return Promise.reject(new BufferFullError(`the buffer of source ${this.deps.source} holds ${this.held} of ${this.#settings.bufferLimit} events`));
    }
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    const wasEmpty = this.#pending.length === 0;
    for (const row of rows) {
      // The line is finished at flush time with landed_at, a timestamp of fixed length.
      const line = segmentLineParts(row, this.deps.replica);
      this.#pending.push({ window: this.#windowOf(row.receivedAtMs, windowMinutes), line });
      this.#pendingBytes += line[0].length + line[1].length + landedAtLength + 1;
    }
    this.deps.onHeld?.(this.held);
    const full = this.#pending.length >= this.#settings.flushMaxEvents || this.#pendingBytes >= this.#settings.flushMaxBytes;
    if (full || this.#flushing.size === 0) this.#flushSoon();
    else if (wasEmpty) this.#timer = setTimeout(() => this.#flushNow(), this.#settings.flushMaxIntervalMs);
    return done;
  }

  /** The window `atMs` falls in: the last one found, while events keep falling in it. */
  #windowOf(atMs: number, minutes: WindowLength): Window {
    const last = this.#lastWindow;
    if (last && atMs >= last.startMs && atMs < last.endMs && last.endMs - last.startMs === minutes * 60_000) return last;
    return (this.#lastWindow = windowOf(atMs, minutes));
  }

  /** Writes what is held now (and waits for it); used on shutdown. */
  async drain(): Promise<void> {
    while (this.#pending.length > 0 || this.#flushing.size > 0) {
      this.#flushNow();
      await Promise.all(this.#flushing);
    }
  }

  /** Flushes on the next turn of the event loop: requests whose events arrive in this one join. */
  #flushSoon(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#flushNow();
    });
  }

  #flushNow(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const flush = this.#flush().finally(() => {
      this.#flushing.delete(flush);
      // What arrived during the write goes out right after it.
      if (this.#pending.length > 0 && this.#flushing.size === 0) this.#flushSoon();
    });
    this.#flushing.add(flush);
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    const waiters = this.#waiters;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#waiters = [];
    this.#writing += batch.length;
    // A timer of our own rather than AbortSignal.timeout: tests drive it with their clock.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.deps.writeTimeoutMs);
    const { signal } = deadline;
    try {
      const landedAtMs = this.#now();
      const landedAt = tableTimestamp(landedAtMs);
      const byWindow = new Map<string, Held[]>();
      for (const h of batch) {
        const key = `${h.window.dt}/${h.window.hour}/${h.window.minute}`;
        const same = byWindow.get(key);
        if (same) same.push(h);
        else byWindow.set(key, [h]);
      }
      const segments = await Promise.all(
        [...byWindow.values()].map(async (held): Promise<Segment> => {
          const window = held[0]!.window;
          const key = segmentKey(this.deps.source, window, this.deps.replica, this.deps.startMs, this.#nextSequence());
          const lines = held.map((h) => h.line[0] + landedAt + h.line[1]).join('\n') + '\n';
          return { key, body: await gzip(lines), window, events: held.length, landedAtMs };
        }),
      );
      await Promise.all(
        segments.map(async (segment) => {
          signal.throwIfAborted();
          const generation = await this.deps.write(segment, signal);
          this.deps.onSegment?.(segment);
          if (generation === undefined) return;
          const registration = `${segment.window.dt}/${segment.window.hour}/${segment.window.minute}/${generation}`;
          if (!this.#registered.has(registration)) {
            await this.deps.registerWindow(segment.window);
            // Forgetting only costs a repeated (idempotent) registration: bounded, not kept forever.
            if (this.#registered.size >= MAX_REGISTRATIONS_KEPT) this.#registered.clear();
            this.#registered.add(registration);
          }
        }),
      );
      if (signal.aborted) throw new WriteFailedError(`segment not written within ${this.deps.writeTimeoutMs} ms`);
      for (const w of waiters) w.resolve();
    } catch (error) {
      const failure =
        error instanceof WriteFailedError
          ? error
          : signal.aborted
            ? new WriteFailedError(`segment not written within ${this.deps.writeTimeoutMs} ms`)
            : new WriteFailedError(`segment write failed: ${error instanceof Error ? error.message : String(error)}`);
      for (const w of waiters) w.reject(failure);
    } finally {
      clearTimeout(timer);
      this.#writing -= batch.length;
      this.deps.onHeld?.(this.held);
    }
  }
}
