import type { CallerContext } from './caller.js';

export interface VerifiedCacheOptions {
  /** Milliseconds since the epoch. */
  clock?: () => number;
  /** How long a verified credential is trusted before it is verified again. Default 30 s. */
  ttlMs?: number;
  /** Most credentials remembered; past that the least recently used is forgotten. Default 10,000. */
  maxEntries?: number;
}

export const defaultVerifiedTtlMs = 30_000;
const defaultMaxEntries = 10_000;

interface Entry {
  caller: CallerContext;
  expiresAt: number;
}

/** A caller object of the request's own (callers are mutable; one request must not see another's changes). */
export const copyOf = (caller: CallerContext): CallerContext => ({ ...caller, roles: [...caller.roles] });

/** A remembered verdict: who the credential is, and for how many more milliseconds that holds. */
export interface Verified {
  caller: CallerContext;
  remainingMs: number;
}

/**
 * Credentials that passed verification, remembered for a short while so that a client's stream of
 * requests is not verified from scratch every time (for an API key: comparing every configured
 * key and asking the key table; for a JWT: the signature and the claims).
 *
 * - Keyed by the credential's SHA-256 digest, which the caller computes; the credential itself is
 *   never kept. Looking a digest up takes time that depends on the digest only, and a caller can
 *   choose a credential but not its digest, so the lookup leaks nothing a guess could use.
 * - Only acceptances are remembered: a credential that failed is checked again next time, and
 *   made-up credentials cannot crowd out real ones.
 * - Bounded: `maxEntries` (least recently used first out) and `ttlMs`; an entry never outlives the
 *   `validUntil` its verifier gives (a token's expiry). So a key removed from the key table stops
 *   working within `ttlMs`, an expired token at once.
 * - Each hit returns a fresh copy: every request carries a caller object of its own.
 */
export class VerifiedCredentials {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: () => number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(opts: VerifiedCacheOptions = {}) {
    this.clock = opts.clock ?? Date.now;
    this.ttlMs = opts.ttlMs ?? defaultVerifiedTtlMs;
    this.maxEntries = opts.maxEntries ?? defaultMaxEntries;
  }

  /** The caller a credential with this digest was verified as, while that verdict holds. */
  get(digest: Buffer): Verified | undefined {
    const key = digest.toString('base64');
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    const remainingMs = entry.expiresAt - this.clock();
    if (remainingMs <= 0) return undefined;
    this.entries.set(key, entry);
    return { caller: copyOf(entry.caller), remainingMs };
  }

  /**
   * Remembers an accepted credential until the TTL ends or `validUntil` (ms since the epoch),
   * whichever is first. Returns how long it is remembered (0: not at all, its validity is over).
   */
  remember(digest: Buffer, caller: CallerContext, validUntil = Number.POSITIVE_INFINITY): number {
    const now = this.clock();
    const expiresAt = Math.min(now + this.ttlMs, validUntil);
    if (expiresAt <= now) return 0;
    const key = digest.toString('base64');
    this.entries.delete(key);
    this.entries.set(key, { caller: copyOf(caller), expiresAt });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return expiresAt - now;
  }
}
