/**
 * What /api/openapi.json says about authentication (the portal generates its client from it).
 *
 * Security schemes follow the deployment: API keys always (configured or stored ones), the
 * platform's own OAuth server when `oauth.enabled`, the OIDC provider's tokens when
 * `auth.oidc.enabled`, the browser-session cookie when `auth.browser_session.enabled`. Routes name
 * every way they could accept (`restSecurity`, `headerSecurity`, or `publicOperation`); the document
 * keeps only the alternatives whose schemes this deployment declares.
 */
import type { PlatformConfig } from '../../shared/config/index.js';
import { oauthIssuer } from '../../shared/oauth/index.js';
import { csrfHeader } from './rest-auth.js';

export type SecurityRequirement = Record<string, string[]>;
export type SecurityScheme = Record<string, unknown>;

const schemeNames = ['apiKey', 'apiKeyHeader', 'oauth2', 'oidc', 'browserSession'] as const;
type SchemeName = (typeof schemeNames)[number];

function requirements(names: readonly SchemeName[]): SecurityRequirement[] {
  return names.map((name) => ({ [name]: [] }));
}

/** Credentials in headers (API key, OAuth or OIDC token) only: /mcp, which never reads the cookie. */
export const headerSecurity = requirements(['apiKey', 'apiKeyHeader', 'oauth2', 'oidc']);
/** Every REST surface (api/http/rest-auth.ts): header credentials, else the browser session. */
export const restSecurity = requirements(schemeNames);
/** No credential: public routes, or routes whose URL or body carries its own proof. */
export const publicOperation: SecurityRequirement[] = [];

/** The security schemes this deployment accepts (components.securitySchemes). */
export function securitySchemesOf(config: PlatformConfig): Partial<Record<SchemeName, SecurityScheme>> {
  const schemes: Partial<Record<SchemeName, SecurityScheme>> = {
    apiKey: { type: 'http', scheme: 'bearer', description: 'A platform API key as `Authorization: Bearer <key>`.' },
    apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A platform API key in the `X-API-Key` header.' },
  };
  if (config.oauth.enabled && config.oauth.issuer) {
    const issuer = oauthIssuer(config);
    schemes.oauth2 = {
      type: 'oauth2',
      description: "An access token of the platform's OAuth server (authorization code with PKCE; metadata at /.well-known/oauth-authorization-server), as `Authorization: Bearer <token>`.",
      flows: { authorizationCode: { authorizationUrl: `${issuer}/oauth/authorize`, tokenUrl: `${issuer}/oauth/token`, refreshUrl: `${issuer}/oauth/token`, scopes: {} } },
    };
  }
  if (config.auth.oidc.enabled && config.auth.oidc.issuer) {
    schemes.oidc = {
      type: 'openIdConnect',
      description: "An access token (JWT) of the deployment's OpenID Connect provider, as `Authorization: Bearer <token>`.",
      openIdConnectUrl: `${config.auth.oidc.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    };
  }
  if (config.auth.browser_session.enabled) {
    schemes.browserSession = {
      type: 'apiKey',
      in: 'cookie',
      name: config.auth.browser_session.cookie_name,
      description:
        `The browser-session cookie set by /portal/auth/callback, used only when no header credential is present. ` +
        `Writes (POST, PUT, PATCH, DELETE) must also send the session's CSRF token (GET /api/v1/portal/session) in \`${csrfHeader}\`: 403 without it.`,
    };
  }
  return schemes;
}

/** The alternatives of `security` whose schemes are all declared. */
export function declaredSecurity(security: SecurityRequirement[], declared: ReadonlySet<string>): SecurityRequirement[] {
  return security.filter((alternative) => Object.keys(alternative).every((name) => declared.has(name)));
}

/** A route schema's `security`, kept to the declared schemes (@fastify/swagger reads every scheme it names). */
export function schemaWithDeclaredSecurity<T extends { security?: SecurityRequirement[] }>(schema: T, declared: ReadonlySet<string>): T {
  return schema.security?.length ? { ...schema, security: declaredSecurity(schema.security, declared) } : schema;
}

type Operations = Record<string, { security?: SecurityRequirement[] } | undefined>;

/** Path items written by hand (api/mcp/openapi.ts), their operations' `security` kept to the declared schemes. */
export function pathsWithDeclaredSecurity(paths: Record<string, Operations>, declared: ReadonlySet<string>): Record<string, Operations> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, operation && schemaWithDeclaredSecurity(operation, declared)])),
    ]),
  );
}
