/**
 * A source's rate limit (document 3: `rate_limit_per_minute` and `rate_limit_burst`, applied to the
 * source, not to a client address) as a token bucket: it refills at the per-minute rate and holds
 * at most the burst. Without a burst it holds one second's worth of requests (at least one).
 * Pure: the caller gives the time.
 */

export interface RateLimit {
  perMinute: number;
  burst?: number | undefined;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export class TokenBucket {
  #tokens: number;
  #at: number;

  constructor(
    private limit: RateLimit,
    nowMs: number,
  ) {
    this.#tokens = capacityOf(limit);
    this.#at = nowMs;
  }

  /** A changed limit takes effect from now; the tokens held stay, up to the new capacity. */
  set settings(limit: RateLimit) {
    this.limit = limit;
    this.#tokens = Math.min(this.#tokens, capacityOf(limit));
  }

  /** Takes one request's token, leaving at least `keep` tokens, or says how long until one is there. */
  take(nowMs: number, keep = 0): RateDecision {
    if (this.has(nowMs, keep)) {
      this.#tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 + keep - this.#tokens) / (this.limit.perMinute / 60_000) / 1000)) };
  }

  /** Whether a token is there now (refilled up to now) beyond the `keep` ones, without taking it. */
  has(nowMs: number, keep = 0): boolean {
    this.#tokens = Math.min(capacityOf(this.limit), this.#tokens + Math.max(0, nowMs - this.#at) * (this.limit.perMinute / 60_000));
    this.#at = Math.max(this.#at, nowMs);
    return this.#tokens >= 1 + keep;
  }

  /** Returns a token taken for a request that then did not go ahead (never past the capacity). */
  giveBack(): void {
    this.#tokens = Math.min(capacityOf(this.limit), this.#tokens + 1);
  }
}

/** The most requests the bucket lets through at once. */
export function capacityOf(limit: RateLimit): number {
  return limit.burst ?? Math.max(1, Math.ceil(limit.perMinute / 60));
}

/**
 * Token buckets by key (a source, an endpoint, a caller), each under the limit its latest take
 * gives (a changed limit takes effect from now). At most `maxKeys` are kept: the least recently
 * used is forgotten first, and a forgotten bucket starts full again.
 */
export class KeyedTokenBuckets {
  /** Insertion order is use order: the first entry is the least recently used. */
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(private readonly maxKeys: number) {}

  /** One token of the bucket under `key`, leaving at least `keep` tokens in it. */
  take(key: string, limit: RateLimit, nowMs: number, keep = 0): RateDecision {
    let bucket = this.#buckets.get(key);
    if (bucket) {
      this.#buckets.delete(key);
      bucket.settings = limit;
    } else {
      bucket = new TokenBucket(limit, nowMs);
    }
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > this.maxKeys) this.#buckets.delete(this.#buckets.keys().next().value!);
    return bucket.take(nowMs, keep);
  }

  /** Whether `take` would let a request through now, without taking a token (a bucket not kept is full). */
  has(key: string, limit: RateLimit, nowMs: number): boolean {
    const bucket = this.#buckets.get(key);
    if (!bucket) return true;
    bucket.settings = limit;
    return bucket.has(nowMs);
  }

  /** Returns a token `take` gave under `key` (nothing when the bucket was forgotten since: it starts full). */
  giveBack(key: string): void {
    this.#buckets.get(key)?.giveBack();
  }

  get size(): number {
    return this.#buckets.size;
  }
}
