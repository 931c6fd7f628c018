/**
 * The claim rules of spec document 1, "Token validation", as pure functions of the (already
 * signature-checked) claims and the current time. Times are NumericDates: seconds since the epoch.
 */

export type Claims = Record<string, unknown>;

export interface ClaimExpectations {
  issuer: string;
  /** Checked when set (the config fills it from `client_id`). */
  audience?: string | undefined;
  clockSkewSeconds: number;
  /** `max_token_age`, in seconds. */
  maxTokenAgeSeconds?: number | undefined;
}

export type ClaimVerdict = { ok: true } | { ok: false; reason: string };

const reject = (reason: string): ClaimVerdict => ({ ok: false, reason });

function numericDate(claims: Claims, name: string): number | undefined | 'invalid' {
  const value = claims[name];
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : 'invalid';
}

/**
 * Checks in the spec's order, first failure wins: `sub` and `exp` present; `exp`, `nbf`, `iat`
 * within the clock skew; `max_token_age`; issuer; audience. Each reason names the rule, never a
 * claim value (reasons end up in WWW-Authenticate and logs).
 */
export function checkClaims(claims: Claims, expect: ClaimExpectations, nowSeconds: number): ClaimVerdict {
  if (typeof claims.sub !== 'string' || claims.sub === '') return reject('token has no sub claim');
  const exp = numericDate(claims, 'exp');
  if (exp === undefined) return reject('token has no exp claim');
  const nbf = numericDate(claims, 'nbf');
  const iat = numericDate(claims, 'iat');
  if (exp === 'invalid' || nbf === 'invalid' || iat === 'invalid') return reject('token has a malformed time claim');

  const skew = expect.clockSkewSeconds;
  if (nowSeconds - skew >= exp) return reject('token expired');
  if (nbf !== undefined && nowSeconds + skew < nbf) return reject('token not yet valid (nbf)');
  if (iat !== undefined && nowSeconds + skew < iat) return reject('token issued in the future (iat)');
  if (expect.maxTokenAgeSeconds !== undefined) {
    // Without iat the age is unknown: fail closed rather than treat the token as young.
    if (iat === undefined) return reject('token has no iat claim (required by max_token_age)');
    if (nowSeconds - iat - skew > expect.maxTokenAgeSeconds) return reject('token older than max_token_age');
  }

  if (claims.iss !== expect.issuer) return reject('token issuer mismatch');
  if (expect.audience !== undefined) {
    const aud = claims.aud;
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    if (!audiences.includes(expect.audience)) return reject('token audience mismatch');
  }
  return { ok: true };
}

/**
 * When claims that passed checkClaims stop passing, in seconds: `exp`, or the end of
 * `max_token_age` when that comes first. The clock skew is left out, so the answer errs early.
 */
export function claimsValidUntil(claims: Claims, expect: ClaimExpectations): number {
  const exp = claims.exp as number;
  const iat = claims.iat;
  return expect.maxTokenAgeSeconds !== undefined && typeof iat === 'number' ? Math.min(exp, iat + expect.maxTokenAgeSeconds) : exp;
}

/**
 * The value at a dotted path (`realm_access.roles`). A top-level claim whose name is the whole
 * path wins, so namespaced claims such as `https://example.com/roles` work too.
 */
export function claimAtPath(claims: Claims, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let node: unknown = claims;
  for (const segment of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/**
 * Roles from `role_claim_path`: an array of strings or a single string (anything else: none).
 * With `role_prefix`, only roles carrying the prefix count, and they lose it
 * (`platform-analyst` → `analyst`); a role that is just the prefix is dropped.
 */
export function rolesFromClaims(claims: Claims, path: string | undefined, prefix: string | undefined): string[] {
  if (!path) return [];
  const value = claimAtPath(claims, path);
  const raw = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
  const roles = prefix ? raw.filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length)) : raw;
  return [...new Set(roles.filter((r) => r !== ''))];
}

export function stringClaim(claims: Claims, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
