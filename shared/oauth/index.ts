// The built-in OAuth 2.1 authorization server (spec document 1, "Built-in OAuth server"): its
// records and the stores that keep them (in memory for one instance, in the platform database —
// migrations/0008_oauth.sql — when `database.dsn` is set), the rules of each endpoint, its tokens,
// clients and consent.
export type {
  ClientAuthMethod,
  CodeRedemption,
  IssuedCode,
  OAuthStore,
  PendingAuthorization,
  RefreshGrant,
  RefreshRotation,
  RegisteredClient,
  RetentionPolicy,
  UpstreamIdentity,
} from './records.js';
export { oauthRetention } from './retention.js';
export { memoryOAuthStore, type MemoryOAuthStoreOptions } from './memory-store.js';
export { databaseOAuthStore } from './database-store.js';
export { OAuthError, oauthErrorTexts, type OAuthErrorCode } from './errors.js';
export { AccessTokens, accessTokenKey, accessTokenLifetimeSeconds, oauthAuthenticator } from './access-tokens.js';
export { ClientRegistry, parseRegistration, type ClientCredentials, type KnownClient, type RegistrationResponse } from './clients.js';
export { compileRedirectPatterns, redirectUriMatches, redirectUriAllowedByPatterns, isWellFormedRedirectUri } from './redirect-uris.js';
export { verifierMatches, isValidS256Challenge, isValidVerifier } from './pkce.js';
export { loopbackSpellingOf, resolveResource } from './resource.js';
export {
  OAuthServer,
  DirectOAuthError,
  authorizationStateLifetimeMs,
  codeLifetimeMs,
  type TokenResponse,
  type Redirect,
  type ConsentNeeded,
  type AuthorizeContext,
} from './server.js';
export { ConsentSeal, consentLifetimeMs } from './consent.js';
export { createOAuthSetup, oauthIssuer, oauthResource, type OAuthSetup } from './setup.js';
