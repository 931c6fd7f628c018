// The built-in OAuth 2.1 server's records (spec document 1, "OAuth server records") and the stores
// that keep them: in memory for one instance, in the platform database (migrations/0008_oauth.sql)
// when `database.dsn` is set.
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
