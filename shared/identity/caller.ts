import { anonymousSubject, localOperatorSubject } from './subjects.js';

/**
 * How a caller proved who it is: an OIDC bearer token, an API key, a token from the platform's own
 * OAuth server, the portal's browser-session cookie, nothing (anonymous HTTP), or the local process.
 */
export type AuthType = 'oidc' | 'apikey' | 'oauth' | 'browser_session' | 'anonymous' | 'local';

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
