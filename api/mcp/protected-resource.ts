/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoint: where MCP clients learn
 * which authorization server issues tokens for `/mcp` (MCP authorization, 2025-06-18 and later).
 *
 * - The document is served at `/.well-known/oauth-protected-resource/mcp` (the path-suffixed URL,
 *   which 401 challenges point at) and at `/.well-known/oauth-protected-resource` (the root URL
 *   clients try last), the same document at both, readable from any browser origin.
 * - `resource` is the exact MCP endpoint URL: `<public base URL>/mcp`. The public base URL is
 *   `oauth.issuer` when set (spec document 1: "Public URL of this server"), else
 *   `portal.public_base_url`, else the scheme and Host of the request being answered. On a
 *   loopback deployment a request through another loopback name of the same port (`localhost`
 *   for 127.0.0.1) gets its own spelling back: clients check `resource` against the URL they
 *   were given, and the OAuth server takes either spelling as the same resource.
 * - It is served only when there is an authorization server to name (RFC 9728 and MCP require at
 *   least one): our own OAuth server (`oauth.issuer`) when `oauth.enabled`, else `auth.oidc.issuer`
 *   when OIDC is enabled. Without one both URLs answer 404 and challenges carry no
 *   `resource_metadata`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PlatformConfig } from '../../shared/config/index.js';
import { loopbackSpellingOf, oauthIssuer } from '../../shared/oauth/index.js';
import { publicBaseOf } from '../http/public-url.js';

/** What the metadata document says about the MCP endpoint. */
export interface ProtectedResource {
  /** From configuration; absent: each request's own scheme and Host. */
  publicBaseUrl?: string;
  /** Issuer URLs of the authorization servers whose tokens `/mcp` accepts; never empty. */
  authorizationServers: readonly string[];
  /** Scopes a client asks for in basic use, when known. */
  scopes?: readonly string[];
  /** Human-readable name of the resource (`server.name`). */
  name: string;
}

export const mcpEndpointPath = '/mcp';
const wellKnown = '/.well-known/oauth-protected-resource';

/**
 * The authorization server to advertise: ours when it is on (it is the one that issues tokens for
 * `/mcp`; clients that find the OIDC provider instead would get tokens for another audience).
 */
function authorizationServers(config: PlatformConfig): string[] {
  if (config.oauth.enabled && config.oauth.issuer) return [oauthIssuer(config)];
  if (config.auth.oidc.enabled && config.auth.oidc.issuer) return [config.auth.oidc.issuer];
  return [];
}

/** The settings of the metadata document, or undefined when no authorization server is configured. */
export function protectedResourceOf(config: PlatformConfig): ProtectedResource | undefined {
  const servers = authorizationServers(config);
  if (servers.length === 0) return undefined;
  const base = config.oauth.issuer ?? (config.portal.public_base_url || undefined);
  // offline_access is for the AS to offer, not something basic use of the resource needs (SEP-2207).
  // Our own OAuth server defines no scopes: clients then ask for none.
  const scopes = config.oauth.enabled ? [] : (config.auth.oidc.scopes ?? []).filter((s) => s !== 'offline_access');
  return {
    ...(base ? { publicBaseUrl: base.replace(/\/+$/, '') } : {}),
    authorizationServers: servers,
    ...(scopes.length > 0 ? { scopes } : {}),
    name: config.server.name,
  };
}


/** The MCP endpoint URL, `resource` of the document. */
function resourceUrl(base: string): string {
  return `${base}${mcpEndpointPath}`;
}

/** RFC 9728 §3.1: the well-known segment goes between the host and the resource's path. */
function metadataUrlFor(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}${wellKnown}${url.pathname}`;
}

/** The public base URL as this request addressed it (see the header). */
function baseFor(resource: ProtectedResource, request: FastifyRequest): string | undefined {
  const base = publicBaseOf(resource.publicBaseUrl, request);
  return base && loopbackSpellingOf(base, request.headers.host);
}

/** The path-suffixed metadata URL, for `resource_metadata` in 401 challenges. */
export function resourceMetadataUrl(resource: ProtectedResource, request: FastifyRequest): string | undefined {
  const base = baseFor(resource, request);
  return base ? metadataUrlFor(resourceUrl(base)) : undefined;
}

export function protectedResourceMetadata(resource: ProtectedResource, base: string): Record<string, unknown> {
  return {
    resource: resourceUrl(base),
    authorization_servers: resource.authorizationServers,
    bearer_methods_supported: ['header'],
    ...(resource.scopes ? { scopes_supported: resource.scopes } : {}),
    resource_name: resource.name,
  };
}

/** The two well-known routes; nothing when there is no authorization server to name. */
export async function protectedResourceRoutes(app: FastifyInstance, opts: { resource: ProtectedResource | undefined }): Promise<void> {
  const { resource } = opts;
  if (!resource) return;
  for (const url of [wellKnown, `${wellKnown}${mcpEndpointPath}`]) {
    // Browser clients (MCP Inspector) fetch it cross-origin, with an MCP-Protocol-Version header.
    app.options(url, { schema: { hide: true } }, (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', 'GET, OPTIONS')
        .header('access-control-allow-headers', 'MCP-Protocol-Version, Content-Type')
        .header('access-control-max-age', '600')
        .send(),
    );
    app.get(url, { schema: { hide: true } }, (request, reply) => {
      void reply.header('access-control-allow-origin', '*');
      const base = baseFor(resource, request);
      if (!base) return reply.code(400).send({ error: 'invalid_request', message: 'the Host header is not a valid host' });
      return reply.send(protectedResourceMetadata(resource, base));
    });
  }
}
