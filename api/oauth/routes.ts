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
 * - a dynamically registered client the person has not approved in this browser gets the consent
 *   page first (consent-page.ts), whose form posts back to POST /oauth/authorize;
 * - metadata, token and register are readable from any browser origin (MCP Inspector fetches them);
 *   authorize and callback are navigations and need no CORS.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseForm } from 'node:querystring';
import rateLimit from '@fastify/rate-limit';
import {
  ConsentSeal,
  DirectOAuthError,
  OAuthError,
  consentLifetimeMs,
  type ClientCredentials,
  type ConsentNeeded,
  type OAuthServer,
  type Redirect,
} from '../../shared/oauth/index.js';
import { renderConsentPage, sendConsentPage } from './consent-page.js';
import { bodyParser } from '../http/raw-body.js';
import { BodyRefusal } from '../../shared/inbound/index.js';

export interface OAuthRoutesOptions {
  server: OAuthServer;
  /** Signs the consent cookie and the consent form's CSRF token. */
  seal: ConsentSeal;
  /** `server.name`, shown on the consent page. */
  serverName: string;
  issuer: string;
  dcrEnabled: boolean;
  /** Registrations one client address may make per minute (registration is open to anyone). */
  registrationsPerMinute: number;
}

/**
 * RFC 8414 metadata with the fields and values of the spec's "Server metadata" record, plus `none`
 * among the client authentication methods when public clients may register (DCR on): clients
 * such as the MCP Inspector and Claude Code register as public clients, and the SDK uses the
 * method the registration answered only when the metadata lists it (MCP authorization notes 2.4).
 */
export function authorizationServerMetadata(issuer: string, dcrEnabled: boolean): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    ...(dcrEnabled ? { registration_endpoint: `${issuer}/oauth/register` } : {}),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256', 'plain'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', ...(dcrEnabled ? ['none'] : [])],
  };
}

/** Small request bodies only: a token request or a registration is a few hundred bytes. */
const bodyLimit = 16 * 1024;
const consentCookie = 'oauth_consent';
const csrfCookie = 'oauth_consent_csrf';

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
  // Read within the listener's body rules (api/http/raw-body.ts) and each route's bodyLimit; a name sent twice becomes an array.
  app.addContentTypeParser('application/x-www-form-urlencoded', bodyParser((_request, body, done) => done(null, parseForm(body.toString('utf8')))));
  // Bodies Fastify itself refuses (malformed JSON, too large) still get an OAuth-shaped answer.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode === 429) {
      const description = (error as { error_description?: unknown }).error_description;
      return reply.code(429).send({ error: 'temporarily_unavailable', error_description: typeof description === 'string' ? description : 'too many requests' });
    }
    // A body too slow, or past the replica's unauthenticated bytes (api/http/raw-body.ts): its own status.
    if (error instanceof BodyRefusal) {
      return reply.code(error.statusCode).send({ error: error.statusCode === 503 ? 'temporarily_unavailable' : 'invalid_request', error_description: error.message });
    }
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

  const cookieBase = { path: '/oauth', httpOnly: true, secure: issuer.startsWith('https:') } as const;

  /** A redirect, or the consent page with a fresh CSRF nonce cookie. */
  function answer(reply: FastifyReply, result: Redirect | ConsentNeeded, params: Record<string, string | undefined>): FastifyReply {
    if ('location' in result) return reply.code(302).header('cache-control', 'no-store').header('location', result.location).send();
    const nonce = ConsentSeal.nonce();
    void reply.setCookie(csrfCookie, nonce, { ...cookieBase, sameSite: 'strict', maxAge: 600 });
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) if (value !== undefined && name !== 'decision' && name !== 'csrf_token') fields[name] = value;
    fields.csrf_token = opts.seal.csrfToken(nonce, result.consent.clientId);
    return sendConsentPage(reply, renderConsentPage({ serverName: opts.serverName, clientName: result.consent.clientName, redirectUri: result.consent.redirectUri, fields }));
  }

  app.get('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    try {
      const params = singleParams(request.query);
      const approved = opts.seal.approved(request.cookies[consentCookie]);
      return answer(reply, await server.authorize(params, { consented: (id) => approved.includes(id) }), params);
    } catch (error) {
      return sendError(reply, request, error);
    }
  });

  // The consent page's answer: the original parameters, the person's decision and the CSRF token.
  app.post('/oauth/authorize', { schema: { hide: true }, bodyLimit }, async (request, reply) => {
    try {
      const params = singleParams(request.body);
      const clientId = params.client_id ?? '';
      if (!opts.seal.csrfValid(request.cookies[csrfCookie], clientId, params.csrf_token)) {
        throw new DirectOAuthError('access_denied', 'the consent form expired or did not come from this server; start again from the application');
      }
      void reply.clearCookie(csrfCookie, { ...cookieBase, sameSite: 'strict' });
      const approve = params.decision === 'approve';
      const result = await server.authorize(params, { consented: (id) => approve && id === clientId, declined: !approve });
      if (approve && 'location' in result) {
        void reply.setCookie(consentCookie, opts.seal.approve(request.cookies[consentCookie], clientId), { ...cookieBase, sameSite: 'lax', maxAge: consentLifetimeMs / 1000 });
      }
      return answer(reply, result, params);
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
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'temporarily_unavailable',
      error_description: `too many registrations from this address; retry in ${Math.ceil(context.ttl / 1000)} s`,
    }),
  });
  preflight(app, '/oauth/register', 'POST, OPTIONS');
  const limit = { rateLimit: { max: opts.registrationsPerMinute, timeWindow: 60_000 } };
  app.post('/oauth/register', { schema: { hide: true }, bodyLimit, config: limit }, async (request, reply) => {
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
