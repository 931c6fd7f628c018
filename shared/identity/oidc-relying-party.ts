/**
 * The platform as an OpenID Connect relying party: it sends a person to an identity provider with
 * the authorization code flow and PKCE, exchanges the code it gets back, and validates the ID
 * token exactly as the OIDC authenticator validates bearer tokens (signature against the issuer's
 * JWKS, then checkClaims), plus the nonce. Two paths use it: the built-in OAuth server's upstream
 * (`oauth.upstream.*`) and the portal's browser sign-in (`auth.oidc.*`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '../logging/index.js';
import { checkClaims, rolesFromClaims, stringClaim, type Claims } from './oidc-claims.js';
import { FetchFailure, IssuerKeys, fetchIssuerMetadata, type IssuerMetadata } from './jwks.js';
import { verifyIssuerSignature } from './signed-token.js';

export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  /** Scopes asked for; `openid` is always included. */
  scopes: readonly string[];
  roleClaimPath?: string | undefined;
  rolePrefix?: string | undefined;
  clockSkewSeconds: number;
  /** `auth.oidc.max_token_age`, in seconds, when set. */
  maxTokenAgeSeconds?: number | undefined;
}

export interface RelyingPartyOptions {
  fetch?: typeof globalThis.fetch;
  clock?: () => number;
  log?: Logger;
  /** Timeout of one discovery, JWKS or token request. Default 10 s. */
  fetchTimeoutMs?: number;
}

/** Who the provider says signed in, from a validated ID token. */
export interface SignedInUser {
  issuer: string;
  sub: string;
  name?: string;
  email?: string;
  roles: string[];
  /** The raw ID token, kept only to hint the provider's logout. */
  idToken: string;
}

export type CodeExchange = { ok: true; user: SignedInUser } | { ok: false; reason: string };

/** A fresh random value for `state`, `nonce` and PKCE verifiers: 32 bytes, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they go into Basic credentials. */
function basicCredentials(id: string, secret: string): string {
  const encode = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

export class OidcRelyingParty {
  private metadata: Promise<IssuerMetadata> | undefined;
  private readonly keys: IssuerKeys;
  private readonly fetch: typeof globalThis.fetch;
  private readonly clock: () => number;
  private readonly timeoutMs: number;

  constructor(
    private readonly settings: RelyingPartySettings,
    private readonly opts: RelyingPartyOptions = {},
  ) {
    this.fetch = opts.fetch ?? globalThis.fetch;
    this.clock = opts.clock ?? Date.now;
    this.timeoutMs = opts.fetchTimeoutMs ?? 10_000;
    this.keys = new IssuerKeys({
      issuer: settings.issuer,
      fetch: this.fetch,
      clock: this.clock,
      refetchIntervalMs: 30_000,
      maxAgeMs: 10 * 60_000,
      fetchTimeoutMs: this.timeoutMs,
      log: opts.log,
    });
  }

  get issuer(): string {
    return this.settings.issuer;
  }

  /** Discovery, cached; a failed fetch is forgotten so the next sign-in tries again. */
  private discover(): Promise<IssuerMetadata> {
    this.metadata ??= fetchIssuerMetadata(this.settings.issuer, this.fetch, this.timeoutMs).catch((error: unknown) => {
      this.metadata = undefined;
      throw error;
    });
    return this.metadata;
  }

  /**
   * Where to send the browser: the provider's authorization endpoint with our state, nonce and S256
   * challenge. `redirectUri` is our callback registered at the provider; the code exchange must
   * name the same one.
   */
  async authorizationUrl(request: { state: string; nonce: string; codeVerifier: string; redirectUri: string }): Promise<string> {
    const metadata = await this.discover();
    if (!metadata.authorization_endpoint) throw new FetchFailure('the identity provider publishes no authorization_endpoint');
    const url = new URL(metadata.authorization_endpoint);
    const scopes = new Set(['openid', ...this.settings.scopes]);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('scope', [...scopes].join(' '));
    url.searchParams.set('state', request.state);
    url.searchParams.set('nonce', request.nonce);
    url.searchParams.set('code_challenge', s256Challenge(request.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return url.toString();
  }

  /** The provider's logout URL (RP-initiated logout), or undefined when it publishes none. */
  async endSessionUrl(request: { idTokenHint?: string; postLogoutRedirectUri?: string }): Promise<string | undefined> {
    const metadata = await this.discover();
    if (!metadata.end_session_endpoint) return undefined;
    const url = new URL(metadata.end_session_endpoint);
    url.searchParams.set('client_id', this.settings.clientId);
    if (request.idTokenHint) url.searchParams.set('id_token_hint', request.idTokenHint);
    if (request.postLogoutRedirectUri) url.searchParams.set('post_logout_redirect_uri', request.postLogoutRedirectUri);
    return url.toString();
  }

  /**
   * Exchanges the provider's code at its token endpoint and validates the ID token. Every failure
   * (network, a refused client secret, a bad token) is `ok: false` with a reason fit for logs and
   * error descriptions; no secret or token is ever part of it.
   */
  async exchangeCode(request: { code: string; codeVerifier: string; nonce: string; redirectUri: string }): Promise<CodeExchange> {
    let tokens: { id_token?: unknown; access_token?: unknown };
    try {
      tokens = await this.requestTokens(request);
    } catch (error) {
      return { ok: false, reason: error instanceof FetchFailure ? error.message : 'the identity provider could not be reached' };
    }
    if (typeof tokens.id_token !== 'string') return { ok: false, reason: 'the identity provider returned no ID token' };
    const idToken = tokens.id_token;
    const claims = await this.validIdTokenClaims(idToken, request.nonce);
    if (!claims.ok) return claims;
    const roles = await this.rolesOf(claims.claims, typeof tokens.access_token === 'string' ? tokens.access_token : undefined);
    const name = stringClaim(claims.claims, 'name') ?? stringClaim(claims.claims, 'preferred_username');
    const email = stringClaim(claims.claims, 'email');
    return {
      ok: true,
      user: { issuer: this.settings.issuer, sub: claims.claims.sub as string, ...(name ? { name } : {}), ...(email ? { email } : {}), roles, idToken },
    };
  }

  private async requestTokens(request: { code: string; codeVerifier: string; redirectUri: string }): Promise<{ id_token?: unknown; access_token?: unknown }> {
    const metadata = await this.discover();
    if (!metadata.token_endpoint) throw new FetchFailure('the identity provider publishes no token_endpoint');
    const body = new URLSearchParams({ grant_type: 'authorization_code', code: request.code, redirect_uri: request.redirectUri, code_verifier: request.codeVerifier });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const secret = this.settings.clientSecret;
    const methods = metadata.token_endpoint_auth_methods_supported;
    if (secret === undefined) {
      body.set('client_id', this.settings.clientId);
    } else if (methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
      body.set('client_id', this.settings.clientId);
      body.set('client_secret', secret);
    } else {
      headers.authorization = basicCredentials(this.settings.clientId, secret);
    }
    const response = await this.fetch(metadata.token_endpoint, { method: 'POST', headers, body: body.toString(), signal: AbortSignal.timeout(this.timeoutMs) });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const error = typeof answer.error === 'string' && /^[\x20-\x7e]{1,64}$/.test(answer.error) ? answer.error : `HTTP ${response.status}`;
      throw new FetchFailure(`the identity provider refused the code exchange (${error})`);
    }
    return answer;
  }

  /** OIDC Core §3.1.3.7: signature, the claim rules (audience = our client id) and the nonce. */
  private async validIdTokenClaims(idToken: string, nonce: string): Promise<{ ok: true; claims: Claims } | { ok: false; reason: string }> {
    const signed = await verifyIssuerSignature(idToken, this.keys);
    if (!signed.ok) return { ok: false, reason: `ID token refused: ${signed.reason}` };
    const verdict = checkClaims(signed.claims, this.expectations(this.settings.clientId), this.clock() / 1000);
    if (!verdict.ok) return { ok: false, reason: `ID token refused: ${verdict.reason}` };
    if (signed.claims.nonce !== nonce) return { ok: false, reason: 'ID token refused: nonce mismatch' };
    const aud = signed.claims.aud;
    if (Array.isArray(aud) && aud.length > 1 && signed.claims.azp !== this.settings.clientId) {
      return { ok: false, reason: 'ID token refused: authorized party mismatch' };
    }
    return { ok: true, claims: signed.claims };
  }

  private expectations(audience: string | undefined) {
    return {
      issuer: this.settings.issuer,
      audience,
      clockSkewSeconds: this.settings.clockSkewSeconds,
      maxTokenAgeSeconds: this.settings.maxTokenAgeSeconds,
    };
  }

  /**
   * Roles from the role claim of the ID token. Providers such as Keycloak put roles only in the
   * access token: when the ID token lacks the claim, an access token that is a JWT signed by the
   * same provider, unexpired, for the same `sub`, supplies them. Anything else means no roles.
   */
  private async rolesOf(idClaims: Claims, accessToken: string | undefined): Promise<string[]> {
    const { roleClaimPath: path, rolePrefix: prefix } = this.settings;
    if (!path) return [];
    const fromId = rolesFromClaims(idClaims, path, prefix);
    if (fromId.length > 0 || !accessToken) return fromId;
    const signed = await verifyIssuerSignature(accessToken, this.keys);
    if (!signed.ok || signed.claims.sub !== idClaims.sub) return fromId;
    const verdict = checkClaims(signed.claims, this.expectations(undefined), this.clock() / 1000);
    return verdict.ok ? rolesFromClaims(signed.claims, path, prefix) : fromId;
  }
}
