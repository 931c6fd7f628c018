import type { PlatformConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import type { Authenticator } from './authenticator.js';
import { vouchedCaller, type CallerContext } from './caller.js';
import { checkClaims, claimsValidUntil, rolesFromClaims, stringClaim, type Claims } from './oidc-claims.js';
import { IssuerKeys } from './jwks.js';
import { verifyIssuerSignature } from './signed-token.js';
import { credentialDigest } from './api-keys.js';
import { VerifiedCredentials } from './verified-cache.js';

export { oidcAlgorithms } from './signed-token.js';

export type OidcConfig = PlatformConfig['auth']['oidc'];

export interface OidcAuthenticatorOptions {
  fetch?: typeof globalThis.fetch;
  /** Milliseconds since the epoch; drives both the claim times and the key-cache timers. */
  clock?: () => number;
  log?: Logger;
  /** Minimum time between two JWKS fetches (an unknown `kid` or a stale set triggers one). Default 30 s. */
  jwksRefetchIntervalMs?: number;
  /** Age after which the cached JWKS is refreshed on next use. Default 10 min. */
  jwksMaxAgeMs?: number;
  /** Timeout of one discovery or JWKS request. Default 5 s. */
  fetchTimeoutMs?: number;
  /**
   * How long a verified token is accepted again without verifying it; never past its `exp`, its
   * `max_token_age`, or the age at which the key set is refreshed. Default 30 s.
   */
  verifiedTtlMs?: number;
  /** Most verified tokens remembered. Default 10,000. */
  verifiedMaxEntries?: number;
}

/** A verdict on a token; an accepted one holds until `validUntilMs` at the latest (token expiry, key-set age). */
type TokenVerdict = { result: 'accept'; caller: CallerContext; validUntilMs: number } | { result: 'reject'; reason: string };

/**
 * The caller a verified token names: subject `oidc:<issuer>#<sub>` (the issuer is the configured
 * one, which checkClaims made the token's `iss` equal), the raw `sub` kept as `idpSubject`.
 */
export function oidcCaller(claims: Claims, config: { issuer: string } & Pick<OidcConfig, 'role_claim_path' | 'role_prefix'>): CallerContext {
  return vouchedCaller(
    {
      issuer: config.issuer,
      sub: claims.sub as string,
      name: stringClaim(claims, 'name') ?? stringClaim(claims, 'preferred_username'),
      email: stringClaim(claims, 'email'),
      roles: rolesFromClaims(claims, config.role_claim_path, config.role_prefix),
    },
    'oidc',
  );
}

/**
 * OIDC bearer tokens (spec document 1, "Token validation"): the signature against the issuer's
 * JWKS, then the claim rules in the spec's order (see checkClaims), then roles from
 * `role_claim_path`. Every failure is a `reject` with a specific reason; the token itself is never
 * logged.
 *
 * Chain position: the API-key link runs first and passes on bearer tokens it does not know, so a
 * bearer reaching this link that is not a JWS at all is simply invalid and is rejected (not
 * passed). `X-API-Key` credentials are not ours and are passed. A link for tokens from the
 * platform's own OAuth server must therefore sit before this one.
 *
 * An accepted token is remembered by its digest (VerifiedCredentials) until `verifiedTtlMs`
 * passes, its claims would fail the time checks, or the key set that verified it is due for a
 * refresh, whichever is first; the requests of a session reuse the verdict instead of checking the
 * signature again, and a withdrawn signing key stops working exactly as without the cache.
 */
export function oidcAuthenticator(config: OidcConfig, opts: OidcAuthenticatorOptions = {}): Authenticator {
  if (!config.issuer) throw new Error('auth.oidc.issuer is required for OIDC authentication');
  const issuer: string = config.issuer;
  const clock = opts.clock ?? Date.now;
  const log = opts.log;
  const keys = new IssuerKeys({
    issuer,
    fetch: opts.fetch ?? globalThis.fetch,
    clock,
    refetchIntervalMs: opts.jwksRefetchIntervalMs ?? 30_000,
    maxAgeMs: opts.jwksMaxAgeMs ?? 10 * 60_000,
    fetchTimeoutMs: opts.fetchTimeoutMs ?? 5_000,
    log,
  });
  const expectations = {
    issuer,
    audience: config.audience,
    clockSkewSeconds: config.clock_skew_seconds,
    maxTokenAgeSeconds: config.max_token_age === undefined ? undefined : config.max_token_age / 1000,
  };

  const verified = new VerifiedCredentials({
    clock,
    ...(opts.verifiedTtlMs !== undefined ? { ttlMs: opts.verifiedTtlMs } : {}),
    ...(opts.verifiedMaxEntries !== undefined ? { maxEntries: opts.verifiedMaxEntries } : {}),
  });

  async function verify(token: string): Promise<TokenVerdict> {
    const signed = await verifyIssuerSignature(token, keys);
    if (!signed.ok) return { result: 'reject', reason: signed.reason };
    const { claims, keysCurrentUntil } = signed;
    const verdict = checkClaims(claims, expectations, clock() / 1000);
    if (!verdict.ok) return { result: 'reject', reason: verdict.reason };
    const validUntilMs = Math.min(claimsValidUntil(claims, expectations) * 1000, keysCurrentUntil);
    return { result: 'accept', caller: oidcCaller(claims, { ...config, issuer }), validUntilMs };
  }

  return {
    name: 'oidc',
    async authenticate(credential) {
      if (credential.kind !== 'bearer') return { result: 'pass' };
      const digest = credentialDigest(credential);
      const known = verified.get(digest);
      if (known) return { result: 'accept', ...known };
      const outcome = await verify(credential.token);
      if (outcome.result === 'reject') {
        log?.debug({ reason: outcome.reason }, 'OIDC token refused');
        return outcome;
      }
      return { result: 'accept', caller: outcome.caller, remainingMs: verified.remember(digest, outcome.caller, outcome.validUntilMs) };
    },
  };
}
