import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { BrowserSessions, type LoginState, type SessionUser } from '../../shared/identity/index.js';
import { callbackUrl, safeReturnPath } from '../../api/portal-auth/http-rules.js';

const idp = 'https://idp.example/realms/main';
const key = randomBytes(32);
const ttlSeconds = 8 * 3600;
const start = Date.parse('2030-01-01T00:00:00Z');
const user: SessionUser = { sub: 'u-42', name: 'Ada', email: 'ada@example.com', roles: ['analyst'] };

function sessions(opts: { at?: number; signingKey?: Buffer; ttl?: number; issuer?: string } = {}): BrowserSessions {
  const now = opts.at ?? start;
  return new BrowserSessions({ signingKey: opts.signingKey ?? key, ttlSeconds: opts.ttl ?? ttlSeconds, idpIssuer: opts.issuer ?? idp, clock: () => now });
}

/** The token with one character of the given segment (0 header, 1 payload, 2 signature) changed. */
function flipped(token: string, segment: number): string {
  const parts = token.split('.');
  const s = parts[segment]!;
  const i = Math.floor(s.length / 2);
  parts[segment] = `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
  return parts.join('.');
}

describe('BrowserSessions: the session cookie', () => {
  it('issues a token that verifies to the OIDC identity of the person, as a browser_session caller', async () => {
    const { token, session } = await sessions().issue(user);
    expect(token.split('.')).toHaveLength(3);
    const verdict = await sessions({ at: start + 60_000 }).verify(token);
    expect(verdict).toEqual({ ok: true, session });
    expect(session.caller).toEqual({
      subject: `oidc:${idp}#u-42`,
      idpSubject: 'u-42',
      name: 'Ada',
      email: 'ada@example.com',
      roles: ['analyst'],
      authType: 'browser_session',
    });
    expect(session.expiresAt.toISOString()).toBe('2030-01-01T08:00:00.000Z');
  });

  it('refuses a session once ttl has passed (and not a few seconds before)', async () => {
    const { token } = await sessions().issue(user);
    expect((await sessions({ at: start + ttlSeconds * 1000 - 1000 }).verify(token)).ok).toBe(true);
    expect(await sessions({ at: start + ttlSeconds * 1000 + 5000 }).verify(token)).toEqual({ ok: false, reason: 'session expired' });
  });

  it('ends sessions at once when ttl is shortened', async () => {
    const { token } = await sessions().issue(user);
    expect(await sessions({ at: start + 3600_000, ttl: 1800 }).verify(token)).toEqual({ ok: false, reason: 'session expired' });
  });

  it('refuses a token with a changed header, payload or signature', async () => {
    const { token } = await sessions().issue(user);
    for (const segment of [0, 1, 2]) {
      const verdict = await sessions().verify(flipped(token, segment));
      expect(verdict.ok, `segment ${segment}`).toBe(false);
    }
  });

  it('refuses a token signed with another key (key rotation signs everyone out)', async () => {
    const { token } = await sessions({ signingKey: randomBytes(32) }).issue(user);
    expect(await sessions().verify(token)).toEqual({ ok: false, reason: 'signature invalid (tampered, or signed with another key)' });
  });

  it('refuses alg none and HS512 even with the right key', async () => {
    const { token } = await sessions().issue(user);
    const [, payload] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect((await sessions().verify(none)).ok).toBe(false);
    const hs512 = await new SignJWT({ idp, roles: [] }).setProtectedHeader({ alg: 'HS512' }).setIssuer('platform:browser-session').setSubject('u').setIssuedAt(start / 1000).setExpirationTime(start / 1000 + 60).setJti('j').sign(key);
    expect(await sessions().verify(hs512)).toEqual({ ok: false, reason: 'algorithm not allowed' });
  });

  it('refuses a session of another identity provider', async () => {
    const { token } = await sessions({ issuer: 'https://other.example' }).issue(user);
    expect(await sessions().verify(token)).toEqual({ ok: false, reason: 'session of another identity provider' });
  });

  it('never accepts a login-state token as a session, nor a session as login state', async () => {
    const login: LoginState = { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/portal/', redirectUri: 'https://p.example/portal/auth/callback' };
    const sealed = await sessions().sealLoginState(login);
    expect((await sessions().verify(sealed)).ok).toBe(false);
    const sessionShapedLogin = await new SignJWT({ idp, roles: [] }).setProtectedHeader({ alg: 'HS256' }).setIssuer('platform:browser-login').setSubject('u').setIssuedAt(start / 1000).setExpirationTime(start / 1000 + 60).setJti('j').sign(key);
    expect(await sessions().verify(sessionShapedLogin)).toEqual({ ok: false, reason: 'claim iss invalid' });
    const { token } = await sessions().issue(user);
    expect(await sessions().openLoginState(token)).toBeUndefined();
  });
});

describe('BrowserSessions: CSRF tokens', () => {
  it('gives each session its own token, checked in constant time', async () => {
    const a = (await sessions().issue(user)).session;
    const b = (await sessions().issue(user)).session;
    const tokenA = sessions().csrfToken(a);
    expect(tokenA).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions().csrfTokenValid(a, tokenA)).toBe(true);
    expect(sessions().csrfTokenValid(b, tokenA)).toBe(false);
    expect(sessions().csrfTokenValid(a, tokenA.slice(1))).toBe(false);
    expect(sessions().csrfTokenValid(a, '')).toBe(false);
  });

  it('binds the token to the signing key', async () => {
    const { session } = await sessions().issue(user);
    expect(sessions({ signingKey: randomBytes(32) }).csrfToken(session)).not.toBe(sessions().csrfToken(session));
  });
});

describe('BrowserSessions: login state', () => {
  const login: LoginState = { state: 'st', nonce: 'no', codeVerifier: 'cv', returnTo: '/portal/x?y=1', redirectUri: 'http://127.0.0.1:9/portal/auth/callback' };

  it('round-trips within 10 minutes and not after', async () => {
    const sealed = await sessions().sealLoginState(login);
    expect(await sessions({ at: start + 599_000 }).openLoginState(sealed)).toEqual(login);
    expect(await sessions({ at: start + 606_000 }).openLoginState(sealed)).toBeUndefined();
  });

  it('refuses a tampered or foreign-key login state', async () => {
    const sealed = await sessions().sealLoginState(login);
    expect(await sessions().openLoginState(flipped(sealed, 1))).toBeUndefined();
    expect(await sessions({ signingKey: randomBytes(32) }).openLoginState(sealed)).toBeUndefined();
  });
});

describe('portal sign-in rules', () => {
  it.each([
    ['/portal/', '/portal/'],
    ['/api/v1/portal/session', '/api/v1/portal/session'],
    ['/portal/files?path=global%2Fa#top', '/portal/files?path=global%2Fa#top'],
    ['//evil.example/', undefined],
    ['/\\evil.example', undefined],
    ['https://evil.example/', undefined],
    ['evil.example', undefined],
    ['/\t/evil.example', undefined],
    ['javascript:alert(1)', undefined],
    ['', undefined],
    // Echoed into the Location header: nothing a header cannot carry, nothing that splits a line.
    ['/portal/\u2028', undefined],
    ['/portal/\u2029x', undefined],
    ['/portal/\u0085', undefined],
    ['/portal/\r\nSet-Cookie:x=1', undefined],
    ['/portal/a b', undefined],
    ['/portal/\u00e9', undefined],
    ['/portal/%C3%A9?q=%E2%80%A8', '/portal/%C3%A9?q=%E2%80%A8'],
  ])('safeReturnPath(%j) = %j', (given, expected) => {
    expect(safeReturnPath(given)).toBe(expected);
  });

  it('sends the provider <base>/portal/auth/callback, base configured or else the request origin', () => {
    const request = { protocol: 'http', host: '127.0.0.1:8080' };
    expect(callbackUrl('https://data.example/', request)).toBe('https://data.example/portal/auth/callback');
    expect(callbackUrl(undefined, request)).toBe('http://127.0.0.1:8080/portal/auth/callback');
    expect(callbackUrl(undefined, { protocol: 'http', host: 'bad host/' })).toBeUndefined();
  });
});
