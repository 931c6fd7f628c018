/**
 * Builds the OAuth server from configuration: the store (memory, or the platform database when
 * there is one), the client registry, the access-token key and the upstream relying party.
 */
import type { PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { OidcRelyingParty } from '../identity/oidc-relying-party.js';
import { AccessTokens, accessTokenKey, oauthAuthenticator } from './access-tokens.js';
import { ClientRegistry } from './clients.js';
import { databaseOAuthStore } from './database-store.js';
import { memoryOAuthStore } from './memory-store.js';
import type { OAuthStore } from './records.js';
import { compileRedirectPatterns } from './redirect-uris.js';
import { OAuthServer } from './server.js';
import { ConsentSeal } from './consent.js';
import type { Authenticator } from '../identity/authenticator.js';

/** Our issuer as clients see it: `oauth.issuer` without a trailing slash. */
export function oauthIssuer(config: PlatformConfig): string {
  return (config.oauth.issuer ?? '').replace(/\/+$/, '');
}

/** The MCP endpoint our tokens are for (RFC 8707 resource, RFC 9728 `resource`). */
export function oauthResource(config: PlatformConfig): string {
  return `${oauthIssuer(config)}/mcp`;
}

export interface OAuthSetup {
  server: OAuthServer;
  seal: ConsentSeal;
  store: OAuthStore;
  /** The authentication chain's link for our access tokens. */
  authenticator: Authenticator;
}

export async function createOAuthSetup(
  config: PlatformConfig,
  opts: { db?: Db | undefined; log: Logger; clock?: () => number; fetch?: typeof globalThis.fetch },
): Promise<OAuthSetup> {
  const issuer = oauthIssuer(config);
  const resource = oauthResource(config);
  const store = opts.db ? databaseOAuthStore(opts.db) : memoryOAuthStore();
  const { key, generated } = accessTokenKey(config.oauth.signing_key);
  if (generated) opts.log.warn('oauth.signing_key is not set: a key was generated, and tokens it signs do not survive a restart or work on other replicas');
  const up = config.oauth.upstream;
  const oidc = config.auth.oidc;
  const upstream =
    up.issuer && up.client_id && up.redirect_uri
      ? {
          party: new OidcRelyingParty(
            {
              issuer: up.issuer,
              clientId: up.client_id,
              clientSecret: up.client_secret,
              scopes: oidc.scopes ?? ['profile', 'email'],
              roleClaimPath: oidc.role_claim_path,
              rolePrefix: oidc.role_prefix,
              clockSkewSeconds: oidc.clock_skew_seconds,
            },
            { log: opts.log.child({ component: 'oauth-upstream' }), ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}) },
          ),
          redirectUri: up.redirect_uri,
        }
      : undefined;
  const tokens = new AccessTokens({ issuer, key, upstreamIssuer: up.issuer, families: store, ...(opts.clock ? { clock: opts.clock } : {}) });
  const clients = await ClientRegistry.create({
    configured: config.oauth.clients,
    store,
    patterns: compileRedirectPatterns(config.oauth.dcr.allowed_redirect_patterns),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const server = new OAuthServer({
    issuer,
    resource,
    store,
    clients,
    tokens,
    upstream,
    refreshTtlMs: config.oauth.refresh_token_ttl,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  return { server, store, seal: new ConsentSeal(key, opts.clock), authenticator: oauthAuthenticator(tokens, resource) };
}
