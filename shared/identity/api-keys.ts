import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Authenticator, AuthOutcome } from './authenticator.js';
import type { Credential } from './credentials.js';
import { apiKeySubject } from './subjects.js';

export interface ApiKeyDefinition {
  key: string;
  name: string;
  roles: string[];
}

/** A stored key: only its SHA-256 digest is ever kept. */
export interface StoredApiKey {
  name: string;
  digest: Buffer;
  roles: string[];
}

export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** 32 random bytes, URL-safe, with a recognisable prefix so leaked keys are easy to grep for. */
export function generateApiKey(): string {
  return `pk_${randomBytes(32).toString('base64url')}`;
}

/** Where keys created by the platform (not the config file) live; the database store implements it. */
export interface ApiKeyLookup {
  findByDigest(digest: Buffer): Promise<StoredApiKey | undefined>;
}

function keyOf(credential: Credential): string | undefined {
  if (credential.kind === 'apikey') return credential.key;
  if (credential.kind === 'bearer') return credential.token;
  return undefined;
}

function accept(key: StoredApiKey): AuthOutcome {
  return { result: 'accept', caller: { subject: apiKeySubject(key.name), name: key.name, roles: [...key.roles], authType: 'apikey' } };
}

/**
 * API keys from `auth.api_keys.keys` and from the platform's own key table. Every configured key is
 * compared (digest against digest, constant time) so timing reveals neither which key matched nor
 * how much of it. An `X-API-Key` that matches nothing is rejected; a bearer token that matches
 * nothing is passed on, because it may be an OIDC token for the next link.
 */
export function apiKeyAuthenticator(configured: readonly ApiKeyDefinition[], lookup?: ApiKeyLookup): Authenticator {
  const keys: StoredApiKey[] = configured.map((k) => ({ name: k.name, roles: k.roles, digest: digestKey(k.key) }));
  return {
    name: 'apikey',
    async authenticate(credential) {
      const presented = keyOf(credential);
      if (!presented) return credential.kind === 'apikey' ? { result: 'reject', reason: 'empty API key' } : { result: 'pass' };
      const digest = digestKey(presented);
      let match: StoredApiKey | undefined;
      for (const key of keys) {
        if (timingSafeEqual(key.digest, digest) && !match) match = key;
      }
      if (!match && lookup) {
        const stored = await lookup.findByDigest(digest);
        if (stored && timingSafeEqual(stored.digest, digest)) match = stored;
      }
      if (match) return accept(match);
      return credential.kind === 'apikey' ? { result: 'reject', reason: 'unknown API key' } : { result: 'pass' };
    },
  };
}
