// Stored secrets: named values sealed at rest, read on the server by the platform connections they allow.
export {
  MAX_SECRET_GRANTS,
  MAX_SECRET_NAME_LENGTH,
  MAX_SECRET_VALUE_BYTES,
  SECRET_NAME_PATTERN,
  SecretError,
  SecretStore,
  connectionMayRead,
  secretNameSchema,
  secretPutSchema,
  secretViewSchema,
  storedSecretBox,
  type SecretErrorCode,
  type SecretPut,
  type SecretStoreOptions,
  type SecretView,
} from './store.js';
