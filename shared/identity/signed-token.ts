import { compactVerify, decodeProtectedHeader, errors, type ProtectedHeaderParameters } from 'jose';
import type { IssuerKeys } from './jwks.js';
import type { Claims } from './oidc-claims.js';

/**
 * Asymmetric algorithms only. `none` is never accepted, and neither is HS*: verifying an HMAC
 * with a *public* key would let anyone who downloaded the JWKS mint tokens.
 */
export const oidcAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;
const allowedAlgorithms = new Set<string>(oidcAlgorithms);

/** Three base64url segments; the signature may be empty so that `alg: none` gets its own reason. */
const compactJws = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

export type SignatureVerdict =
  /** `keysCurrentUntil`: the verdict must not be trusted past the age at which the key set is refreshed. */
  | { ok: true; claims: Claims; keysCurrentUntil: number }
  | { ok: false; reason: string };

export function protectedHeaderOf(token: string): ProtectedHeaderParameters | undefined {
  if (!compactJws.test(token)) return undefined;
  try {
    return decodeProtectedHeader(token);
  } catch {
    return undefined;
  }
}

export function parseClaims(payload: Uint8Array): Claims | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Claims) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A JWS from an identity provider, checked against the provider's published keys: a compact
 * token, an allowed asymmetric algorithm, a key the issuer published, a valid signature and a
 * JSON object payload. The claims are not judged here (checkClaims does that).
 */
export async function verifyIssuerSignature(token: string, keys: IssuerKeys): Promise<SignatureVerdict> {
  const header = protectedHeaderOf(token);
  if (!header) return { ok: false, reason: 'malformed token' };
  const alg = header.alg;
  if (typeof alg !== 'string' || !allowedAlgorithms.has(alg)) {
    // The header is attacker-controlled: echo the name only when it is plainly a name.
    const shown = typeof alg === 'string' && /^[A-Za-z0-9]{1,12}$/.test(alg) ? ` (${alg})` : '';
    return { ok: false, reason: `token algorithm not allowed${shown}` };
  }

  const lookup = await keys.keysFor(header);
  if (!lookup.ok) return { ok: false, reason: lookup.reason };
  const keysCurrentUntil = keys.currentUntil();

  let payload: Uint8Array | undefined;
  for (const key of lookup.keys) {
    try {
      ({ payload } = await compactVerify(token, key, { algorithms: [...oidcAlgorithms] }));
      break;
    } catch (error) {
      if (!(error instanceof errors.JOSEError)) throw error;
    }
  }
  if (!payload) return { ok: false, reason: 'invalid token signature' };
  const claims = parseClaims(payload);
  return claims ? { ok: true, claims, keysCurrentUntil } : { ok: false, reason: 'malformed token' };
}
