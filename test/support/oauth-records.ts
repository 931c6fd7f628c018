/**
 * OAuth server records for store tests: each builder gives a complete, valid record (times around
 * `t0`, fresh random ids and digests), with `fields` over it; a field given as undefined is absent,
 * as the stores return it.
 */
import { randomBytes } from 'node:crypto';
import type { IssuedCode, PendingAuthorization, RefreshGrant, RegisteredClient, UpstreamIdentity } from '../../shared/oauth/index.js';

export const randomId = () => randomBytes(16).toString('hex');

/** `fields` over `base`, where a field given as undefined is absent (as the stores return it). */
function record<T extends object>(base: T, fields: Partial<T>): T {
  const out = { ...base, ...fields };
  for (const key of Object.keys(out) as (keyof T)[]) if (out[key] === undefined) delete out[key];
  return out;
}

export const t0 = Date.UTC(2030, 0, 1);
export const minute = 60_000;
export const hour = 60 * minute;
export const day = 24 * hour;

export const identity: UpstreamIdentity = { issuer: 'https://idp.example', sub: 'user-1', name: 'Ada', email: 'ada@example.com', roles: ['analyst'] };


export function pendingAuthorization(fields: Partial<PendingAuthorization> = {}): PendingAuthorization {
  return record(
    {
      id: randomId(),
      clientId: 'cli',
      redirectUri: 'http://127.0.0.1:33418/callback',
      clientState: 'client-state',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      scope: 'openid profile',
      resource: 'https://mcp.example/mcp',
      upstreamVerifier: randomId(),
      nonce: randomId(),
      expiresAt: t0 + 10 * minute,
    },
    fields,
  );
}

export function issuedCode(fields: Partial<IssuedCode> = {}): IssuedCode {
  return record(
    {
      digest: randomId(),
      clientId: 'cli',
      redirectUri: 'http://127.0.0.1:33418/callback',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      scope: 'openid',
      resource: 'https://mcp.example/mcp',
      identity,
      expiresAt: t0 + minute,
    },
    fields,
  );
}

export function refreshGrant(fields: Partial<RefreshGrant> = {}): RefreshGrant {
  return record(
    {
      digest: randomId(),
      familyId: randomId(),
      clientId: 'cli',
      scope: 'openid',
      resource: 'https://mcp.example/mcp',
      identity,
      expiresAt: t0 + 30 * day,
    },
    fields,
  );
}

export function registeredClient(fields: Partial<RegisteredClient> = {}): RegisteredClient {
  return record(
    {
      id: randomId(),
      secretDigest: randomId(),
      name: 'Claude',
      redirectUris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
      authMethod: 'client_secret_basic',
      createdAt: t0 - hour,
    },
    fields,
  );
}

