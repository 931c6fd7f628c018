/**
 * PKCE (RFC 7636) as the built-in server requires it: S256 only (the metadata lists `plain`, as
 * the spec's records table says, but an authorization request with `plain` is refused).
 */
import { timingSafeEqual } from 'node:crypto';
import { s256Challenge } from '../identity/oidc-relying-party.js';

/** RFC 7636 §4.1: 43-128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const verifierShape = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url SHA-256 of a verifier: exactly 43 characters, no padding. */
const s256Shape = /^[A-Za-z0-9_-]{43}$/;

export function isValidVerifier(verifier: string): boolean {
  return verifierShape.test(verifier);
}

export function isValidS256Challenge(challenge: string): boolean {
  return s256Shape.test(challenge);
}

/** Does the verifier hash to the challenge? Compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isValidVerifier(verifier) || !isValidS256Challenge(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256Challenge(verifier)), Buffer.from(challenge));
}
