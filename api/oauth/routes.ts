/**
 * The built-in OAuth server's HTTP endpoints (spec document 1, "Endpoints"; registered only when
 * `oauth.enabled`): metadata (RFC 8414), authorize, the upstream callback, token and, with
 * `oauth.dcr.enabled`, registration (RFC 7591). The rules live in shared/oauth/server.ts; this file
 * parses requests and renders answers:
 *
 * - token and register answer JSON `{error, error_description}` with the RFC status (400, 401 with
 *   `WWW-Authenticate: Basic` for a failed Basic client authentication, 502 for
 *   `token_exchange_failed`), `Cache-Control: no-store` on every token answer;
 * - authorize and callback redirect (302) to the client, with the error in the query once the
 *   client's redirect URI is known; before that, a 400 JSON error is shown in the browser;
 * - metadata, token and register are readable from any browser origin (MCP Inspector fetches them);
 *   authorize and callback are navigations and need no CORS.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formBody from '@fastify/formbody';
import { OAuthError, type ClientCredentials, type OAuthServer } from '../../shared/oauth/index.js';

export interface OAuthRoutesOptions {
  server: OAuthServer;
  issuer: string;
  dcrEnabled: boolean;
}

/** RFC 8414 metadata with exactly the fields and values of the spec's "Server metadata" record. */
export function authorizationServerMetadata(issuer: string, dcrEnabled: boolean): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    ...(dcrEnabled ? { registration_endpoint: `${issuer}/oauth/register` } : {}),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256', 'plain'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  };
}

/** Small request bodies only: a token request or a registration is a few hundred bytes. */
const bodyLimit = 16 * 1024;

function corsReadable(reply: FastifyReply): void {
  void reply.header('access-control-allow-origin', '*');
}

function preflight(app: FastifyInstance, url: string, methods: string): void {
  app.options(url, { schema: { hide: true } }, (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', methods)
      .header('access-control-allow-headers', 'Authorization, Content-Type, MCP-Protocol-Version')
      .header('access-control-max-age', '600')
      .send(),
  );
}

/** Query or form parameters as single strings; a parameter sent twice is a malformed request (RFC 6749 §3.1). */
function singleParams(source: unknown): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = {};
  if (typeof source !== 'object' || source === null) return params;
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `${name} given more than once`);
    if (typeof value === 'string') params[name] = value;
  }
  return params;
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded id and secret. */
function basicCredentials(header: string | undefined): { clientId: string; secret: string } | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    return { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** Which of the three ways the token request authenticates its client; more than one is refused (RFC 6749 §2.3). */
function clientCredentials(request: FastifyRequest, params: Record<string, string | undefined>): ClientCredentials {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const basic = basicCredentials(authorization);
    if (!basic) throw new OAuthError('invalid_client', 'malformed Basic client credentials');
    if (params.client_secret !== undefined) throw new OAuthError('invalid_request', 'client credentials given in more than one way');
    if (params.client_id !== undefined && params.client_id !== basic.clientId) throw new OAuthError('invalid_request', 'client_id does not match the Basic credentials');
    return { method: 'client_secret_basic', ...basic };
  }
  if (!params.client_id) throw new OAuthError('invalid_client', 'client authentication is required');
  return params.client_secret !== undefined
    ? { method: 'client_secret_post', clientId: params.client_id, secret: params.client_secret }
    : { method: 'none', clientId: params.client_id };
}

function sendError(reply: FastifyReply, request: FastifyRequest, error: unknown): FastifyReply {
  if (!(error instanceof OAuthError)) {
    request.log.error({ err: error }, 'OAuth request failed');
    return reply.code(500).send({ error: 'server_error', error_description: 'internal error' });
  }
  if (error.error === 'invalid_client' && request.headers.authorization !== undefined) {
    void reply.header('www-authenticate', 'Basic realm="oauth", charset="UTF-8"');
  }
  request.log.info({ oauthError: error.error }, 'OAuth request refused');
  return reply.code(error.status).send(error.body());
}

export async function oauthRoutes(app: FastifyInstance, opts: OAuthRoutesOptions): Promise<void> {
  const { server, issuer } = opts;
  await app.register(formBody, { bodyLimit });
  // Bodies Fastify itself refuses (malformed JSON, too large) still get an OAuth-shaped answer.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode === 413 ? 413 : 400;
    const code = request.url.startsWith('/oauth/register') ? 'invalid_client_metadata' : 'invalid_request';
    if ((error.statusCode ?? 500) >= 500) return sendError(reply, request, error);
    return reply.code(status).send({ error: code, error_description: error.message });
  });
  const metadata = authorizationServerMetadata(issuer, opts.dcrEnabled);

  preflight(app, '/.well-known/oauth-authorization-server', 'GET, OPTIONS');
  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, (_request, reply) => {
    corsReadable(reply);
    return reply.send(metadata);
  });

  app.get('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    try {
      const { location } = await server.authorize(singleParams(request.query));
      return reply.code(302).header('cache-control', 'no-store').header('location', location).send();
    } catch (error) {
      return sendError(reply, request, error);
    }
  });

  app.get('/oauth/callback', { schema: { hide: true } }, async (request, reply) => {
    try {
      const { location } = await server.callback(singleParams(request.query));
      return reply.code(302).header('cache-control', 'no-store').header('location', location).send();
    } catch (error) {
      return sendError(reply, request, error);
    }
  });

  preflight(app, '/oauth/token', 'POST, OPTIONS');
  app.post('/oauth/token', { schema: { hide: true }, bodyLimit }, async (request, reply) => {
    corsReadable(reply);
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return sendError(reply, request, new OAuthError('invalid_request', 'the token request must be application/x-www-form-urlencoded'));
    }
    try {
      const params = singleParams(request.body);
      return reply.send(await server.token(params, clientCredentials(request, params)));
    } catch (error) {
      return sendError(reply, request, error);
    }
  });

  if (!opts.dcrEnabled) return;
  preflight(app, '/oauth/register', 'POST, OPTIONS');
  app.post('/oauth/register', { schema: { hide: true }, bodyLimit }, async (request, reply) => {
    corsReadable(reply);
    void reply.header('cache-control', 'no-store');
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/json')) {
      return sendError(reply, request, new OAuthError('invalid_client_metadata', 'the registration request must be application/json'));
    }
    try {
      return reply.code(201).send(await server.register(request.body));
    } catch (error) {
      return sendError(reply, request, error);
    }
  });
}
