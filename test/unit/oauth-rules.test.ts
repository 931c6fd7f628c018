/**
 * The OAuth server's pure rules: redirect URI matching (exact, loopback ports), DCR patterns
 * (whole-URI), PKCE S256, resource indicators, the signing key, access tokens and the consent seal.
 */
import { describe, expect, it } from 'vitest';
import {
  AccessTokens,
  ConsentSeal,
  accessTokenKey,
  compileRedirectPatterns,
  isValidVerifier,
  loopbackSpellingOf,
  memoryOAuthStore,
  redirectUriAllowedByPatterns,
  redirectUriMatches,
  resolveResource,
  verifierMatches,
} from '../../shared/oauth/index.js';
import { s256Challenge } from '../../shared/identity/oidc-relying-party.js';
import { parseConfig } from '../../shared/config/index.js';
import { refreshGrant } from '../support/oauth-records.js';

describe('redirect URIs', () => {
  const registered = ['http://127.0.0.1/callback', 'http://localhost:6274/oauth/callback', 'https://claude.ai/api/mcp/auth_callback'];
  it.each([
    ['exact https', 'https://claude.ai/api/mcp/auth_callback', true],
    ['loopback IP, any port', 'http://127.0.0.1:53682/callback', true],
    ['localhost, another port', 'http://localhost:7000/oauth/callback', true],
    ['https with another port', 'https://claude.ai:444/api/mcp/auth_callback', false],
    ['loopback, another path', 'http://127.0.0.1:53682/callback/x', false],
    ['loopback, a query added', 'http://127.0.0.1:53682/callback?next=x', false],
    ['https loopback is not the http one', 'https://127.0.0.1/callback', false],
    ['a fragment', 'https://claude.ai/api/mcp/auth_callback#x', false],
    ['credentials in the URL', 'https://user:pw@claude.ai/api/mcp/auth_callback', false],
    ['a lookalike host', 'http://127.0.0.1.evil.example/callback', false],
    ['not a URL', 'callback', false],
  ])('%s', (_name, uri, expected) => {
    expect(redirectUriMatches(uri, registered)).toBe(expected);
  });

  it('DCR patterns match the whole URI, never a part of it', () => {
    const patterns = compileRedirectPatterns(['https://claude\\.ai/api/mcp/auth_callback', 'http://127\\.0\\.0\\.1(:\\d+)?/callback']);
    expect(redirectUriAllowedByPatterns('https://claude.ai/api/mcp/auth_callback', patterns)).toBe(true);
    expect(redirectUriAllowedByPatterns('http://127.0.0.1:9/callback', patterns)).toBe(true);
    expect(redirectUriAllowedByPatterns('https://evil.example/?https://claude.ai/api/mcp/auth_callback', patterns)).toBe(false);
    expect(redirectUriAllowedByPatterns('https://claude.ai/api/mcp/auth_callbackX', patterns)).toBe(false);
    // An alternation in a pattern stays inside the anchors.
    const alternation = compileRedirectPatterns(['https://a\\.example/cb|https://b\\.example/cb']);
    expect(redirectUriAllowedByPatterns('https://b.example/cb', alternation)).toBe(true);
    expect(redirectUriAllowedByPatterns('https://a.example/cb.evil.example', alternation)).toBe(false);
  });
});

describe('DCR patterns and loopback ports (RFC 8252 §7.3)', () => {
  const patterns = compileRedirectPatterns(['http://(127\\.0\\.0\\.1|localhost|\\[::1\\])/callback', 'http://localhost:6274/oauth/callback', 'http://intranet\\.example/callback', 'https://claude\\.ai/api/mcp/auth_callback']);
  it.each([
    ['a portless loopback pattern admits any port', 'http://127.0.0.1:6276/callback', true],
    ['… on localhost', 'http://localhost:53682/callback', true],
    ['… on [::1]', 'http://[::1]:53682/callback', true],
    ['… and the URI without a port', 'http://127.0.0.1/callback', true],
    ['a pattern naming a port keeps it', 'http://localhost:7000/oauth/callback', false],
    ['the port only: a query still has to match', 'http://127.0.0.1:6276/callback?next=x', false],
    ['the port only: the path still has to match', 'http://127.0.0.1:6276/callback/x', false],
    ['not for https loopback', 'https://127.0.0.1:6276/callback', false],
    ['not for a non-loopback http host', 'http://intranet.example:8080/callback', false],
    ['not for https hosts', 'https://claude.ai:444/api/mcp/auth_callback', false],
    ['not for a loopback-looking host', 'http://127.0.0.1.evil.example:80/callback', false],
  ])('%s: %s', (_name, uri, expected) => {
    expect(redirectUriAllowedByPatterns(uri, patterns)).toBe(expected);
  });
});

describe('PKCE', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  it('verifies the RFC 7636 appendix B example', () => {
    expect(s256Challenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });
  it('refuses another verifier, a malformed one, and a verifier equal to the challenge (plain)', () => {
    const challenge = s256Challenge(verifier);
    expect(verifierMatches(`${verifier.slice(0, -1)}A`, challenge)).toBe(false);
    expect(verifierMatches(challenge, challenge)).toBe(false);
    expect(isValidVerifier('short')).toBe(false);
    expect(isValidVerifier('x'.repeat(129))).toBe(false);
    expect(isValidVerifier('a'.repeat(43) + ' ')).toBe(false);
  });
});

describe('resource indicators', () => {
  const ours = 'http://platform.example:8080/mcp';
  it.each([
    [undefined, ours],
    ['', ours],
    ['http://platform.example:8080/mcp', ours],
    ['http://platform.example:8080/mcp/', ours],
    ['HTTP://PLATFORM.EXAMPLE:8080/mcp', ours],
    ['http://platform.example:8080', ours],
    ['http://platform.example:8080/', ours],
    ['http://platform.example:8080/other', undefined],
    ['http://platform.example:8081/mcp', undefined],
    ['https://platform.example:8080/mcp', undefined],
    ['http://platform.example:8080/mcp#x', undefined],
    ['not a url', undefined],
  ])('%s → %s', (requested, expected) => {
    expect(resolveResource(requested, ours)).toBe(expected);
  });
});

describe('resource indicators on a loopback deployment', () => {
  it.each([
    ['http://localhost:8080/mcp', 'http://127.0.0.1:8080/mcp', 'http://127.0.0.1:8080/mcp'],
    ['http://LOCALHOST:8080/mcp/', 'http://127.0.0.1:8080/mcp', 'http://127.0.0.1:8080/mcp'],
    ['http://localhost:8080', 'http://127.0.0.1:8080/mcp', 'http://127.0.0.1:8080/mcp'],
    ['http://127.0.0.1:8080/mcp', 'http://localhost:8080/mcp', 'http://localhost:8080/mcp'],
    ['http://[::1]:8080/mcp', 'http://localhost:8080/mcp', 'http://localhost:8080/mcp'],
    ['http://localhost:8081/mcp', 'http://127.0.0.1:8080/mcp', undefined],
    ['https://localhost:8080/mcp', 'http://127.0.0.1:8080/mcp', undefined],
    ['http://localhost:8080/other', 'http://127.0.0.1:8080/mcp', undefined],
    ['http://127.0.0.2:8080/mcp', 'http://127.0.0.1:8080/mcp', undefined],
    // A public deployment's resource is exactly its own.
    ['http://localhost/mcp', 'https://mcp.example.com/mcp', undefined],
    ['http://localhost:8080/mcp', 'http://mcp.example.com:8080/mcp', undefined],
  ])('%s for %s → %s', (requested, ours, expected) => {
    expect(resolveResource(requested, ours)).toBe(expected);
  });

  it.each([
    ['http://127.0.0.1:8080', 'localhost:8080', 'http://localhost:8080'],
    ['http://localhost:8080', '127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080', '[::1]:8080', 'http://[::1]:8080'],
    ['http://127.0.0.1', 'localhost', 'http://localhost'],
    ['http://127.0.0.1:8080/base', 'localhost:8080', 'http://localhost:8080/base'],
    ['http://127.0.0.1:8080', 'localhost:8081', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080', 'evil.example:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080', 'localhost:8080/x', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080', undefined, 'http://127.0.0.1:8080'],
    ['https://mcp.example.com', 'localhost', 'https://mcp.example.com'],
    ['https://127.0.0.1:8443', 'localhost:8443', 'https://127.0.0.1:8443'],
  ])('base %s asked as Host %s → %s', (base, host, expected) => {
    expect(loopbackSpellingOf(base, host)).toBe(expected);
  });
});

describe('signing key', () => {
  it('takes base64 of ≥ 32 bytes, else the raw string of ≥ 32 bytes; generates one when absent', () => {
    const b64 = Buffer.alloc(32, 9).toString('base64');
    expect(Buffer.from(accessTokenKey(b64).key)).toEqual(Buffer.alloc(32, 9));
    const raw = 'a raw passphrase of at least 32 bytes!';
    expect(Buffer.from(accessTokenKey(raw).key).toString()).toBe(raw);
    expect(accessTokenKey(undefined).generated).toBe(true);
    expect(() => accessTokenKey('too short')).toThrow(/at least 32 bytes/);
  });

  it('the config refuses a signing key shorter than 32 bytes', () => {
    expect(() => parseConfig('oauth:\n  enabled: true\n  issuer: https://p.example\n  signing_key: short\n', {})).toThrow(/oauth\.signing_key: expected at least 32 bytes/);
  });
});

describe('access tokens', () => {
  const key = new Uint8Array(32).fill(3);
  const identity = { issuer: 'https://idp.example', sub: 'u1', roles: ['analyst'], email: 'u1@example.com' };
  const resource = 'https://p.example/mcp';
  let now = 1_800_000_000_000;
  const store = memoryOAuthStore();
  const tokens = new AccessTokens({ issuer: 'https://p.example', key, upstreamIssuer: 'https://idp.example', families: store, clock: () => now });

  /** A sign-in's family in the store, as redeeming its code starts it. */
  async function family(endsAt = now + 30 * 86_400_000): Promise<{ familyId: string; familyEndsAt: number }> {
    const grant = refreshGrant({ expiresAt: endsAt });
    await store.saveRefreshGrant(grant);
    return { familyId: grant.familyId, familyEndsAt: endsAt };
  }

  it('round-trips to the upstream OIDC identity as auth type oauth', async () => {
    const { token } = await tokens.mint({ identity, clientId: 'c', resource, ...(await family()) });
    expect(await tokens.verify(token, resource)).toEqual({
      ok: true,
      caller: { subject: 'oidc:https://idp.example#u1', idpSubject: 'u1', email: 'u1@example.com', roles: ['analyst'], authType: 'oauth' },
    });
  });

  it('refuses another audience, another upstream, expiry past the skew', async () => {
    const { token } = await tokens.mint({ identity, clientId: 'c', resource, ...(await family()) });
    expect((await tokens.verify(token, 'https://other.example/mcp')).ok).toBe(false);
    const otherIdp = new AccessTokens({ issuer: 'https://p.example', key, upstreamIssuer: 'https://idp2.example', families: store, clock: () => now });
    expect((await otherIdp.verify(token, resource)).ok).toBe(false);
    now += 3600_000 + 31_000;
    expect(await tokens.verify(token, resource)).toEqual({ ok: false, reason: 'token expired' });
  });

  it('a token of a revoked family is refused at once, however fresh its signature', async () => {
    const signIn = await family();
    const { token } = await tokens.mint({ identity, clientId: 'c', resource, ...signIn });
    expect((await tokens.verify(token, resource)).ok).toBe(true);
    await store.revokeFamily(signIn.familyId);
    expect(await tokens.verify(token, resource)).toEqual({ ok: false, reason: 'access token revoked' });
  });

  it('a token of a family the store does not know is refused (fail closed)', async () => {
    const { token } = await tokens.mint({ identity, clientId: 'c', resource, familyId: 'never-stored', familyEndsAt: now + 86_400_000 });
    expect(await tokens.verify(token, resource)).toEqual({ ok: false, reason: 'access token revoked' });
  });

  it('never outlives its family: exp is capped at the family end', async () => {
    const { token, expiresIn } = await tokens.mint({ identity, clientId: 'c', resource, ...(await family(now + 600_000)) });
    expect(expiresIn).toBe(600);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number };
    expect(claims.exp - claims.iat).toBe(600);
  });
});

describe('consent seal', () => {
  let now = 1_800_000_000_000;
  const seal = new ConsentSeal(new Uint8Array(32).fill(5), () => now);
  it('approves client ids cumulatively; a tampered or expired cookie approves nothing', () => {
    const one = seal.approve(undefined, 'a');
    const two = seal.approve(one, 'b');
    expect(seal.approved(two)).toEqual(['a', 'b']);
    const [body, mac] = two.split('.');
    const forged = Buffer.from(JSON.stringify({ clients: ['a', 'b', 'evil'], exp: now + 1e9 })).toString('base64url');
    expect(seal.approved(`${forged}.${mac}`)).toEqual([]);
    expect(seal.approved(`${body}.x${mac!.slice(1)}`)).toEqual([]);
    now += 181 * 24 * 3600_000;
    expect(seal.approved(two)).toEqual([]);
  });
  it('a CSRF token is bound to the browser nonce and the client id', () => {
    const token = seal.csrfToken('nonce-1', 'client-a');
    expect(seal.csrfValid('nonce-1', 'client-a', token)).toBe(true);
    expect(seal.csrfValid('nonce-2', 'client-a', token)).toBe(false);
    expect(seal.csrfValid('nonce-1', 'client-b', token)).toBe(false);
    expect(seal.csrfValid(undefined, 'client-a', token)).toBe(false);
  });
});
