export { deriveKey, purposeKey } from './keys.js';
export { createSecretBox, SecretBoxError, type SecretBox } from './secret-box.js';
export { uuidv7 } from './ids.js';
