/**
 * Issue 10 item 3: verified credentials are cached, and what must still end does. API keys from
 * the real key table (Postgres) and OIDC tokens from the in-process issuer; time is an injected
 * clock. jose's compactVerify is wrapped by a spy that counts signature checks and still does
 * the real work.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const signatureChecks = vi.hoisted(() => ({ count: 0 }));
vi.mock('jose', async (importOriginal) => {
  const real = await importOriginal<typeof import('jose')>();
  return {
    ...real,
    compactVerify: (...args: Parameters<typeof real.compactVerify>) => {
      signatureChecks.count++;
      return real.compactVerify(...args);
    },
  };
});

const { parseConfig } = await import('../../shared/config/index.js');
const { createPool, migrate } = await import('../../shared/db/index.js');
const { silentLogger } = await import('../../shared/logging/index.js');
const { apiKeyAuthenticator, databaseApiKeys, oidcAuthenticator } = await import('../../shared/identity/index.js');
const { defaultVerifiedTtlMs } = await import('../../shared/identity/verified-cache.js');
const { createTestDatabase } = await import('../support/postgres.js');
const { startTestIssuer } = await import('../support/oidc-provider.js');
type Db = import('../../shared/db/index.js').Db;
type TestIssuer = import('../support/oidc-provider.js').TestIssuer;
type Credential = import('../../shared/identity/index.js').Credential;

const T0 = Date.UTC(2030, 0, 1);
const skewSeconds = 30;

/** A settable clock in milliseconds, starting at T0. */
function testClock() {
  let now = T0;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let issuer: TestIssuer;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 2 });
  await migrate(db, { log: silentLogger() });
  issuer = await startTestIssuer();
});
afterAll(async () => {
  await issuer?.close();
  await db?.end();
  await database?.drop();
});
beforeEach(() => {
  signatureChecks.count = 0;
});

/** The platform's key table, counting the questions asked of it. */
function countedKeyTable() {
  const table = databaseApiKeys(db);
  const counted = {
    lookups: 0,
    findByDigest(digest: Buffer) {
      counted.lookups++;
      return table.findByDigest(digest);
    },
  };
  return { table, counted };
}

describe('API keys from the key table', () => {
  it('a verified key is not looked up again; a removed key stops working within the TTL', async () => {
    const clock = testClock();
    const { table, counted } = countedKeyTable();
    const created = await table.ensureKey('revocable', ['analyst']);
    if (!created.created) throw new Error('key existed');
    const link = apiKeyAuthenticator([], counted, { clock: clock.now });
    const presented: Credential = { kind: 'apikey', key: created.key };

    for (let request = 0; request < 5; request++) {
      expect(await link.authenticate(presented)).toMatchObject({ result: 'accept', caller: { subject: 'apikey:revocable', roles: ['analyst'] } });
    }
    expect(counted.lookups).toBe(1);

    await db.query('DELETE FROM api_keys WHERE name = $1', ['revocable']);
    clock.advance(defaultVerifiedTtlMs - 1);
    expect(await link.authenticate(presented)).toMatchObject({ result: 'accept' });
    clock.advance(1);
    expect(await link.authenticate(presented)).toEqual({ result: 'reject', reason: 'unknown API key' });
    expect(counted.lookups).toBe(2);
  });

  it('a bearer JWT or a key of another shape costs no key-table query', async () => {
    const { counted } = countedKeyTable();
    const link = apiKeyAuthenticator([], counted);
    const jwt = await issuer.sign({ iss: issuer.url, sub: 'u', exp: T0 / 1000 + 60 });
    expect(await link.authenticate({ kind: 'bearer', token: jwt })).toEqual({ result: 'pass' });
    expect(await link.authenticate({ kind: 'apikey', key: 'pk_too-short' })).toEqual({ result: 'reject', reason: 'unknown API key' });
    expect(counted.lookups).toBe(0);
  });
});

describe('OIDC tokens', () => {
  function oidcLink(extra: string[] = [], opts: { verifiedTtlMs?: number; jwksMaxAgeMs?: number } = {}) {
    const clock = testClock();
    const config = parseConfig(
      `
auth:
  oidc:
    enabled: true
    issuer: ${issuer.url}
    client_id: platform
    clock_skew_seconds: ${skewSeconds}
${extra.map((l) => `    ${l}`).join('\n')}
`,
      {},
    ).config.auth.oidc;
    return { clock, link: oidcAuthenticator(config, { clock: clock.now, ...opts }) };
  }
  const claims = (overrides: Record<string, unknown> = {}) => ({ iss: issuer.url, sub: 'user-1', aud: 'platform', iat: T0 / 1000 - 60, exp: T0 / 1000 + 3600, ...overrides });

  it('a verified token is not verified again within the TTL, and is after it', async () => {
    const { clock, link } = oidcLink();
    const token = await issuer.sign(claims());
    for (let request = 0; request < 5; request++) {
      expect(await link.authenticate({ kind: 'bearer', token })).toMatchObject({ result: 'accept', caller: { subject: `oidc:${issuer.url}#user-1` } });
    }
    expect(signatureChecks.count).toBe(1);
    clock.advance(defaultVerifiedTtlMs);
    expect(await link.authenticate({ kind: 'bearer', token })).toMatchObject({ result: 'accept' });
    expect(signatureChecks.count).toBe(2);
  });

  it('an expired token is refused even while its verdict would still be cached', async () => {
    const hour = 3_600_000;
    const { clock, link } = oidcLink([], { verifiedTtlMs: 24 * hour, jwksMaxAgeMs: 24 * hour });
    const token = await issuer.sign(claims({ exp: T0 / 1000 + 60 }));
    expect(await link.authenticate({ kind: 'bearer', token })).toMatchObject({ result: 'accept' });
    clock.advance((60 + skewSeconds) * 1000);
    expect(await link.authenticate({ kind: 'bearer', token })).toEqual({ result: 'reject', reason: 'token expired' });
  });

  it('a token past max_token_age is refused even while its verdict would still be cached', async () => {
    const hour = 3_600_000;
    const { clock, link } = oidcLink(['max_token_age: 2m'], { verifiedTtlMs: 24 * hour, jwksMaxAgeMs: 24 * hour });
    const token = await issuer.sign(claims({ iat: T0 / 1000 - 60 }));
    expect(await link.authenticate({ kind: 'bearer', token })).toMatchObject({ result: 'accept' });
    clock.advance((60 + skewSeconds + 1) * 1000);
    expect(await link.authenticate({ kind: 'bearer', token })).toEqual({ result: 'reject', reason: 'token older than max_token_age' });
  });

  it('another token never rides on a cached one', async () => {
    const { link } = oidcLink();
    const token = await issuer.sign(claims());
    expect(await link.authenticate({ kind: 'bearer', token })).toMatchObject({ result: 'accept' });
    const [head, body, signature] = token.split('.');
    const forged = `${head}.${body}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await link.authenticate({ kind: 'bearer', token: forged })).toEqual({ result: 'reject', reason: 'invalid token signature' });
  });
});
