export type { AuthType, CallerContext } from './caller.js';
export { localOperator, anonymousCaller } from './caller.js';
export type { Credential } from './credentials.js';
export { extractCredentials } from './credentials.js';
export type { Authenticator, AuthOutcome, AuthDecision } from './authenticator.js';
export { authenticateCredentials } from './authenticator.js';
export type { ApiKeyDefinition, ApiKeyLookup, StoredApiKey } from './api-keys.js';
export { apiKeyAuthenticator, digestKey, generateApiKey } from './api-keys.js';
export { databaseApiKeys } from './api-key-store.js';
