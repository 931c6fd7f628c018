/**
 * How long the OAuth server's records outlive their use: the rules housekeeping (database) and
 * the api's sweep (memory) apply through OAuthStore.purgeExpired.
 */
import type { RegisteredClient, RetentionPolicy } from './records.js';

const hour = 60 * 60 * 1000;
const day = 24 * hour;

/**
 * Dynamic registrations are free for anyone to make, so one never used goes a day after it was
 * made; one in use stays until it has been idle for 90 days (clients re-register when refused).
 */
export const oauthRetention: RetentionPolicy = { unusedClientMs: 24 * hour, idleClientMs: 90 * day };

/** Fails closed on a zero, negative or non-numeric window, which would remove live registrations. */
export function checkRetention(retention: RetentionPolicy): void {
  for (const [what, ms] of [
    ['unusedClientMs', retention.unusedClientMs],
    ['idleClientMs', retention.idleClientMs],
  ] as const) {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
      throw new RangeError(`${what} must be a positive number of milliseconds, got ${String(ms)}`);
    }
  }
}

/** When a registration goes: `unusedClientMs` after it was made if never used, else `idleClientMs` after its last use. */
export function clientExpiresAt(client: Pick<RegisteredClient, 'createdAt' | 'lastUsedAt'>, retention: RetentionPolicy): number {
  return client.lastUsedAt === undefined ? client.createdAt + retention.unusedClientMs : client.lastUsedAt + retention.idleClientMs;
}
