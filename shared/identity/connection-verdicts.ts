import type { CallerContext } from './caller.js';
import { copyOf } from './verified-cache.js';

/** A copy of `caller` no one can change (assigning to it, or to its roles, throws). */
function frozenCopyOf(caller: CallerContext): CallerContext {
  const copy = copyOf(caller);
  Object.freeze(copy.roles);
  return Object.freeze(copy);
}

/** The raw credential headers of a request, as it sent them (`undefined`: not sent). */
export interface PresentedCredentials {
  authorization: string | undefined;
  apiKey: string | undefined;
}

/**
 * The credential headers of a request, when it sent one or both once each (else undefined: a
 * request without credentials, or with a repeated header, always goes through the chain).
 */
export function presentedCredentials(headers: Record<string, string | string[] | undefined>): PresentedCredentials | undefined {
  const { authorization, 'x-api-key': apiKey } = headers;
  if (Array.isArray(authorization) || Array.isArray(apiKey) || (authorization === undefined && apiKey === undefined)) return undefined;
  return { authorization, apiKey };
}

interface Remembered extends PresentedCredentials {
  caller: CallerContext;
  until: number;
}

/**
 * Equal in time that depends on the lengths only (a length differing answers at once, as any
 * comparison would): every code unit is compared, the differences gathered without a branch.
 */
function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * The last accepted credentials of each connection (issue 41): a keep-alive client sends the same
 * header on every request, and digesting it and asking the verified cache each time was ~6% of a
 * churned MCP session's CPU. A request whose credential headers equal, byte for byte, those its
 * connection last had accepted, while that verdict holds, is the same caller without asking the
 * chain again.
 *
 * - Held no longer than the verdict: `remainingMs` from the link that accepted (a verified-cache
 *   entry's rest, itself bounded by the key's TTL and a token's expiry). A key removed from the
 *   key table stops working when it would without this.
 * - Compared in constant time, never looked up by value; keyed by the connection object (a
 *   WeakMap: gone with the socket), so no other connection can ride on it.
 * - Only acceptances: a refused or different credential goes through the chain as before.
 * - Every hit of a connection returns the same caller object, frozen (roles too): no request can
 *   change what the next one sees, and what is remembered per caller object (its persona's
 *   resolution) is reused by the connection's next requests.
 */
export class ConnectionVerdicts<Connection extends object> {
  readonly #remembered = new WeakMap<Connection, Remembered>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** The caller `presented` was accepted as on `connection`, while that verdict holds. */
  get(connection: Connection, presented: PresentedCredentials): CallerContext | undefined {
    const remembered = this.#remembered.get(connection);
    if (!remembered) return undefined;
    if (this.clock() >= remembered.until) {
      this.#remembered.delete(connection);
      return undefined;
    }
    // Both compared whatever the first gave, so the time does not tell which differed.
    const authorization = sameSecret(remembered.authorization, presented.authorization);
    const apiKey = sameSecret(remembered.apiKey, presented.apiKey);
    return authorization && apiKey ? remembered.caller : undefined;
  }

  /**
   * Remembers that `presented` was accepted on `connection` as `caller` for `remainingMs`; answers
   * the caller object the connection's requests will get (`caller` itself when nothing is remembered).
   */
  remember(connection: Connection, presented: PresentedCredentials, caller: CallerContext, remainingMs: number): CallerContext {
    if (!(remainingMs > 0)) return caller;
    const held = frozenCopyOf(caller);
    this.#remembered.set(connection, { ...presented, caller: held, until: this.clock() + remainingMs });
    return held;
  }
}
