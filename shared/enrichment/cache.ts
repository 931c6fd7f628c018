/**
 * The provider lookup cache (`semantic.cache.enabled` / `ttl`): answers kept for `ttl`, at most
 * `maxEntries` of them (the oldest inserted goes first), so a caller naming endless distinct
 * tables cannot grow it without bound. Concurrent lookups of one key share one request. Failures are
 * not kept: the next call asks again.
 */
export interface LookupCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds since the epoch (tests inject one). */
  now?: () => number;
}

export class LookupCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  readonly #pending = new Map<string, Promise<V>>();
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

  /** The cached answer for `key`, or `load()`'s (stored once it resolves). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > this.#now()) return hit.value;
    if (hit) this.#entries.delete(key);
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const loading = load().then(
      (value) => {
        this.#pending.delete(key);
        this.#store(key, value);
        return value;
      },
      (error: unknown) => {
        this.#pending.delete(key);
        throw error;
      },
    );
    this.#pending.set(key, loading);
    return loading;
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
