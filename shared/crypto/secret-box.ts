import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM with a random 12-byte nonce per seal. A sealed value is
 * `version (1 byte) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`. The associated data is the version
 * byte and a caller-chosen context naming what the secret belongs to (`webhook-source:<id>`), so a
 * sealed value copied to another row fails to open.
 */
export interface SecretBox {
  seal(plaintext: Uint8Array, context: string): Uint8Array;
  /** The plaintext; throws SecretBoxError for another key, another context, or altered bytes. */
  open(sealed: Uint8Array, context: string): Uint8Array;
}

/** A sealed value that does not open. Its message never carries key or plaintext material. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

function associatedData(context: string): Buffer {
  return Buffer.concat([Buffer.of(VERSION), Buffer.from(context, 'utf8')]);
}

/** A box over a 32-byte key (purposeKey gives one per purpose). */
export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error(`a secret box needs a 32-byte key, got ${key.length} bytes`);
  const aesKey = Buffer.from(key);
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', aesKey, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(associatedData(context));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return new Uint8Array(Buffer.concat([Buffer.of(VERSION), nonce, body, cipher.getAuthTag()]));
    },
    open(sealed, context) {
      const bytes = Buffer.from(sealed);
      if (bytes.length < 1 + NONCE_BYTES + TAG_BYTES) throw new SecretBoxError('sealed secret is truncated');
      if (bytes[0] !== VERSION) throw new SecretBoxError(`sealed secret has unknown version ${bytes[0]}`);
      const nonce = bytes.subarray(1, 1 + NONCE_BYTES);
      const tag = bytes.subarray(bytes.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', aesKey, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(context));
      decipher.setAuthTag(tag);
      try {
        return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(1 + NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]));
      } catch {
        throw new SecretBoxError('sealed secret does not open: another encryption key, another owner, or altered bytes');
      }
    },
  };
}
