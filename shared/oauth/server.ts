/**
 * The built-in OAuth 2.1 authorization server (spec document 1, "Built-in OAuth server",
 * "Authorization code flow"): MCP clients authorize here, the person signs in at the upstream
 * identity provider, and the client gets our own tokens for the MCP resource. Free of HTTP: the
 * routes (api/oauth/) hand it parsed parameters and turn its answers into responses.
 *
 *   GET /oauth/authorize  → authorize(): validate client, redirect URI, PKCE, state, resource;
 *                           store the pending authorization (10 min); redirect upstream
 *   GET /oauth/callback   → callback(): take the pending authorization once; exchange the upstream
 *                           code; redirect to the client with a code of ours (60 s, single-use)
 *   POST /oauth/token     → token(): authorization_code (PKCE verified) or refresh_token (rotated,
 *                           reuse revokes the family)
 *   POST /oauth/register  → clients.register()
 */
import { createHash, randomUUID } from 'node:crypto';
import { randomToken, type OidcRelyingParty } from '../identity/oidc-relying-party.js';
import { AccessTokens, type AccessTokenGrant } from './access-tokens.js';
import { ClientRegistry, type ClientCredentials, type KnownClient } from './clients.js';
import { OAuthError, oauthErrorTexts } from './errors.js';
import { isValidS256Challenge, verifierMatches } from './pkce.js';
import type { OAuthStore } from './records.js';
import { redirectUriMatches } from './redirect-uris.js';
import { resolveResource } from './resource.js';

export const authorizationStateLifetimeMs = 10 * 60_000;
export const codeLifetimeMs = 60_000;

/** An answer that sends the browser somewhere (302). */
export interface Redirect {
  location: string;
}

/** An error to show where it happened, because there is no trustworthy client redirect URI to send it to. */
export class DirectOAuthError extends OAuthError {}

/** The person must first approve this dynamically registered client (consent.ts). */
export interface ConsentNeeded {
  consent: { clientId: string; clientName?: string; redirectUri: string; scope?: string };
}

export interface AuthorizeContext {
  /** Has the person in this browser approved the client? (Asked for DCR clients only.) */
  consented(clientId: string): boolean;
  /** The person declined on the consent page. */
  declined?: boolean;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope?: string;
}

export interface OAuthServerDeps {
  issuer: string;
  /** The MCP endpoint URL: the one audience our tokens are for. */
  resource: string;
  store: OAuthStore;
  clients: ClientRegistry;
  tokens: AccessTokens;
  /** The upstream identity provider and our callback registered there; undefined when `oauth.upstream` is not configured. */
  upstream: { party: OidcRelyingParty; redirectUri: string } | undefined;
  /** Lifetime of a refresh family (a sign-in), from `oauth.refresh_token_ttl`. */
  refreshTtlMs: number;
  clock?: () => number;
}

type Params = Record<string, string | undefined>;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
/** RFC 6749 §3.3 scope tokens: printable ASCII except space, quote and backslash. */
const scopeShape = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
const maxParamLength = 2048;

function scopeSet(scope: string | undefined): Set<string> {
  return new Set((scope ?? '').split(' ').filter((s) => s !== ''));
}

export class OAuthServer {
  private readonly clock: () => number;

  constructor(private readonly deps: OAuthServerDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** The client's redirect URI with an error (RFC 6749 §4.1.2.1) and our issuer (RFC 9207). */
  private errorRedirect(redirectUri: string, error: OAuthError, clientState: string | undefined): Redirect {
    const url = new URL(redirectUri);
    url.searchParams.set('error', error.error);
    url.searchParams.set('error_description', error.description);
    if (clientState !== undefined) url.searchParams.set('state', clientState);
    url.searchParams.set('iss', this.deps.issuer);
    return { location: url.toString() };
  }

  /**
   * GET /oauth/authorize (and the consent form's POST, which repeats its parameters). Until the
   * client and its redirect URI are established, errors are DirectOAuthError (shown, never
   * redirected: that would be an open redirect); after that they go back to the client's redirect
   * URI. A DCR client the person has not approved yet gets ConsentNeeded instead of a redirect.
   */
  async authorize(params: Params, context: AuthorizeContext): Promise<Redirect | ConsentNeeded> {
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined && value.length > maxParamLength) throw new DirectOAuthError('invalid_request', `${name} is too long`);
    }
    const clientId = params.client_id;
    if (!clientId) throw new DirectOAuthError('invalid_request', 'client_id is required');
    const client = await this.deps.clients.find(clientId);
    if (!client) throw new DirectOAuthError('invalid_request', 'unknown client_id');
    const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!redirectUri || !redirectUriMatches(redirectUri, client.redirectUris) || !this.deps.clients.stillAllowed(client, redirectUri)) {
      throw new DirectOAuthError('invalid_request', oauthErrorTexts.invalidRedirectUri);
    }

    const clientState = params.state;
    const refuse = (error: OAuthError) => this.errorRedirect(redirectUri, error, clientState);
    if (params.response_type !== 'code') return refuse(new OAuthError('unsupported_response_type', 'response_type must be code'));
    if (!clientState) return refuse(new OAuthError('invalid_request', 'state is required'));
    if (!params.code_challenge) return refuse(new OAuthError('invalid_request', 'code_challenge is required (PKCE)'));
    if (params.code_challenge_method !== 'S256') {
      return refuse(new OAuthError('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)'));
    }
    if (!isValidS256Challenge(params.code_challenge)) return refuse(new OAuthError('invalid_request', 'code_challenge is not a valid S256 challenge'));
    const resource = resolveResource(params.resource, this.deps.resource);
    if (!resource) return refuse(new OAuthError('invalid_target', 'resource names no resource this server issues tokens for'));
    if (params.scope !== undefined && params.scope !== '' && !scopeShape.test(params.scope)) return refuse(new OAuthError('invalid_scope', 'malformed scope'));
    const upstream = this.deps.upstream;
    if (!upstream) return refuse(new OAuthError('server_error', oauthErrorTexts.upstreamNotConfigured));
    if (context.declined) return refuse(new OAuthError('access_denied', 'the person declined to let this client in'));
    // Nothing is stored before consent: the pending state exists only for an approved request.
    if (client.dynamic && !context.consented(client.id)) {
      return {
        consent: {
          clientId: client.id,
          ...(client.name !== undefined ? { clientName: client.name } : {}),
          redirectUri,
          ...(params.scope ? { scope: params.scope } : {}),
        },
      };
    }

    const pending = {
      id: randomToken(),
      clientId: client.id,
      redirectUri,
      clientState,
      codeChallenge: params.code_challenge,
      ...(params.scope ? { scope: params.scope } : {}),
      resource,
      upstreamVerifier: randomToken(),
      nonce: randomToken(),
      expiresAt: this.clock() + authorizationStateLifetimeMs,
    };
    let location: string;
    try {
      location = await upstream.party.authorizationUrl({ state: pending.id, nonce: pending.nonce, codeVerifier: pending.upstreamVerifier, redirectUri: upstream.redirectUri });
    } catch {
      return refuse(new OAuthError('temporarily_unavailable', 'the upstream identity provider could not be reached'));
    }
    await this.deps.store.savePendingAuthorization(pending);
    return { location };
  }

  /** GET /oauth/callback: the upstream provider sends the person back here. */
  async callback(params: Params): Promise<Redirect> {
    const state = params.state;
    const pending = state && state.length <= maxParamLength ? await this.deps.store.takePendingAuthorization(state, this.clock()) : undefined;
    if (!pending) throw new DirectOAuthError('invalid_request', oauthErrorTexts.stateNotFound);
    const back = (error: OAuthError) => this.errorRedirect(pending.redirectUri, error, pending.clientState);
    if (params.error) {
      // The person declined or the provider refused: the client learns it was denied, not the provider's details.
      return back(new OAuthError('access_denied', 'the upstream identity provider did not authorize the request'));
    }
    if (!params.code) return back(new OAuthError('invalid_request', 'the upstream identity provider returned no code'));
    const upstream = this.deps.upstream;
    if (!upstream) return back(new OAuthError('server_error', oauthErrorTexts.upstreamNotConfigured));
    const exchange = await upstream.party.exchangeCode({ code: params.code, codeVerifier: pending.upstreamVerifier, nonce: pending.nonce, redirectUri: upstream.redirectUri });
    if (!exchange.ok) return back(new OAuthError('token_exchange_failed', exchange.reason));

    // Everything the provider said but the raw ID token, which only browser sign-out needs.
    const { idToken: _idToken, ...identity } = exchange.user;
    const code = randomToken();
    await this.deps.store.saveCode({
      digest: digest(code),
      clientId: pending.clientId,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      ...(pending.scope ? { scope: pending.scope } : {}),
      resource: pending.resource,
      identity,
      expiresAt: this.clock() + codeLifetimeMs,
    });
    const url = new URL(pending.redirectUri);
    url.searchParams.set('code', code);
    url.searchParams.set('state', pending.clientState);
    url.searchParams.set('iss', this.deps.issuer);
    return { location: url.toString() };
  }

  /** POST /oauth/register (Dynamic Client Registration). */
  register(body: unknown) {
    return this.deps.clients.register(body);
  }

  /** POST /oauth/token. */
  async token(params: Params, credentials: ClientCredentials): Promise<TokenResponse> {
    const client = await this.deps.clients.authenticate(credentials);
    switch (params.grant_type) {
      case 'authorization_code':
        return this.exchangeCode(client, params);
      case 'refresh_token':
        return this.refresh(client, params);
      case undefined:
        throw new OAuthError('invalid_request', 'grant_type is required');
      default:
        throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }
  }

  private requestedResource(params: Params, granted: string): void {
    if (params.resource === undefined) return;
    if (resolveResource(params.resource, this.deps.resource) !== granted) {
      throw new OAuthError('invalid_target', 'resource does not match the authorization');
    }
  }

  private async exchangeCode(client: KnownClient, params: Params): Promise<TokenResponse> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = params;
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    const now = this.clock();
    const familyId = randomUUID();
    const redemption = await this.deps.store.redeemCode(digest(code), familyId, now);
    if (redemption.result === 'unknown') throw new OAuthError('invalid_grant', 'authorization code is invalid or expired');
    if (redemption.result === 'replayed') {
      // RFC 6749 §4.1.2: a code used twice revokes what its first use issued.
      if (redemption.familyId) await this.deps.store.revokeFamily(redemption.familyId);
      throw new OAuthError('invalid_grant', 'authorization code was already used');
    }
    const issued = redemption.code;
    if (issued.clientId !== client.id) throw new OAuthError('invalid_grant', 'authorization code was issued to another client');
    if (redirectUri !== undefined && redirectUri !== issued.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
    if (!verifierMatches(verifier, issued.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code challenge');
    this.requestedResource(params, issued.resource);

    const refreshToken = randomToken();
    const family = { familyId, familyEndsAt: now + this.deps.refreshTtlMs };
    await this.deps.store.saveRefreshGrant({
      digest: digest(refreshToken),
      familyId,
      clientId: client.id,
      ...(issued.scope ? { scope: issued.scope } : {}),
      resource: issued.resource,
      identity: issued.identity,
      expiresAt: family.familyEndsAt,
    });
    return this.respond(client, { identity: issued.identity, scope: issued.scope, resource: issued.resource, ...family }, refreshToken, now);
  }

  private async refresh(client: KnownClient, params: Params): Promise<TokenResponse> {
    const presented = params.refresh_token;
    if (!presented) throw new OAuthError('invalid_request', 'refresh_token is required');
    const now = this.clock();
    const grant = await this.deps.store.findRefreshGrant(digest(presented), now);
    if (!grant) throw new OAuthError('invalid_grant', 'refresh token is invalid, expired or revoked');
    // Checked before rotating: another client presenting the token must not burn it.
    if (grant.clientId !== client.id) throw new OAuthError('invalid_grant', 'refresh token was issued to another client');
    this.requestedResource(params, grant.resource);
    // A refresh may narrow the scope, never widen it (RFC 6749 §6).
    let scope = grant.scope;
    if (params.scope !== undefined) {
      const granted = scopeSet(grant.scope);
      if ([...scopeSet(params.scope)].some((s) => !granted.has(s))) throw new OAuthError('invalid_scope', 'scope exceeds what was granted');
      scope = params.scope;
    }
    const nextToken = randomToken();
    const rotation = await this.deps.store.rotateRefreshGrant(grant.digest, { ...grant, digest: digest(nextToken) }, now);
    if (rotation.result === 'unknown') throw new OAuthError('invalid_grant', 'refresh token is invalid, expired or revoked');
    if (rotation.result === 'reused') throw new OAuthError('invalid_grant', 'refresh token was already used; the sign-in it belongs to is revoked');
    const family = { familyId: grant.familyId, familyEndsAt: grant.expiresAt };
    return this.respond(client, { identity: grant.identity, scope, resource: grant.resource, ...family }, nextToken, now);
  }

  private async respond(
    client: KnownClient,
    grant: Omit<AccessTokenGrant, 'clientId'>,
    refreshToken: string,
    now: number,
  ): Promise<TokenResponse> {
    const { token, expiresIn } = await this.deps.tokens.mint({ ...grant, clientId: client.id });
    if (client.dynamic) await this.deps.store.touchClient(client.id, now);
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: expiresIn,
      refresh_token: refreshToken,
      ...(grant.scope ? { scope: grant.scope } : {}),
    };
  }
}
