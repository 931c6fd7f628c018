import { describe, expect, it } from 'vitest';
import { checkClaims, claimAtPath, oidcCaller, rolesFromClaims, type Claims } from '../../shared/identity/index.js';

const now = 2_000_000_000;
const expect_ = { issuer: 'https://idp.example', audience: 'platform', clockSkewSeconds: 30 };
const base: Claims = { iss: 'https://idp.example', sub: 'u1', aud: 'platform', iat: now - 10, exp: now + 300 };

function without(claims: Claims, name: string): Claims {
  const { [name]: _dropped, ...rest } = claims;
  return rest;
}

describe('checkClaims (spec order, first failure wins)', () => {
  it.each<{ name: string; claims: Claims; opts?: Partial<typeof expect_> & { maxTokenAgeSeconds?: number }; reason?: string }>([
    { name: 'valid', claims: base },
    { name: 'no sub', claims: without(base, 'sub'), reason: 'token has no sub claim' },
    { name: 'empty sub', claims: { ...base, sub: '' }, reason: 'token has no sub claim' },
    { name: 'numeric sub', claims: { ...base, sub: 42 }, reason: 'token has no sub claim' },
    { name: 'no exp', claims: without(base, 'exp'), reason: 'token has no exp claim' },
    { name: 'exp as a string', claims: { ...base, exp: String(now + 300) }, reason: 'token has a malformed time claim' },
    { name: 'exp exactly at now - skew', claims: { ...base, exp: now - 30 }, reason: 'token expired' },
    { name: 'exp just inside the skew', claims: { ...base, exp: now - 29 } },
    { name: 'nbf beyond skew', claims: { ...base, nbf: now + 31 }, reason: 'token not yet valid (nbf)' },
    { name: 'nbf within skew', claims: { ...base, nbf: now + 30 } },
    { name: 'iat beyond skew', claims: { ...base, iat: now + 31 }, reason: 'token issued in the future (iat)' },
    { name: 'iat within skew', claims: { ...base, iat: now + 30 } },
    { name: 'too old', claims: { ...base, iat: now - 631 }, opts: { maxTokenAgeSeconds: 600 }, reason: 'token older than max_token_age' },
    { name: 'old but within age + skew', claims: { ...base, iat: now - 630 }, opts: { maxTokenAgeSeconds: 600 } },
    { name: 'max age without iat', claims: without(base, 'iat'), opts: { maxTokenAgeSeconds: 600 }, reason: 'token has no iat claim (required by max_token_age)' },
    { name: 'no iat, no max age', claims: without(base, 'iat') },
    { name: 'wrong issuer', claims: { ...base, iss: 'https://idp.example/' }, reason: 'token issuer mismatch' },
    { name: 'wrong audience', claims: { ...base, aud: 'other' }, reason: 'token audience mismatch' },
    { name: 'audience in an array', claims: { ...base, aud: ['other', 'platform'] } },
    { name: 'no audience claim', claims: without(base, 'aud'), reason: 'token audience mismatch' },
    { name: 'audience not configured', claims: { ...base, aud: 'anything' }, opts: { audience: undefined } },
    // Order: an expired token with a wrong issuer reports the expiry (time rules come first).
    { name: 'expired and wrong issuer', claims: { ...base, exp: now - 100, iss: 'x' }, reason: 'token expired' },
    { name: 'no sub and expired', claims: { ...without(base, 'sub'), exp: now - 100 }, reason: 'token has no sub claim' },
  ])('$name', ({ claims, opts, reason }) => {
    const verdict = checkClaims(claims, { ...expect_, ...opts }, now);
    expect(verdict).toEqual(reason ? { ok: false, reason } : { ok: true });
  });
});

describe('roles from role_claim_path and role_prefix', () => {
  const claims: Claims = {
    realm_access: { roles: ['platform-analyst', 'platform-admin', 'offline_access', 'platform-', 7, 'platform-analyst'] },
    group: 'platform-ops',
    'https://example.com/roles': ['a', 'b'],
    resource_access: { platform: { roles: ['x'] } },
  };
  it.each<{ path: string | undefined; prefix: string | undefined; roles: string[] }>([
    { path: 'realm_access.roles', prefix: 'platform-', roles: ['analyst', 'admin'] },
    { path: 'realm_access.roles', prefix: undefined, roles: ['platform-analyst', 'platform-admin', 'offline_access', 'platform-'] },
    { path: 'group', prefix: 'platform-', roles: ['ops'] },
    { path: 'https://example.com/roles', prefix: undefined, roles: ['a', 'b'] },
    { path: 'resource_access.platform.roles', prefix: '', roles: ['x'] },
    { path: 'realm_access.missing', prefix: undefined, roles: [] },
    { path: 'realm_access', prefix: undefined, roles: [] },
    { path: undefined, prefix: 'platform-', roles: [] },
  ])('$path with prefix $prefix → $roles', ({ path, prefix, roles }) => {
    expect(rolesFromClaims(claims, path, prefix)).toEqual(roles);
  });

  it('does not walk into inherited properties', () => {
    expect(claimAtPath({ a: {} }, 'a.constructor')).toBeUndefined();
    expect(claimAtPath({}, 'toString')).toBeUndefined();
  });
});

// Issue 9 item 4: the subject is namespaced by issuer; the provider's own sub is kept for display and user mapping.
describe('oidcCaller', () => {
  it('names the caller oidc:<issuer>#<sub> and keeps the raw sub apart', () => {
    const caller = oidcCaller({ ...base, sub: 'alice#x', email: 'a@example.com', roles: ['r'] }, { issuer: 'https://idp.example', role_claim_path: 'roles' });
    expect(caller).toEqual({ subject: 'oidc:https://idp.example#alice#x', idpSubject: 'alice#x', email: 'a@example.com', roles: ['r'], authType: 'oidc' });
  });
});
