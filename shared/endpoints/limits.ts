/**
 * The per-replica limits of endpoint requests (spec document 3, "Limits"), each a token bucket (the
 * webhooks' TokenBucket) holding a minute's worth — up to the limit at once, refilled evenly over
 * the minute — counted on this replica only: `rate_limit` per endpoint and `caller_rate_limit` per
 * signed-in caller of an endpoint, taken only by requests that authenticated or passed the bot check
 * (so callers who never pass cannot spend the budget of those who do) and by open reads, which
 * prove nothing and so leave half of it to the others (`keep`), and per endpoint and client
 * network a bucket of the same `rate_limit` for requests refused by authentication or the bot
 * check (so a flood of refusals is bounded where it comes from); and the cap of handlers running at
 * once. Pure apart from the memory they hold, which is bounded: the buckets least recently used are
 * forgotten past `maxBuckets` (a forgotten bucket starts full again), the refusals' apart, so a
 * caller changing addresses never pushes out the endpoints' and callers' buckets.
 */
import { clientNetwork } from '../botcheck/index.js';
import { KeyedTokenBuckets, type RateDecision } from '../webhooks/index.js';
import { BINDING_LIMITS } from './types.js';

/** Buckets one replica keeps of each kind (endpoints and callers; refusals); about 200 bytes each. */
export const MAX_RATE_BUCKETS = 50_000;

const minuteOf = (perMinute: number) => ({ perMinute, burst: perMinute });
const endpointKey = (endpoint: string) => `endpoint\0${endpoint}`;
const callerKey = (endpoint: string, subject: string) => `caller\0${endpoint}\0${subject}`;
const refusalKey = (endpoint: string, client: string | undefined) => `${endpoint}\0${clientNetwork(client)}`;

export class EndpointRateLimits {
  readonly #admitted: KeyedTokenBuckets;
  readonly #refused: KeyedTokenBuckets;

  constructor(maxBuckets = MAX_RATE_BUCKETS) {
    this.#admitted = new KeyedTokenBuckets(maxBuckets);
    this.#refused = new KeyedTokenBuckets(maxBuckets);
  }

  /** One admitted request against the endpoint's rate_limit, leaving at least `keep` tokens for others. */
  endpoint(endpoint: string, perMinute: number, nowMs: number, keep = 0): RateDecision {
    return this.#admitted.take(endpointKey(endpoint), minuteOf(perMinute), nowMs, keep);
  }

  /** Gives back the token `endpoint` took for a request refused after all (its bot-check answer was not spent). */
  giveBack(endpoint: string): void {
    this.#admitted.giveBack(endpointKey(endpoint));
  }

  /** One request of a signed-in caller (its subject) against the endpoint's caller_rate_limit. */
  caller(endpoint: string, subject: string, perMinute: number, nowMs: number): RateDecision {
    return this.#admitted.take(callerKey(endpoint, subject), minuteOf(perMinute), nowMs);
  }

  /** Gives back the token `caller` took for a request whose answer was not used after all. */
  giveBackCaller(endpoint: string, subject: string): void {
    this.#admitted.giveBack(callerKey(endpoint, subject));
  }

  /** One request refused by authentication or the bot check, from `client` (an address), against the endpoint's rate_limit for its network. */
  refusal(endpoint: string, client: string | undefined, perMinute: number, nowMs: number): RateDecision {
    return this.#refused.take(refusalKey(endpoint, client), minuteOf(perMinute), nowMs);
  }

  /** Whether the network of `client` is past its refusals for the endpoint (its next refusal would be 429). */
  pastRefusals(endpoint: string, client: string | undefined, perMinute: number, nowMs: number): boolean {
    return !this.#refused.has(refusalKey(endpoint, client), minuteOf(perMinute), nowMs);
  }

  get size(): number {
    return this.#admitted.size + this.#refused.size;
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
