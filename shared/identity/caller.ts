/** How a caller proved who it is. Later issues add `browser` and `oauth`. */
export type AuthType = 'oidc' | 'apikey' | 'anonymous' | 'local';

/** The identity every request carries past authentication (spec document 1, "Caller context"). */
export interface CallerContext {
  subject: string;
  name?: string;
  email?: string;
  roles: string[];
  authType: AuthType;
}

/** The operator's own process over stdio: no MCP authentication (spec: transport rules). */
export const localOperator: CallerContext = { subject: 'local-operator', name: 'local operator', roles: [], authType: 'local' };

export const anonymousCaller: CallerContext = { subject: 'anonymous', roles: [], authType: 'anonymous' };
