/**
 * The per-replica limits of endpoint requests (spec document 3, "Limits"): `rate_limit` per
 * endpoint and `caller_rate_limit` per signed-in caller of an endpoint, each a token bucket (the
 * webhooks' TokenBucket) holding a minute's worth — up to the limit at once, refilled evenly over
 * the minute — counted on this replica only and never by client address; and the cap of handlers
 * running at once. Pure apart from the memory they hold, which is bounded: the buckets least
 * recently used are forgotten past `maxBuckets` (a forgotten bucket starts full again).
 */
import { KeyedTokenBuckets, type RateDecision } from '../webhooks/index.js';
import { BINDING_LIMITS } from './types.js';

/** Buckets one replica keeps (endpoints and callers together); about 200 bytes each. */
export const MAX_RATE_BUCKETS = 50_000;

export class EndpointRateLimits {
  readonly #buckets: KeyedTokenBuckets;

  constructor(maxBuckets = MAX_RATE_BUCKETS) {
    this.#buckets = new KeyedTokenBuckets(maxBuckets);
  }

  /** One request against the endpoint's rate_limit. */
  endpoint(endpoint: string, perMinute: number, nowMs: number): RateDecision {
    return this.#buckets.take(`endpoint\0${endpoint}`, { perMinute, burst: perMinute }, nowMs);
  }

  /** One request of a signed-in caller (its subject) against the endpoint's caller_rate_limit. */
  caller(endpoint: string, subject: string, perMinute: number, nowMs: number): RateDecision {
    return this.#buckets.take(`caller\0${endpoint}\0${subject}`, { perMinute, burst: perMinute }, nowMs);
  }

  get size(): number {
    return this.#buckets.size;
  }
}

/** The handlers running on this replica; past `max` a request is answered 503 before its script starts. */
export class HandlerSlots {
  #running = 0;

  constructor(readonly max: number = BINDING_LIMITS.concurrentHandlers) {}

  /** Takes a slot, or answers false when all are taken. */
  take(): boolean {
    if (this.#running >= this.max) return false;
    this.#running++;
    return true;
  }

  release(): void {
    this.#running = Math.max(0, this.#running - 1);
  }

  get running(): number {
    return this.#running;
  }
}
