/**
 * The OAuth server's records in this process's memory (no `database.dsn`): one instance, so a flow
 * must begin and end on it, and a restart forgets every flow, refresh token and registration.
 * Same semantics as the database store (one contract suite runs against both). Every call runs to
 * completion without awaiting, so each is atomic on Node's single thread.
 */
import { BoundedRecords } from './bounded-records.js';
import type {
  CodeRedemption,
  IssuedCode,
  OAuthStore,
  PendingAuthorization,
  RefreshGrant,
  RefreshRotation,
  RegisteredClient,
  RetentionPolicy,
} from './records.js';
import { checkRetention, clientExpiresAt, oauthRetention } from './retention.js';

export interface MemoryOAuthStoreOptions {
  /** At most this many records of each kind (default 100,000); when full, expired then oldest go. */
  maxEntries?: number;
}

interface StoredCode {
  code: IssuedCode;
  /** Set by the one redemption: the refresh family it started. */
  redeemedInto?: string;
}

interface StoredGrant {
  grant: RefreshGrant;
  rotatedAt?: number;
}

/** A refresh family (one sign-in): born when its code is redeemed, over at the latest end of its code and tokens. */
interface Family {
  expiresAt: number;
  revoked: boolean;
}

export function memoryOAuthStore(opts: MemoryOAuthStoreOptions = {}): OAuthStore {
  const maxEntries = opts.maxEntries ?? 100_000;
  const pending = new BoundedRecords<PendingAuthorization>({ maxEntries, expiresAt: (p) => p.expiresAt });
  const codes = new BoundedRecords<StoredCode>({ maxEntries, expiresAt: (c) => c.code.expiresAt });
  const grants = new BoundedRecords<StoredGrant>({ maxEntries, expiresAt: (g) => g.grant.expiresAt });
  // A grant whose family was evicted is unknown (fail closed) and goes at the next purge.
  const families = new BoundedRecords<Family>({ maxEntries, expiresAt: (f) => f.expiresAt });
  // Eviction of a full store cannot know the retention purgeExpired will be given: the default.
  const clients = new BoundedRecords<RegisteredClient>({ maxEntries, expiresAt: (c) => clientExpiresAt(c, oauthRetention) });

  /** Starts or extends a family so that it outlives `expiresAt`; a revoked family stays revoked. */
  function extendFamily(familyId: string, expiresAt: number): void {
    const family = families.get(familyId);
    if (family) family.expiresAt = Math.max(family.expiresAt, expiresAt);
    else families.set(familyId, { expiresAt, revoked: false });
  }

  function liveFamily(familyId: string): Family | undefined {
    const family = families.get(familyId);
    return family && !family.revoked ? family : undefined;
  }

  return {
    async savePendingAuthorization(record) {
      pending.set(record.id, structuredClone(record));
    },

    async takePendingAuthorization(id, now) {
      const record = pending.delete(id);
      return record && now < record.expiresAt ? record : undefined;
    },

    async saveCode(code) {
      codes.set(code.digest, { code: structuredClone(code) });
    },

    async redeemCode(digest, familyId, now): Promise<CodeRedemption> {
      const stored = codes.get(digest);
      if (!stored) return { result: 'unknown' };
      if (stored.redeemedInto !== undefined) return { result: 'replayed', familyId: stored.redeemedInto };
      if (now >= stored.code.expiresAt) return { result: 'unknown' };
      stored.redeemedInto = familyId;
      // The family exists from here on, so a replay racing the token response can revoke it
      // before its first refresh token is saved.
      extendFamily(familyId, stored.code.expiresAt);
      return { result: 'redeemed', code: structuredClone(stored.code) };
    },

    async saveRefreshGrant(grant) {
      extendFamily(grant.familyId, grant.expiresAt);
      grants.set(grant.digest, { grant: structuredClone(grant) });
    },

    async findRefreshGrant(digest, now) {
      const stored = grants.get(digest);
      if (!stored || now >= stored.grant.expiresAt || !liveFamily(stored.grant.familyId)) return undefined;
      return structuredClone(stored.grant);
    },

    async rotateRefreshGrant(digest, next, now): Promise<RefreshRotation> {
      const stored = grants.get(digest);
      const family = stored && liveFamily(stored.grant.familyId);
      if (!stored || !family || now >= stored.grant.expiresAt) return { result: 'unknown' };
      if (stored.rotatedAt !== undefined) {
        family.revoked = true;
        return { result: 'reused', familyId: stored.grant.familyId };
      }
      if (next.familyId !== stored.grant.familyId) {
        throw new Error(`refresh rotation must stay in family ${stored.grant.familyId}, got ${next.familyId}`);
      }
      stored.rotatedAt = now;
      family.expiresAt = Math.max(family.expiresAt, next.expiresAt);
      grants.set(next.digest, { grant: structuredClone(next) });
      return { result: 'rotated', grant: structuredClone(stored.grant) };
    },

    async revokeFamily(familyId) {
      const family = families.get(familyId);
      if (family) family.revoked = true;
    },

    async familyActive(familyId, now) {
      const family = liveFamily(familyId);
      return family !== undefined && now < family.expiresAt;
    },

    async registerClient(client) {
      clients.set(client.id, structuredClone(client));
    },

    async findClient(id) {
      const client = clients.get(id);
      return client && structuredClone(client);
    },

    async touchClient(id, now) {
      const client = clients.get(id);
      // Re-set: the most recently used registration is the last an overflowing store evicts.
      if (client) clients.set(id, { ...client, lastUsedAt: now });
    },

    async purgeExpired(now, retention: RetentionPolicy) {
      checkRetention(retention);
      return (
        pending.purge((p) => now >= p.expiresAt) +
        codes.purge((c) => now >= c.code.expiresAt) +
        // Tokens of a revoked (or evicted) family are of no use any more; a revoked family itself
        // stays until its end, so that a token saved into it late is refused too.
        grants.purge((g) => now >= g.grant.expiresAt || !liveFamily(g.grant.familyId)) +
        families.purge((f) => now >= f.expiresAt) +
        clients.purge((c) => now >= clientExpiresAt(c, retention))
      );
    },
  };
}
