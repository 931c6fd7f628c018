/**
 * The fail-closed matrix of issue 3 over real HTTP: each authenticator discovers the in-process
 * issuer and fetches its JWKS. Time is an injected clock; nothing sleeps.
 */
import { Writable } from 'node:stream';
import { createHmac, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompactSign, base64url, type JWTPayload } from 'jose';
import { pino } from 'pino';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import {
  apiKeyAuthenticator,
  authenticateCredentials,
  extractCredentials,
  oidcAuthenticator,
  type AuthOutcome,
  type OidcAuthenticatorOptions,
} from '../../shared/identity/index.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-provider.js';

const T0 = Date.UTC(2030, 0, 1) / 1000; // seconds
const skew = 30;

function oidcConfig(issuer: string, extra: string[] = []): PlatformConfig['auth']['oidc'] {
  const yaml = `
auth:
  oidc:
    enabled: true
    issuer: ${issuer}
    client_id: platform
    role_claim_path: realm_access.roles
    role_prefix: platform-
    clock_skew_seconds: ${skew}
${extra.map((l) => `    ${l}`).join('\n')}
`;
  return parseConfig(yaml, {}).config.auth.oidc;
}

/** A settable clock in milliseconds, starting at T0. */
function testClock() {
  let nowMs = T0 * 1000;
  return { now: () => nowMs, advance: (seconds: number) => void (nowMs += seconds * 1000) };
}

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(async () => issuer?.close());

function claims(overrides: Record<string, unknown> = {}): JWTPayload {
  const base: Record<string, unknown> = {
    iss: issuer.url,
    sub: 'user-1',
    aud: 'platform',
    iat: T0 - 60,
    exp: T0 + 3600,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    realm_access: { roles: ['platform-analyst', 'platform-admin', 'offline_access'] },
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base as JWTPayload;
}

function authenticator(extraConfig: string[] = [], opts: OidcAuthenticatorOptions = {}) {
  const clock = testClock();
  return { clock, link: oidcAuthenticator(oidcConfig(issuer.url, extraConfig), { clock: clock.now, ...opts }) };
}

async function verdict(token: string, extraConfig: string[] = []): Promise<AuthOutcome> {
  return authenticator(extraConfig).link.authenticate({ kind: 'bearer', token });
}

/** An HS256 token "signed" with the issuer's public key as the HMAC secret (the alg-confusion attack). */
function hmacWithPublicKey(payload: JWTPayload): string {
  const pem = createPublicKey({ key: issuer.current.publicJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
  const head = base64url.encode(JSON.stringify({ alg: 'HS256', kid: issuer.current.kid, typ: 'JWT' }));
  const body = base64url.encode(JSON.stringify(payload));
  const sig = createHmac('sha256', pem).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

type Row = { name: string; token: () => Promise<string> | string; config?: string[]; reason?: string };

describe('OIDC fail-closed matrix', () => {
  const rows: Row[] = [
    { name: 'malformed token (not a JWT)', token: () => 'definitely-not-a-jwt', reason: 'malformed token' },
    { name: 'malformed token (three segments of junk)', token: () => 'abc.def.ghi', reason: 'malformed token' },
    {
      name: 'malformed token (validly signed, payload not a JSON object)',
      token: () => new CompactSign(new TextEncoder().encode('["not", "claims"]')).setProtectedHeader({ alg: 'RS256', kid: issuer.current.kid }).sign(issuer.current.privateKey),
      reason: 'malformed token',
    },
    {
      name: 'bad signature (signed by another key under the published kid)',
      token: async () => issuer.sign(claims(), { key: await issuer.newKey(), header: { kid: issuer.current.kid } }),
      reason: 'invalid token signature',
    },
    {
      name: 'bad signature (payload altered after signing)',
      token: async () => {
        const [h, , s] = (await issuer.sign(claims())).split('.');
        return `${h}.${base64url.encode(JSON.stringify(claims({ sub: 'admin' })))}.${s}`;
      },
      reason: 'invalid token signature',
    },
    { name: 'alg: none', token: () => issuer.unsigned(claims()), reason: 'token algorithm not allowed (none)' },
    { name: 'HS256 keyed with the public key', token: () => hmacWithPublicKey(claims()), reason: 'token algorithm not allowed (HS256)' },
    { name: 'expired beyond skew', token: () => issuer.sign(claims({ exp: T0 - skew - 1 })), reason: 'token expired' },
    { name: 'expired within skew (accepted)', token: () => issuer.sign(claims({ exp: T0 - skew + 1 })) },
    { name: 'nbf in the future', token: () => issuer.sign(claims({ nbf: T0 + skew + 1 })), reason: 'token not yet valid (nbf)' },
    { name: 'iat in the future', token: () => issuer.sign(claims({ iat: T0 + skew + 1 })), reason: 'token issued in the future (iat)' },
    { name: 'no sub', token: () => issuer.sign(claims({ sub: undefined })), reason: 'token has no sub claim' },
    { name: 'no exp', token: () => issuer.sign(claims({ exp: undefined })), reason: 'token has no exp claim' },
    { name: 'wrong issuer', token: () => issuer.sign(claims({ iss: 'https://evil.example' })), reason: 'token issuer mismatch' },
    { name: 'wrong audience', token: () => issuer.sign(claims({ aud: 'someone-else' })), reason: 'token audience mismatch' },
    { name: 'audience among several (accepted)', token: () => issuer.sign(claims({ aud: ['account', 'platform'] })) },
    { name: 'older than max_token_age', config: ['max_token_age: 1h'], token: () => issuer.sign(claims({ iat: T0 - 3600 - skew - 1 })), reason: 'token older than max_token_age' },
    { name: 'younger than max_token_age (accepted)', config: ['max_token_age: 1h'], token: () => issuer.sign(claims({ iat: T0 - 3600 })) },
    { name: 'ES256 key (accepted)', token: async () => { const k = await issuer.newKey('ES256'); issuer.publish(k); return issuer.sign(claims(), { key: k }); } },
    { name: 'EdDSA key (accepted)', token: async () => { const k = await issuer.newKey('EdDSA'); issuer.publish(k); return issuer.sign(claims(), { key: k }); } },
  ];

  it.each(rows)('$name', async ({ token, config, reason }) => {
    const outcome = await verdict(await token(), config);
    if (reason) expect(outcome).toEqual({ result: 'reject', reason });
    else expect(outcome).toMatchObject({ result: 'accept', caller: { subject: `oidc:${issuer.url}#user-1`, idpSubject: 'user-1', authType: 'oidc' } });
  });

  it('missing token: the chain answers missing_credentials (401 + WWW-Authenticate upstream)', async () => {
    const chain = [apiKeyAuthenticator([]), authenticator().link];
    expect(await authenticateCredentials(chain, extractCredentials({}), false)).toEqual({
      ok: false,
      error: 'missing_credentials',
      description: 'authentication required',
    });
  });

  it('roles at a nested claim path, filtered and stripped by the prefix; name, email', async () => {
    const outcome = await verdict(await issuer.sign(claims()));
    expect(outcome).toEqual({
      result: 'accept',
      caller: { subject: `oidc:${issuer.url}#user-1`, idpSubject: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com', roles: ['analyst', 'admin'], authType: 'oidc' },
      remainingMs: expect.any(Number),
    });
  });

  it('name falls back to preferred_username; absent email and roles stay absent/empty', async () => {
    const token = await issuer.sign(claims({ name: undefined, email: undefined, preferred_username: 'ada', realm_access: undefined }));
    expect(await verdict(token)).toEqual({ result: 'accept', caller: { subject: `oidc:${issuer.url}#user-1`, idpSubject: 'user-1', name: 'ada', roles: [], authType: 'oidc' }, remainingMs: expect.any(Number) });
  });
});

describe('JWKS rotation and refetch rate limit', () => {
  it('refuses a kid before it is published, accepts it once it is, fetching at most once per 30 s', async () => {
    const { clock, link } = authenticator();
    const bearer = (token: string) => link.authenticate({ kind: 'bearer', token });
    const before = { ...issuer.hits };

    expect(await bearer(await issuer.sign(claims()))).toMatchObject({ result: 'accept' });
    expect(issuer.hits.discovery - before.discovery).toBe(1);
    expect(issuer.hits.jwks - before.jwks).toBe(1);

    const next = await issuer.newKey();
    const rotated = await issuer.sign(claims({ exp: T0 + 7200 }), { key: next });
    // Unknown kid within the window of the first fetch: refused without asking the issuer.
    expect(await bearer(rotated)).toEqual({ result: 'reject', reason: 'unknown signing key' });
    expect(issuer.hits.jwks - before.jwks).toBe(1);

    // Window over, still unpublished: one refetch, still refused.
    clock.advance(31);
    expect(await bearer(rotated)).toEqual({ result: 'reject', reason: 'unknown signing key' });
    expect(issuer.hits.jwks - before.jwks).toBe(2);

    // Published now, but we looked 10 s ago: refused without a fetch.
    issuer.publish(next);
    clock.advance(10);
    expect(await bearer(rotated)).toEqual({ result: 'reject', reason: 'unknown signing key' });
    expect(issuer.hits.jwks - before.jwks).toBe(2);

    // After the window the unknown kid triggers the refetch that finds it.
    clock.advance(21);
    expect(await bearer(rotated)).toMatchObject({ result: 'accept', caller: { subject: `oidc:${issuer.url}#user-1` } });
    expect(issuer.hits.jwks - before.jwks).toBe(3);
    // Known keys need no fetch; discovery happened once in all.
    expect(await bearer(await issuer.sign(claims()))).toMatchObject({ result: 'accept' });
    expect(issuer.hits.jwks - before.jwks).toBe(3);
    expect(issuer.hits.discovery - before.discovery).toBe(1);
  });

  it('a key the issuer withdrew stops working once the cached set is refreshed', async () => {
    const { clock, link } = authenticator([], { jwksMaxAgeMs: 60_000 });
    const retiring = await issuer.newKey();
    issuer.publish(retiring);
    const token = await issuer.sign(claims({ exp: T0 + 7200 }), { key: retiring });
    expect(await link.authenticate({ kind: 'bearer', token })).toMatchObject({ result: 'accept' });
    issuer.withdraw(retiring.kid);
    clock.advance(59);
    expect(await link.authenticate({ kind: 'bearer', token })).toMatchObject({ result: 'accept' });
    clock.advance(2);
    expect(await link.authenticate({ kind: 'bearer', token })).toEqual({ result: 'reject', reason: 'unknown signing key' });
  });

  it('concurrent first requests share one discovery and one JWKS fetch', async () => {
    const { link } = authenticator();
    const before = { ...issuer.hits };
    const token = await issuer.sign(claims());
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => link.authenticate({ kind: 'bearer', token })));
    expect(outcomes.every((o) => o.result === 'accept')).toBe(true);
    expect(issuer.hits.discovery - before.discovery).toBe(1);
    expect(issuer.hits.jwks - before.jwks).toBe(1);
  });
});

describe('issuer trouble fails closed', () => {
  it('an unreachable issuer refuses tokens and is not hammered', async () => {
    let calls = 0;
    const failingFetch: typeof fetch = async () => {
      calls++;
      throw new TypeError('fetch failed');
    };
    const { clock, link } = authenticator([], { fetch: failingFetch });
    const token = await issuer.sign(claims());
    expect(await link.authenticate({ kind: 'bearer', token })).toEqual({ result: 'reject', reason: 'identity provider signing keys unavailable' });
    expect(await link.authenticate({ kind: 'bearer', token })).toEqual({ result: 'reject', reason: 'identity provider signing keys unavailable' });
    expect(calls).toBe(1);
    clock.advance(30);
    await link.authenticate({ kind: 'bearer', token });
    expect(calls).toBe(2);
  });

  it('a discovery document naming another issuer is not trusted', async () => {
    const config = oidcConfig(`${issuer.url}/`); // same server, but not the identifier it announces
    const link = oidcAuthenticator(config, { clock: testClock().now });
    const token = await issuer.sign(claims({ iss: `${issuer.url}/` }));
    expect(await link.authenticate({ kind: 'bearer', token })).toEqual({ result: 'reject', reason: 'identity provider signing keys unavailable' });
  });
});

describe('place in the authentication chain', () => {
  const chain = () => [apiKeyAuthenticator([{ key: 'svc-key-123', name: 'etl', roles: ['loader'] }]), authenticator().link];

  it('API keys still authenticate through the link before it', async () => {
    const decision = await authenticateCredentials(chain(), extractCredentials({ authorization: 'Bearer svc-key-123' }), false);
    expect(decision).toMatchObject({ ok: true, caller: { subject: 'apikey:etl', name: 'etl', authType: 'apikey' } });
  });

  it('a bearer that is neither a known API key nor a JWT is invalid, with the reason', async () => {
    const decision = await authenticateCredentials(chain(), extractCredentials({ authorization: 'Bearer some-unknown-key' }), true);
    expect(decision).toEqual({ ok: false, error: 'invalid_token', description: 'malformed token' });
  });

  it('an OIDC token authenticates through the chain', async () => {
    const token = await issuer.sign(claims());
    const decision = await authenticateCredentials(chain(), extractCredentials({ authorization: `Bearer ${token}` }), false);
    expect(decision).toMatchObject({ ok: true, caller: { subject: `oidc:${issuer.url}#user-1`, roles: ['analyst', 'admin'], authType: 'oidc' } });
  });

  it('X-API-Key credentials are not its business', async () => {
    expect(await authenticator().link.authenticate({ kind: 'apikey', key: 'x' })).toEqual({ result: 'pass' });
  });

  it('never writes the token to the log', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const log = pino({ level: 'trace' }, sink);
    const { link } = authenticator([], { log });
    const tokens = [await issuer.sign(claims()), await issuer.sign(claims({ exp: T0 - 100 })), issuer.unsigned(claims())];
    for (const token of tokens) await link.authenticate({ kind: 'bearer', token });
    const output = lines.join('');
    expect(output).toContain('OIDC token refused');
    for (const token of tokens) {
      for (const part of token.split('.').filter((p) => p.length > 0)) expect(output).not.toContain(part);
    }
  });
});
