import { anonymousSubject, localOperatorSubject, oidcSubject } from './subjects.js';

/**
 * How a caller proved who it is: an OIDC bearer token, an API key, a token from the platform's own
 * OAuth server, the portal's browser-session cookie, nothing (anonymous HTTP), the local process, or
 * a managed script's run acting as principal `script:<name>` (shared/scripts/runs/principal.ts).
 */
export type AuthType = 'oidc' | 'apikey' | 'oauth' | 'browser_session' | 'anonymous' | 'local' | 'script';

/** The identity every request carries past authentication (spec document 1, "Caller context"). */
export interface CallerContext {
  /** Namespaced by how the caller authenticated (subjects.ts); keys everything stored per caller. */
  subject: string;
  /**
   * The identity provider's own `sub`, for callers it vouches for (OIDC). For display and for
   * `personas.role_mapping.user_personas`; never a key of stored data.
   */
  idpSubject?: string;
  name?: string;
  email?: string;
  roles: string[];
  authType: AuthType;
}

/** The operator's own process over stdio: no MCP authentication (spec: transport rules). */
export const localOperator: CallerContext = { subject: localOperatorSubject, name: 'local operator', roles: [], authType: 'local' };

export const anonymousCaller: CallerContext = { subject: anonymousSubject, roles: [], authType: 'anonymous' };

/** A person as an identity provider vouched for them (a validated token, a session, our own token). */
export interface VouchedPerson {
  /** The provider's issuer. */
  issuer: string;
  /** The provider's `sub`. */
  sub: string;
  name?: string | undefined;
  email?: string | undefined;
  roles: readonly string[];
}

/**
 * The caller such a person is, however they proved it (`oidc` bearer token, `oauth` token of ours,
 * `browser_session` cookie): always subject `oidc:<issuer>#<sub>`, so every way in names the same
 * person and reaches the same stored data.
 */
export function vouchedCaller(person: VouchedPerson, authType: AuthType): CallerContext {
  return {
    subject: oidcSubject(person.issuer, person.sub),
    idpSubject: person.sub,
    ...(person.name ? { name: person.name } : {}),
    ...(person.email ? { email: person.email } : {}),
    roles: [...person.roles],
    authType,
  };
}
