/**
 * Subjects are namespaced by how the caller authenticated, so that two ways of proving an identity
 * can never name the same person by accident: an API key called `alice` and an OIDC user whose
 * `sub` is `alice` are `apikey:alice` and `oidc:<issuer>#alice`. Everything a subject keys
 * (personal libraries, MCP sessions, audit rows, writer records, usage) uses these forms.
 *
 *   apikey:<key name>          API keys (configured or stored by the platform)
 *   oidc:<issuer>#<sub>        OIDC bearer tokens. Tokens from the platform's own OAuth server and
 *                              browser sessions vouch for the same upstream user and must map onto
 *                              this form through `oidcSubject` (the seam for those paths).
 *   local:operator             the operator's own process over stdio
 *   anonymous:anonymous        unauthenticated HTTP callers (`auth.allow_anonymous`)
 *
 * An OIDC issuer identifier has no fragment (OpenID Connect Discovery 1.0 §3), so the first `#`
 * after `oidc:` ends the issuer and `sub` may hold anything.
 */

export function apiKeySubject(name: string): string {
  return `apikey:${name}`;
}

export function oidcSubject(issuer: string, sub: string): string {
  return `oidc:${issuer}#${sub}`;
}

export const localOperatorSubject = 'local:operator';

export const anonymousSubject = 'anonymous:anonymous';
