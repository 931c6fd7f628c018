/**
 * Scripted endpoints over HTTP (spec document 3, "Scripted endpoints"; docs/endpoints.md,
 * "Requests"): every method at `/endpoints/{name}` and `/endpoints/{name}/{rest...}`, HEAD wherever
 * GET. The route hands the request, its body unread, to shared/endpoints (EndpointRequests), which
 * reads the binding first so the body is read within the binding's own max_body_bytes, and writes
 * the answer. Bodies of any content type are raw bytes here; no other surface's CORS applies.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import { markAuthenticated, readBodyWithin } from '../http/raw-body.js';
import { publicBaseOf } from '../http/public-url.js';
import type { RestAuthenticator } from '../http/rest-auth.js';
import {
  ENDPOINT_ROUTE,
  EndpointRequests,
  type EndpointAnswer,
  type EndpointAuthenticator,
  type EndpointRequestsDeps,
} from '../../shared/endpoints/index.js';

export interface EndpointRoutesOptions extends Omit<EndpointRequestsDeps, 'authenticate'> {
  /** The REST authentication every surface shares (RouteContext.authenticate). */
  authenticate: RestAuthenticator;
  /** `portal.public_base_url`, else `oauth.issuer`; absent: each request's own origin is the platform's. */
  publicBaseUrl?: string;
}

/** The path of a request under /endpoints/: the name's raw segment, and what follows it. */
const ENDPOINT_PATH = /^\/endpoints\/([^/]*)(.*)$/;

/** The REST authentication in the pipeline's terms: whether the caller came by browser session. */
export function endpointAuthenticator(authenticate: RestAuthenticator): EndpointAuthenticator {
  return async (request) => {
    const decision = await authenticate(request);
    return decision.ok ? { ok: true, caller: decision.caller, viaSession: decision.session !== undefined } : { ok: false, status: decision.status, error: decision.error };
  };
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export async function endpointRoutes(app: App, opts: EndpointRoutesOptions): Promise<void> {
  const requests = new EndpointRequests({ ...opts, authenticate: endpointAuthenticator(opts.authenticate) });
  const configuredOrigin = originOf(opts.publicBaseUrl);
  // Bodies are read by the pipeline, after the binding is known, within its own limit and as raw bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const handle = async (request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
    const [path, query = ''] = splitUrl(request.url);
    const rest = ENDPOINT_PATH.exec(path)?.[2] ?? '';
    const answer = await requests.answer({
      name: request.params.name,
      rest,
      method: request.method.toUpperCase(),
      path,
      rawQuery: query,
      headers: request.headers,
      rawHeaders: request.raw.rawHeaders,
      // Worked out only when asked (a browser session's request): parsing a URL per request is not free.
      get ownOrigin() {
        return configuredOrigin ?? publicBaseOf(undefined, request);
      },
      remoteIp: request.ip,
      readBody: (limit, authenticated) => {
        if (authenticated) markAuthenticated(request.raw);
        return readBodyWithin(request.raw, limit);
      },
    });
    return send(reply, answer);
  };

  // A Content-Type Fastify cannot parse as a media type is still the endpoint's to answer.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code !== 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw error;
    return handle(request as FastifyRequest<{ Params: { name: string } }>, reply);
  });

  // Every request under /endpoints/, refusals included, by the route template only.
  app.addHook('onResponse', (_request, reply, done) => {
    opts.metrics.httpDuration.observe({ route: ENDPOINT_ROUTE }, reply.elapsedTime / 1000);
    done();
  });

  const schema = { hide: true };
  app.all('/endpoints/:name', { schema, exposeHeadRoute: false }, handle);
  app.all('/endpoints/:name/*', { schema, exposeHeadRoute: false }, handle);
}

function splitUrl(url: string): [string, string?] {
  const at = url.indexOf('?');
  return at < 0 ? [url] : [url.slice(0, at), url.slice(at + 1)];
}

function send(reply: FastifyReply, answer: EndpointAnswer): FastifyReply {
  void reply.code(answer.status).headers(answer.headers);
  if (answer.close) void reply.header('connection', 'close');
  return reply.send(answer.body);
}
