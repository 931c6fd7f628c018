import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Authenticator } from './authenticator.js';
import type { CallerContext } from './caller.js';
import type { Credential } from './credentials.js';
import { apiKeySubject } from './subjects.js';
import { VerifiedCredentials, type VerifiedCacheOptions } from './verified-cache.js';

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

/** SHA-256 of a presented credential (UTF-8): what the key table and the verified cache keep instead of it. */
export function digestKey(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

const credentialDigests = new WeakMap<Credential, Buffer>();

/** The digest of a request's credential, computed once however many links of the chain look at it. */
export function credentialDigest(credential: Credential): Buffer {
  let digest = credentialDigests.get(credential);
  if (!digest) {
    digest = digestKey(credential.kind === 'bearer' ? credential.token : credential.key);
    credentialDigests.set(credential, digest);
  }
  return digest;
}

/** 32 random bytes, URL-safe, with a recognisable prefix so leaked keys are easy to grep for. */
export function generateApiKey(): string {
  return `pk_${randomBytes(32).toString('base64url')}`;
}

/** The shape of every generateApiKey result: only such keys can be in the platform's key table. */
const generatedKeyShape = /^pk_[A-Za-z0-9_-]{43}$/;

/** Where keys created by the platform (not the config file) live; the database store implements it. */
export interface ApiKeyLookup {
  findByDigest(digest: Buffer): Promise<StoredApiKey | undefined>;
}

function keyOf(credential: Credential): string | undefined {
  if (credential.kind === 'apikey') return credential.key;
  if (credential.kind === 'bearer') return credential.token;
  return undefined;
}

function callerOf(key: StoredApiKey): CallerContext {
  return { subject: apiKeySubject(key.name), name: key.name, roles: [...key.roles], authType: 'apikey' };
}

/**
 * API keys from `auth.api_keys.keys` and from the platform's own key table. Every configured key is
 * compared (digest against digest, constant time) so timing reveals neither which key matched nor
 * how much of it. The key table is asked only about keys shaped like the ones it holds, so OIDC
 * tokens and made-up keys cost no query. An `X-API-Key` that matches nothing is rejected; a bearer
 * token that matches nothing is passed on, because it may be an OIDC token for the next link.
 *
 * A key that matched is remembered by its digest for `cache.ttlMs` (VerifiedCredentials): a key
 * removed from the key table stops working within that time (30 s by default).
 */
export function apiKeyAuthenticator(configured: readonly ApiKeyDefinition[], lookup?: ApiKeyLookup, cache: VerifiedCacheOptions = {}): Authenticator {
  const keys: StoredApiKey[] = configured.map((k) => ({ name: k.name, roles: k.roles, digest: digestKey(k.key) }));
  const verified = new VerifiedCredentials(cache);
  return {
    name: 'apikey',
    async authenticate(credential) {
      const presented = keyOf(credential);
      if (!presented) return credential.kind === 'apikey' ? { result: 'reject', reason: 'empty API key' } : { result: 'pass' };
      const digest = credentialDigest(credential);
      const known = verified.get(digest);
      if (known) return { result: 'accept', ...known };
      let match: StoredApiKey | undefined;
      for (const key of keys) {
        if (timingSafeEqual(key.digest, digest) && !match) match = key;
      }
      if (!match && lookup && generatedKeyShape.test(presented)) {
        const stored = await lookup.findByDigest(digest);
        if (stored && timingSafeEqual(stored.digest, digest)) match = stored;
      }
      if (match) {
        const caller = callerOf(match);
        return { result: 'accept', caller, remainingMs: verified.remember(digest, caller) };
      }
      return credential.kind === 'apikey' ? { result: 'reject', reason: 'unknown API key' } : { result: 'pass' };
    },
  };
}
