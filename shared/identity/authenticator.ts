import type { CallerContext } from './caller.js';
import { anonymousCaller } from './caller.js';
import type { Credential } from './credentials.js';

/**
 * One link of the authentication chain. `pass` means "not a credential I understand";
 * `reject` means "mine, and it is bad" — which ends the chain (fail closed).
 */
export type AuthOutcome =
  /** `remainingMs`: how much longer the verdict holds without asking again (a cached verdict's rest; none: ask every time). */
  | { result: 'accept'; caller: CallerContext; remainingMs?: number }
  | { result: 'pass' }
  | { result: 'reject'; reason: string };

export interface Authenticator {
  readonly name: string;
  authenticate(credential: Credential): Promise<AuthOutcome>;
}

export type AuthDecision =
  | { ok: true; caller: CallerContext; remainingMs?: number }
  | { ok: false; error: 'missing_credentials' | 'invalid_token'; description: string };

/**
 * Runs every credential through the chain. A presented credential that no link accepts is an
 * error even when anonymous access is allowed: a caller who tried to authenticate and failed
 * must learn it rather than silently become anonymous.
 */
export async function authenticateCredentials(
  chain: readonly Authenticator[],
  credentials: readonly Credential[],
  allowAnonymous: boolean,
): Promise<AuthDecision> {
  if (credentials.length === 0) {
    return allowAnonymous
      ? { ok: true, caller: anonymousCaller }
      : { ok: false, error: 'missing_credentials', description: 'authentication required' };
  }
  for (const credential of credentials) {
    for (const link of chain) {
      const outcome = await link.authenticate(credential);
      if (outcome.result === 'accept') return outcome.remainingMs === undefined ? { ok: true, caller: outcome.caller } : { ok: true, caller: outcome.caller, remainingMs: outcome.remainingMs };
      if (outcome.result === 'reject') return { ok: false, error: 'invalid_token', description: outcome.reason };
    }
  }
  return { ok: false, error: 'invalid_token', description: 'credentials not recognised' };
}
