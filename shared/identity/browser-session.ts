/**
 * The portal's browser sessions (spec document 1, "Browser session"): after an OIDC sign-in the
 * person carries a cookie that is a compact JWS, HS256 under `auth.browser_session.signing_key`.
 * Nothing is stored server-side: any replica verifies any cookie, a session ends at its `exp`
 * (lifetime `ttl`, no refresh), and rotating the key ends every session at once.
 *
 *   header  {alg: HS256}
 *   claims  iss  'platform:browser-session' (what kind of token this is)
 *           sub  the provider's `sub`;  idp  the provider (auth.oidc.issuer)
 *           name, email, roles  as the provider said at sign-in (fixed for the session)
 *           iat, exp = iat + ttl;  jti  random, what the CSRF token is bound to
 *
 * A session names the same person as their OIDC bearer token: subject `oidc:<idp>#<sub>`.
 *
 * CSRF: the token is base64url(HMAC-SHA256(signing key, 'csrf:' + jti)), a value only the
 * platform can compute and that only this session has; a cookie-authenticated write must send it
 * in `X-CSRF-Token`. (A JWS signature is an HMAC over `<base64url header>.<payload>`, which never
 * starts with `csrf:`, so the two uses of the key cannot produce each other's values.)
 *
 * The login state (state, nonce, PKCE verifier, return path, callback URL) travels in a second,
 * short-lived signed cookie under the same key with its own `iss`, so a replica other than the one
 * that started a sign-in can finish it, and a callback is accepted only in the browser that started
 * it (login CSRF). Neither token kind is accepted as the other.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT, errors, jwtVerify, type JWTPayload } from 'jose';
import { vouchedCaller, type CallerContext } from './caller.js';
import { randomToken } from './oidc-relying-party.js';

export const sessionTokenIssuer = 'platform:browser-session';
export const loginStateIssuer = 'platform:browser-login';
/** How long a started sign-in may take (the spec's authorization state lifetime). */
export const loginStateTtlSeconds = 600;
/** Our own tokens, checked by our own clock: only a few seconds for clocks of replicas to differ. */
const clockToleranceSeconds = 5;
const algorithm = 'HS256';

export interface BrowserSessionSettings {
  /** The decoded `auth.browser_session.signing_key` (32 bytes or more). */
  signingKey: Uint8Array;
  /** `auth.browser_session.ttl`, in seconds. */
  ttlSeconds: number;
  /** `auth.oidc.issuer`: the only provider whose users a session may name. */
  idpIssuer: string;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

/** Who signed in, as the provider said (a validated ID token). */
export interface SessionUser {
  sub: string;
  name?: string;
  email?: string;
  roles: readonly string[];
}

export interface BrowserSession {
  caller: CallerContext;
  /** The cookie's `jti`: what the CSRF token is bound to. */
  id: string;
  expiresAt: Date;
}

/** A started sign-in, kept in the browser until the provider sends it back. */
export interface LoginState {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where to go once signed in: a same-origin path (see safeReturnPath). */
  returnTo: string;
  /** The callback URL this sign-in was sent to the provider with; the code exchange must repeat it. */
  redirectUri: string;
}

export type SessionVerdict = { ok: true; session: BrowserSession } | { ok: false; reason: string };

const optionalString = (value: unknown): value is string | undefined => value === undefined || typeof value === 'string';
const stringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** A jose refusal as a reason fit for logs (never the token). */
function refusalReason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'session expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature invalid (tampered, or signed with another key)';
  if (error instanceof errors.JWTClaimValidationFailed) return `claim ${error.claim} invalid`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  return 'malformed token';
}

export class BrowserSessions {
  private readonly key: Uint8Array;
  private readonly clock: () => number;

  constructor(private readonly settings: BrowserSessionSettings) {
    if (settings.signingKey.length < 32) throw new Error('auth.browser_session.signing_key must be at least 32 bytes');
    this.key = settings.signingKey;
    this.clock = settings.clock ?? Date.now;
  }

  get ttlSeconds(): number {
    return this.settings.ttlSeconds;
  }

  private nowSeconds(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** The cookie value of a new session for `user`, and the session it verifies to. */
  async issue(user: SessionUser): Promise<{ token: string; session: BrowserSession }> {
    const iat = this.nowSeconds();
    const exp = iat + this.settings.ttlSeconds;
    const id = randomToken();
    const token = await new SignJWT({
      idp: this.settings.idpIssuer,
      ...(user.name !== undefined ? { name: user.name } : {}),
      ...(user.email !== undefined ? { email: user.email } : {}),
      roles: [...user.roles],
    })
      .setProtectedHeader({ alg: algorithm })
      .setIssuer(sessionTokenIssuer)
      .setSubject(user.sub)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(id)
      .sign(this.key);
    return { token, session: { caller: vouchedCaller({ issuer: this.settings.idpIssuer, ...user }, 'browser_session'), id, expiresAt: new Date(exp * 1000) } };
  }

  /** A cookie value as a session: signature (HS256 only), kind, expiry, provider and claim shapes. */
  async verify(token: string): Promise<SessionVerdict> {
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, this.key, {
        algorithms: [algorithm],
        issuer: sessionTokenIssuer,
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
        currentDate: new Date(this.clock()),
        clockTolerance: clockToleranceSeconds,
      }));
    } catch (error) {
      return { ok: false, reason: refusalReason(error) };
    }
    const { sub, jti, iat, exp, idp, name, email, roles } = claims;
    if (typeof sub !== 'string' || sub === '' || typeof jti !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') {
      return { ok: false, reason: 'malformed token' };
    }
    if (!optionalString(name) || !optionalString(email) || !stringArray(roles)) return { ok: false, reason: 'malformed token' };
    // Sessions of a provider that is no longer configured name nobody we know.
    if (idp !== this.settings.idpIssuer) return { ok: false, reason: 'session of another identity provider' };
    // A shortened ttl applies at once to sessions signed before the change.
    if (iat + this.settings.ttlSeconds + clockToleranceSeconds <= this.nowSeconds()) return { ok: false, reason: 'session expired' };
    const user: SessionUser = { sub, roles, ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
    return { ok: true, session: { caller: vouchedCaller({ issuer: idp, ...user }, 'browser_session'), id: jti, expiresAt: new Date(exp * 1000) } };
  }

  /** The session's CSRF token, for `X-CSRF-Token` on its writes. */
  csrfToken(session: Pick<BrowserSession, 'id'>): string {
    return createHmac('sha256', this.key).update(`csrf:${session.id}`).digest('base64url');
  }

  /** Whether `presented` is this session's CSRF token (constant-time). */
  csrfTokenValid(session: Pick<BrowserSession, 'id'>, presented: string): boolean {
    const expected = Buffer.from(this.csrfToken(session));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The login-state cookie value of a sign-in just started. */
  async sealLoginState(login: LoginState): Promise<string> {
    const iat = this.nowSeconds();
    return new SignJWT({ state: login.state, nonce: login.nonce, cv: login.codeVerifier, rt: login.returnTo, ru: login.redirectUri })
      .setProtectedHeader({ alg: algorithm })
      .setIssuer(loginStateIssuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + loginStateTtlSeconds)
      .sign(this.key);
  }

  /** The sign-in a login-state cookie carries, or undefined when it is forged, expired or malformed. */
  async openLoginState(token: string): Promise<LoginState | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [algorithm],
        issuer: loginStateIssuer,
        requiredClaims: ['exp'],
        currentDate: new Date(this.clock()),
        clockTolerance: clockToleranceSeconds,
      });
      const { state, nonce, cv, rt, ru } = payload;
      if (typeof state !== 'string' || typeof nonce !== 'string' || typeof cv !== 'string' || typeof rt !== 'string' || typeof ru !== 'string') return undefined;
      return { state, nonce, codeVerifier: cv, returnTo: rt, redirectUri: ru };
    } catch {
      return undefined;
    }
  }
}
