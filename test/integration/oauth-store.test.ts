/**
 * The OAuth store contract: one suite, run against the memory store and the database store (a
 * fresh database with every migration), with injected clocks. Single use of states and codes,
 * replay and reuse detection, family revocation, DCR clients, housekeeping, and the one-winner
 * rules under concurrency.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import {
  databaseOAuthStore,
  memoryOAuthStore,
  oauthRetention,
  type OAuthStore,
  type RefreshGrant,
} from '../../shared/oauth/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { day, hour, issuedCode, minute, pendingAuthorization, randomId, refreshGrant, registeredClient, t0 } from '../support/oauth-records.js';

/** The next token of `grant`'s family, as the token endpoint builds it. */
const nextOf = (grant: RefreshGrant): RefreshGrant => ({ ...grant, digest: randomId() });

interface StoreFixture {
  /** An empty store. */
  fresh(): Promise<OAuthStore>;
  close(): Promise<void>;
}

async function memoryFixture(): Promise<StoreFixture> {
  return { fresh: async () => memoryOAuthStore(), close: async () => undefined };
}

async function databaseFixture(): Promise<StoreFixture> {
  const database = await createTestDatabase();
  // More connections than the concurrency tests' callers, so that they really run at once.
  const db: Db = createPool({ dsn: database.dsn, maxOpenConns: 12 });
  await migrate(db);
  return {
    async fresh() {
      await db.query(
        'TRUNCATE oauth_pending_authorizations, oauth_codes, oauth_refresh_grants, oauth_refresh_families, oauth_registered_clients',
      );
      return databaseOAuthStore(db);
    },
    async close() {
      await db.end();
      await database.drop();
    },
  };
}

describe.each([
  ['memory', memoryFixture],
  ['database', databaseFixture],
] as const)('OAuth store contract (%s)', (_kind, open) => {
  let fixture: StoreFixture;
  let store: OAuthStore;

  beforeAll(async () => {
    fixture = await open();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  beforeEach(async () => {
    store = await fixture.fresh();
  });

  describe('pending authorizations', () => {
    it('are taken once, exactly as saved', async () => {
      const withScope = pendingAuthorization();
      const withoutScope = pendingAuthorization({ scope: undefined });
      await store.savePendingAuthorization(withScope);
      await store.savePendingAuthorization(withoutScope);

      expect(await store.takePendingAuthorization(withScope.id, t0)).toStrictEqual(withScope);
      expect(await store.takePendingAuthorization(withScope.id, t0)).toBeUndefined();
      expect(await store.takePendingAuthorization(withoutScope.id, t0)).toStrictEqual(withoutScope);
      expect(await store.takePendingAuthorization(randomId(), t0)).toBeUndefined();
    });

    it('are gone at their expiry (exactly at expiresAt counts as expired)', async () => {
      const lastMoment = pendingAuthorization();
      const atExpiry = pendingAuthorization();
      await store.savePendingAuthorization(lastMoment);
      await store.savePendingAuthorization(atExpiry);

      expect(await store.takePendingAuthorization(lastMoment.id, lastMoment.expiresAt - 1)).toEqual(lastMoment);
      expect(await store.takePendingAuthorization(atExpiry.id, atExpiry.expiresAt)).toBeUndefined();
      // Single use holds for an expired one too: it does not come back for an earlier clock.
      expect(await store.takePendingAuthorization(atExpiry.id, t0)).toBeUndefined();
    });
  });

  describe('codes', () => {
    it('redeem once; every later redemption is a replay naming the family the first one started', async () => {
      const code = issuedCode();
      await store.saveCode(code);

      expect(await store.redeemCode(code.digest, 'family-1', t0)).toStrictEqual({ result: 'redeemed', code });
      expect(await store.redeemCode(code.digest, 'family-2', t0 + 1)).toEqual({ result: 'replayed', familyId: 'family-1' });
      // Kept (and recognised) until housekeeping removes it, even past its expiry.
      expect(await store.redeemCode(code.digest, 'family-3', code.expiresAt + minute)).toEqual({ result: 'replayed', familyId: 'family-1' });
    });

    it('an expired or unknown code is unknown (exactly at expiresAt counts as expired)', async () => {
      const lastMoment = issuedCode();
      const atExpiry = issuedCode({ scope: undefined });
      await store.saveCode(lastMoment);
      await store.saveCode(atExpiry);

      expect(await store.redeemCode(atExpiry.digest, randomId(), atExpiry.expiresAt)).toEqual({ result: 'unknown' });
      expect(await store.redeemCode(randomId(), randomId(), t0)).toEqual({ result: 'unknown' });
      expect((await store.redeemCode(lastMoment.digest, randomId(), lastMoment.expiresAt - 1)).result).toBe('redeemed');
    });

    it('a replay racing the token response revokes the family before its first refresh token is saved', async () => {
      const code = issuedCode();
      await store.saveCode(code);
      expect((await store.redeemCode(code.digest, 'family-r', t0)).result).toBe('redeemed');
      const replay = await store.redeemCode(code.digest, randomId(), t0);
      expect(replay).toEqual({ result: 'replayed', familyId: 'family-r' });
      await store.revokeFamily('family-r');

      const late = refreshGrant({ familyId: 'family-r' });
      await store.saveRefreshGrant(late);
      expect(await store.findRefreshGrant(late.digest, t0)).toBeUndefined();
      expect(await store.rotateRefreshGrant(late.digest, nextOf(late), t0)).toEqual({ result: 'unknown' });
    });
  });

  describe('refresh grants', () => {
    it('rotate along a chain A → B → C, each returning the grant it replaced', async () => {
      const a = refreshGrant();
      await store.saveRefreshGrant(a);
      expect(await store.findRefreshGrant(a.digest, t0)).toStrictEqual(a);

      const b = nextOf(a);
      expect(await store.rotateRefreshGrant(a.digest, b, t0)).toStrictEqual({ result: 'rotated', grant: a });
      const c = nextOf(b);
      expect(await store.rotateRefreshGrant(b.digest, c, t0 + hour)).toStrictEqual({ result: 'rotated', grant: b });
      expect(await store.findRefreshGrant(c.digest, t0 + hour)).toStrictEqual(c);
      // A rotated token is still found: only the rotation tells a reuse.
      expect(await store.findRefreshGrant(a.digest, t0 + hour)).toStrictEqual(a);
    });

    it('reusing a rotated token revokes the family: B and C are unknown afterwards', async () => {
      const a = refreshGrant();
      const b = nextOf(a);
      const c = nextOf(b);
      await store.saveRefreshGrant(a);
      await store.rotateRefreshGrant(a.digest, b, t0);
      await store.rotateRefreshGrant(b.digest, c, t0 + 1);

      expect(await store.rotateRefreshGrant(a.digest, nextOf(a), t0 + 2)).toEqual({ result: 'reused', familyId: a.familyId });
      for (const token of [a, b, c]) {
        expect(await store.findRefreshGrant(token.digest, t0 + 3)).toBeUndefined();
        expect(await store.rotateRefreshGrant(token.digest, nextOf(token), t0 + 3)).toEqual({ result: 'unknown' });
      }
    });

    it('revokeFamily revokes every token of that family and no other', async () => {
      const revoked = refreshGrant();
      const sibling = nextOf(revoked);
      const other = refreshGrant();
      for (const g of [revoked, sibling, other]) await store.saveRefreshGrant(g);

      await store.revokeFamily(revoked.familyId);
      await store.revokeFamily(randomId());

      for (const g of [revoked, sibling]) {
        expect(await store.findRefreshGrant(g.digest, t0)).toBeUndefined();
        expect(await store.rotateRefreshGrant(g.digest, nextOf(g), t0)).toEqual({ result: 'unknown' });
      }
      expect(await store.findRefreshGrant(other.digest, t0)).toEqual(other);
      expect((await store.rotateRefreshGrant(other.digest, nextOf(other), t0)).result).toBe('rotated');
    });

    it('a token at its family end is unknown (exactly at expiresAt counts as expired)', async () => {
      const a = refreshGrant({ scope: undefined });
      await store.saveRefreshGrant(a);
      expect(await store.findRefreshGrant(a.digest, a.expiresAt - 1)).toStrictEqual(a);
      expect(await store.findRefreshGrant(a.digest, a.expiresAt)).toBeUndefined();
      expect(await store.rotateRefreshGrant(a.digest, nextOf(a), a.expiresAt)).toEqual({ result: 'unknown' });
      expect(await store.rotateRefreshGrant(randomId(), nextOf(a), t0)).toEqual({ result: 'unknown' });
    });

    it('familyActive: live until revoked (by revokeFamily or a reuse) or over; unknown families are not', async () => {
      const live = refreshGrant();
      const revoked = refreshGrant();
      const reused = refreshGrant();
      for (const g of [live, revoked, reused]) await store.saveRefreshGrant(g);
      expect(await store.familyActive(live.familyId, t0)).toBe(true);
      expect(await store.familyActive(live.familyId, live.expiresAt - 1)).toBe(true);
      expect(await store.familyActive(live.familyId, live.expiresAt)).toBe(false);

      await store.revokeFamily(revoked.familyId);
      expect(await store.familyActive(revoked.familyId, t0)).toBe(false);
      await store.rotateRefreshGrant(reused.digest, nextOf(reused), t0);
      await store.rotateRefreshGrant(reused.digest, nextOf(reused), t0 + 1);
      expect(await store.familyActive(reused.familyId, t0 + 2)).toBe(false);
      expect(await store.familyActive(randomId(), t0)).toBe(false);
      expect(await store.familyActive(live.familyId, t0 + 2)).toBe(true);
    });

    it('refuses to rotate a token into another family', async () => {
      const a = refreshGrant();
      await store.saveRefreshGrant(a);
      await expect(store.rotateRefreshGrant(a.digest, { ...nextOf(a), familyId: randomId() }, t0)).rejects.toThrow(/must stay in family/);
      expect((await store.rotateRefreshGrant(a.digest, nextOf(a), t0)).result).toBe('rotated');
    });
  });

  describe('registered clients', () => {
    it('are found as registered, and touching one records its last use', async () => {
      const confidential = registeredClient();
      const pub = registeredClient({ authMethod: 'none', secretDigest: undefined, name: undefined });
      await store.registerClient(confidential);
      await store.registerClient(pub);

      expect(await store.findClient(confidential.id)).toStrictEqual(confidential);
      expect(await store.findClient(pub.id)).toStrictEqual(pub);
      expect(await store.findClient(randomId())).toBeUndefined();

      await store.touchClient(pub.id, t0 + 5);
      await store.touchClient(randomId(), t0);
      expect(await store.findClient(pub.id)).toStrictEqual({ ...pub, lastUsedAt: t0 + 5 });
    });
  });

  describe('purgeExpired', () => {
    it('removes exactly what has expired, and registrations past their retention', async () => {
      const expired = {
        pending: pendingAuthorization({ expiresAt: t0 }),
        code: issuedCode({ expiresAt: t0 }),
        grant: refreshGrant({ expiresAt: t0 }),
        neverUsed: registeredClient({ createdAt: t0 - oauthRetention.unusedClientMs }),
        idle: registeredClient({ createdAt: t0 - 200 * day, lastUsedAt: t0 - oauthRetention.idleClientMs }),
      };
      const live = {
        pending: pendingAuthorization({ expiresAt: t0 + 1 }),
        code: issuedCode({ expiresAt: t0 + 1 }),
        grant: refreshGrant({ expiresAt: t0 + 1 }),
        newlyRegistered: registeredClient({ createdAt: t0 - oauthRetention.unusedClientMs + 1 }),
        inUse: registeredClient({ createdAt: t0 - 200 * day, lastUsedAt: t0 - oauthRetention.idleClientMs + 1 }),
      };
      // A revoked family's tokens go before their end; the family stays revoked until then.
      const revoked = refreshGrant();
      const redeemed = issuedCode({ expiresAt: t0 });
      for (const set of [expired, live]) {
        await store.savePendingAuthorization(set.pending);
        await store.saveCode(set.code);
        await store.saveRefreshGrant(set.grant);
      }
      await store.saveRefreshGrant(revoked);
      await store.revokeFamily(revoked.familyId);
      await store.saveCode(redeemed);
      await store.redeemCode(redeemed.digest, 'family-of-redeemed', t0 - 1);
      for (const client of [expired.neverUsed, expired.idle, live.newlyRegistered, live.inUse]) await store.registerClient(client);

      // pending, 2 codes, 2 grants, 2 families (the expired grant's and the redeemed code's), 2 clients.
      expect(await store.purgeExpired(t0, oauthRetention)).toBe(9);
      expect(await store.purgeExpired(t0, oauthRetention)).toBe(0);

      expect(await store.takePendingAuthorization(expired.pending.id, t0 - 1)).toBeUndefined();
      expect(await store.redeemCode(expired.code.digest, randomId(), t0 - 1)).toEqual({ result: 'unknown' });
      expect(await store.redeemCode(redeemed.digest, randomId(), t0 - 1)).toEqual({ result: 'unknown' });
      expect(await store.findRefreshGrant(expired.grant.digest, t0 - 1)).toBeUndefined();
      expect(await store.findClient(expired.neverUsed.id)).toBeUndefined();
      expect(await store.findClient(expired.idle.id)).toBeUndefined();

      expect(await store.takePendingAuthorization(live.pending.id, t0)).toEqual(live.pending);
      expect((await store.redeemCode(live.code.digest, randomId(), t0)).result).toBe('redeemed');
      expect(await store.findRefreshGrant(live.grant.digest, t0)).toEqual(live.grant);
      expect(await store.findClient(live.newlyRegistered.id)).toEqual(live.newlyRegistered);
      expect(await store.findClient(live.inUse.id)).toEqual(live.inUse);

      const late = refreshGrant({ familyId: revoked.familyId });
      await store.saveRefreshGrant(late);
      expect(await store.findRefreshGrant(late.digest, t0)).toBeUndefined();
    });

    it('refuses a retention window that would remove live registrations', async () => {
      const client = registeredClient();
      await store.registerClient(client);
      await expect(store.purgeExpired(t0, { ...oauthRetention, unusedClientMs: 0 })).rejects.toThrow(RangeError);
      await expect(store.purgeExpired(t0, { ...oauthRetention, idleClientMs: Number.NaN })).rejects.toThrow(RangeError);
      expect(await store.findClient(client.id)).toEqual(client);
    });
  });

  describe('concurrency', () => {
    it('of 10 concurrent redemptions of one code exactly one redeems; the others are replays of its family', async () => {
      const code = issuedCode();
      await store.saveCode(code);
      const families = Array.from({ length: 10 }, (_, i) => `family-${i}`);
      const results = await Promise.all(families.map((f) => store.redeemCode(code.digest, f, t0)));

      const winners = results.flatMap((r, i) => (r.result === 'redeemed' ? [families[i]] : []));
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.result === 'replayed')).toEqual(Array(9).fill({ result: 'replayed', familyId: winners[0] }));
    });

    it('of 10 concurrent rotations of one token exactly one rotates, a loser sees the reuse, and the family is revoked', async () => {
      const a = refreshGrant();
      await store.saveRefreshGrant(a);
      const nexts = Array.from({ length: 10 }, () => nextOf(a));
      const results = await Promise.all(nexts.map((next) => store.rotateRefreshGrant(a.digest, next, t0)));

      expect(results.filter((r) => r.result === 'rotated')).toEqual([{ result: 'rotated', grant: a }]);
      // The first loser detects the reuse and revokes; later ones find the family revoked.
      const reused = results.filter((r) => r.result === 'reused');
      expect(reused.length).toBeGreaterThanOrEqual(1);
      expect(reused).toEqual(Array(reused.length).fill({ result: 'reused', familyId: a.familyId }));
      expect(results.filter((r) => r.result === 'unknown')).toHaveLength(9 - reused.length);
      for (const next of nexts) {
        expect(await store.findRefreshGrant(next.digest, t0)).toBeUndefined();
        expect(await store.rotateRefreshGrant(next.digest, nextOf(next), t0)).toEqual({ result: 'unknown' });
      }
    });

    it('of 10 concurrent takes of one pending authorization exactly one gets it', async () => {
      const pending = pendingAuthorization();
      await store.savePendingAuthorization(pending);
      const taken = await Promise.all(Array.from({ length: 10 }, () => store.takePendingAuthorization(pending.id, t0)));
      expect(taken.filter((p) => p !== undefined)).toEqual([pending]);
    });
  });
});

/**
 * The database store's one-winner rules with the callers forced to overlap: a test transaction
 * holds the row they contend for until all ten are queued on it, so none can finish before the
 * others have started.
 */
describe('OAuth database store under contention', () => {
  let database: { dsn: string; drop(): Promise<void> };
  let db: Db;
  let store: OAuthStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPool({ dsn: database.dsn, maxOpenConns: 12 });
    await migrate(db);
    store = databaseOAuthStore(db);
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  /** Runs `callers` while `lockSql` holds a row lock, releasing it once every caller waits on a lock. */
  async function whileLocked<T>(lockSql: string, params: unknown[], callers: (() => Promise<T>)[]): Promise<T[]> {
    const holder = await db.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(lockSql, params);
      const results = Promise.allSettled(callers.map((call) => call()));
      // From the pool, not the holder: a transaction sees one snapshot of pg_stat_activity.
      const waiting = async () =>
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0]!.n;
      await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(callers.length);
      await holder.query('COMMIT');
      return (await results).map((r) => {
        if (r.status === 'rejected') throw r.reason;
        return r.value;
      });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  }

  it('ten redemptions queued on one code: exactly one redeems', async () => {
    const code = issuedCode();
    await store.saveCode(code);
    const results = await whileLocked(
      'SELECT 1 FROM oauth_codes WHERE digest = $1 FOR UPDATE',
      [code.digest],
      Array.from({ length: 10 }, (_, i) => () => store.redeemCode(code.digest, `family-${i}`, t0)),
    );
    expect(results.filter((r) => r.result === 'redeemed')).toHaveLength(1);
    expect(new Set(results.filter((r) => r.result === 'replayed').map((r) => JSON.stringify(r))).size).toBe(1);
  });

  it('ten rotations queued on one family: exactly one rotates, and its new token is revoked with the family', async () => {
    const a = refreshGrant();
    await store.saveRefreshGrant(a);
    const nexts = Array.from({ length: 10 }, () => nextOf(a));
    const results = await whileLocked(
      'SELECT 1 FROM oauth_refresh_families WHERE family_id = $1 FOR UPDATE',
      [a.familyId],
      nexts.map((next) => () => store.rotateRefreshGrant(a.digest, next, t0)),
    );
    expect(results.map((r) => r.result).sort()).toEqual(['reused', ...Array(8).fill('unknown'), 'rotated'].sort());
    for (const next of nexts) expect(await store.findRefreshGrant(next.digest, t0)).toBeUndefined();
  });
});
