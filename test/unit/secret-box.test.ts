import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from '../../shared/crypto/index.js';

const secret = Buffer.from('whsec_correct-horse-battery-staple');

describe('secret box (AES-256-GCM secrets at rest)', () => {
  const box = createSecretBox(randomBytes(32));

  it('opens what it sealed, for the same context', () => {
    const sealed = box.seal(secret, 'webhook-source:a');
    expect(Buffer.from(box.open(sealed, 'webhook-source:a')).equals(secret)).toBe(true);
  });

  it('writes a version byte, a fresh 12-byte nonce per seal and a 16-byte tag, and never the plaintext', () => {
    const one = Buffer.from(box.seal(secret, 'webhook-source:a'));
    const two = Buffer.from(box.seal(secret, 'webhook-source:a'));
    expect(one[0]).toBe(1);
    expect(one).toHaveLength(1 + 12 + secret.length + 16);
    expect(one.subarray(1, 13).equals(two.subarray(1, 13))).toBe(false);
    expect(one.includes(secret)).toBe(false);
  });

  it('refuses a sealed value presented for another context (a ciphertext copied to another row)', () => {
    const sealed = box.seal(secret, 'webhook-source:a');
    expect(() => box.open(sealed, 'webhook-source:b')).toThrow(SecretBoxError);
  });

  it('refuses another key, altered bytes, an unknown version and a truncated value', () => {
    const sealed = box.seal(secret, 'ctx');
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'ctx')).toThrow(SecretBoxError);
    for (const at of [1, 13, sealed.length - 1]) {
      const altered = Uint8Array.from(sealed);
      altered[at]! ^= 1;
      expect(() => box.open(altered, 'ctx')).toThrow(SecretBoxError);
    }
    const otherVersion = Uint8Array.from(sealed);
    otherVersion[0] = 2;
    expect(() => box.open(otherVersion, 'ctx')).toThrow(/unknown version/);
    expect(() => box.open(sealed.subarray(0, 20), 'ctx')).toThrow(/truncated/);
  });

  it('a refusal names no key or plaintext material', () => {
    try {
      box.open(box.seal(secret, 'ctx'), 'other');
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(secret.toString());
    }
  });

  it('needs a 32-byte key', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32-byte key/);
  });
});
