/**
 * Access tokens of the built-in OAuth server: JWTs (RFC 9068 `at+jwt`) signed HS256 with
 * `oauth.signing_key`, valid one hour (spec document 1, "Limits"), for one audience — the MCP
 * resource — and carrying who the upstream provider said the user is. Claim names (the spec
 * leaves them to us, docs/oauth.md lists them): `iss`, `aud`, `sub` (upstream sub), `idp`
 * (upstream issuer), `fid` (the refresh family, i.e. the sign-in), `client_id`, `scope`, `name`,
 * `email`, `roles`, `iat`, `exp`, `jti`.
 *
 * A signature alone cannot be withdrawn, so every use also asks the store whether the token's
 * family is still active: a replayed code or a reused refresh token revokes the family, and its
 * access tokens stop working on their next request, on every replica. A token never outlives its
 * family (its `exp` is capped at the family's end), so the family's record outlives its tokens.
 *
 * Only this process family can verify them (the key is symmetric): the authentication chain
 * recognises them by their HS256 header, which no third-party token may carry (the OIDC link
 * refuses HS* outright).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { Authenticator } from '../identity/authenticator.js';
import { vouchedCaller, type CallerContext } from '../identity/caller.js';
import { protectedHeaderOf } from '../identity/signed-token.js';
import type { OAuthStore, UpstreamIdentity } from './records.js';
import { decodeHmacKey } from '../config/index.js';

export const accessTokenLifetimeSeconds = 3600;
const tokenType = 'at+jwt';
const clockSkewSeconds = 30;

const minimumKeyBytes = 32;

/**
 * `oauth.signing_key` (base64 or raw, at least 32 bytes: the config refuses shorter keys, which
 * are guessable). Absent: 32 random bytes, which die with the process.
 */
export function accessTokenKey(configured: string | undefined): { key: Uint8Array; generated: boolean } {
  if (configured === undefined) return { key: new Uint8Array(randomBytes(minimumKeyBytes)), generated: true };
  const key = decodeHmacKey(configured, minimumKeyBytes);
  if (key.length < minimumKeyBytes) throw new Error(`oauth.signing_key must be at least ${minimumKeyBytes} bytes (base64 or raw)`);
  return { key: new Uint8Array(key), generated: false };
}

export interface AccessTokenGrant {
  identity: UpstreamIdentity;
  clientId: string;
  scope?: string | undefined;
  resource: string;
  /** The refresh family (sign-in) the token belongs to; revoking it revokes the token. */
  familyId: string;
  /** The family's end (ms since the epoch): the token expires no later. */
  familyEndsAt: number;
}

export interface AccessTokenSettings {
  issuer: string;
  key: Uint8Array;
  /** The upstream issuer whose users our tokens speak for; a token naming another is refused. */
  upstreamIssuer: string | undefined;
  /** Where revocations are recorded: consulted on every verification. */
  families: Pick<OAuthStore, 'familyActive'>;
  clock?: () => number;
}

export class AccessTokens {
  private readonly clock: () => number;

  constructor(private readonly settings: AccessTokenSettings) {
    this.clock = settings.clock ?? Date.now;
  }

  async mint(grant: AccessTokenGrant): Promise<{ token: string; expiresIn: number }> {
    const now = Math.floor(this.clock() / 1000);
    const expiresAt = Math.min(now + accessTokenLifetimeSeconds, Math.floor(grant.familyEndsAt / 1000));
    const { identity } = grant;
    const token = await new SignJWT({
      idp: identity.issuer,
      fid: grant.familyId,
      client_id: grant.clientId,
      ...(grant.scope ? { scope: grant.scope } : {}),
      ...(identity.name ? { name: identity.name } : {}),
      ...(identity.email ? { email: identity.email } : {}),
      roles: identity.roles,
    })
      .setProtectedHeader({ alg: 'HS256', typ: tokenType })
      .setIssuer(this.settings.issuer)
      .setAudience(grant.resource)
      .setSubject(identity.sub)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(this.settings.key);
    return { token, expiresIn: expiresAt - now };
  }

  /** The caller a token names, or why it is refused. `resource` is the audience it must carry. */
  async verify(token: string, resource: string): Promise<{ ok: true; caller: CallerContext } | { ok: false; reason: string }> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.settings.key, {
        algorithms: ['HS256'],
        typ: tokenType,
        issuer: this.settings.issuer,
        audience: resource,
        clockTolerance: clockSkewSeconds,
        currentDate: new Date(this.clock()),
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (!(error instanceof errors.JOSEError)) throw error;
      return { ok: false, reason: error instanceof errors.JWTExpired ? 'token expired' : 'invalid access token' };
    }
    const idp = payload.idp;
    if (typeof idp !== 'string' || idp !== this.settings.upstreamIssuer) return { ok: false, reason: 'token names another identity provider' };
    // Checked after the signature, so that only our own tokens cost a store lookup.
    const fid = payload.fid;
    if (typeof fid !== 'string' || !(await this.settings.families.familyActive(fid, this.clock()))) return { ok: false, reason: 'access token revoked' };
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
    return { ok: true, caller: vouchedCaller({ issuer: idp, sub: payload.sub as string, name: text(payload.name), email: text(payload.email), roles }, 'oauth') };
  }
}

/**
 * The chain link for our own access tokens: a bearer whose header says HS256 is ours to judge
 * (accept or reject); any other credential passes to the next link.
 */
export function oauthAuthenticator(tokens: AccessTokens, resource: string): Authenticator {
  return {
    name: 'oauth',
    async authenticate(credential) {
      if (credential.kind !== 'bearer' || protectedHeaderOf(credential.token)?.alg !== 'HS256') return { result: 'pass' };
      const verdict = await tokens.verify(credential.token, resource);
      return verdict.ok ? { result: 'accept', caller: verdict.caller } : { result: 'reject', reason: verdict.reason };
    },
  };
}
