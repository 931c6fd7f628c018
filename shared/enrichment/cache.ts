/**
 * The provider lookup cache (`semantic.cache.enabled` / `ttl`): answers kept for `ttl`, at most
 * `maxEntries` of them (the oldest inserted goes first), so a caller naming endless distinct
 * tables cannot grow it without bound. Failures are not kept: the next call asks again.
 *
 * Concurrent lookups of one key share one request, which runs under the cache's own signal, not
 * any caller's: a caller that gives up (its signal aborts) stops waiting alone, and the request is
 * cancelled only once every caller waiting for it has gone.
 */
import { raceSignal } from '../sql/index.js';

export interface LookupCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds since the epoch (tests inject one). */
  now?: () => number;
}

/** One shared request and the callers still waiting for it. */
interface Flight<V> {
  answer: Promise<V>;
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

export class LookupCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  readonly #pending = new Map<string, Flight<V>>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(opts: LookupCacheOptions) {
    this.#ttlMs = opts.ttlMs;
    this.#maxEntries = opts.maxEntries;
    this.#now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The cached answer for `key`, or `load()`'s (stored once it resolves). `signal` is this
   * caller's: when it aborts, this call rejects with its reason; `load` gets the shared request's
   * signal. A caller without one waits until the request settles (and so keeps it running).
   */
  async get(key: string, load: (signal: AbortSignal) => Promise<V>, signal?: AbortSignal): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > this.#now()) return hit.value;
    if (hit) this.#entries.delete(key);
    signal?.throwIfAborted();
    const flight = this.#pending.get(key) ?? this.#start(key, load);
    flight.waiters++;
    try {
      return await (signal ? raceSignal(flight.answer, signal) : flight.answer);
    } finally {
      flight.waiters--;
      if (flight.waiters === 0 && !flight.settled) {
        flight.controller.abort(signal?.reason);
        this.#forget(key, flight);
      }
    }
  }

  #start(key: string, load: (signal: AbortSignal) => Promise<V>): Flight<V> {
    const controller = new AbortController();
    const settle = () => {
      flight.settled = true;
      this.#forget(key, flight);
    };
    const answer = load(controller.signal).then(
      (value) => {
        settle();
        this.#store(key, value);
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
    // Every waiter may have gone before it fails: nobody else reads the failure.
    answer.catch(() => undefined);
    const flight: Flight<V> = { answer, controller, waiters: 0, settled: false };
    this.#pending.set(key, flight);
    return flight;
  }

  /** Drops the flight from the pending ones, unless a newer flight for the key took its place. */
  #forget(key: string, flight: Flight<V>): void {
    if (this.#pending.get(key) === flight) this.#pending.delete(key);
  }

  #store(key: string, value: V): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, expires: this.#now() + this.#ttlMs });
  }
}
