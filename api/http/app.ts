import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { fastifyCookie } from '@fastify/cookie';
import { z } from 'zod';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from '../../shared/logging/index.js';
import type { Metrics } from '../../shared/metrics/index.js';
import type { Readiness } from './readiness.js';
import { jsonRpcCodes, jsonRpcError } from '../mcp/streamable/wire.js';
import { AccessLogController, requestLogger } from './access-log.js';
import { CallerInputError, refuseBadCallerInput } from './caller-input.js';
import { applyBodyRules, arrivalOptions, type ArrivalLimits, type BodyRules } from './raw-body.js';
import { pathsWithDeclaredSecurity, publicOperation, schemaWithDeclaredSecurity, type SecurityRequirement, type SecurityScheme } from './openapi.js';

export interface HttpOptions {
  log: Logger;
  metrics: Metrics;
  readiness: Readiness;
  bodyLimit: number;
  /** How long headers and whole requests may take to arrive (the api sets `server.*_timeout`; absent, Node's defaults). */
  arrival?: ArrivalLimits;
  /** The budget and read timeout of bodies read before their request authenticated (the api sets them; absent, none). */
  bodies?: BodyRules;
  version: string;
  tls?: { certFile: string; keyFile: string };
  /** Serve /metrics on this app (false when `metrics.address` gives it its own listener). */
  serveMetrics: boolean;
  /** The OpenAPI document's security schemes and the paths no route schema describes (api/http/openapi.ts). */
  openapi?: { securitySchemes: Record<string, SecurityScheme>; paths: Parameters<typeof pathsWithDeclaredSecurity>[0] };
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

function isMcpPath(url: string): boolean {
  return url === '/mcp' || url.startsWith('/mcp?') || url.startsWith('/mcp/') || url.startsWith('/messages');
}

/**
 * The api process's HTTP server: request ids, zod-validated routes that feed the OpenAPI
 * document, health, readiness and metrics. Surfaces (MCP, later portal/admin/…) register on it.
 */
export async function buildHttpApp(opts: HttpOptions): Promise<App> {
  const app = Fastify({
    // Request log lines take the logger's `req` serializer, which hides URL secrets (shared/logging).
    loggerInstance: opts.log,
    logController: new AccessLogController(),
    childLoggerFactory: requestLogger,
    bodyLimit: opts.bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Idle keep-alive sockets close at once on shutdown; busy ones finish their request first.
    forceCloseConnections: 'idle',
    ...listenerOptions(opts.arrival, opts.tls),
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const securitySchemes = opts.openapi?.securitySchemes ?? {};
  const declared = new Set(Object.keys(securitySchemes));
  await app.register(swagger, {
    // The schemes and paths are plain OpenAPI 3.1 objects (api/http/openapi.ts, api/mcp/openapi.ts).
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Agent data platform API', version: opts.version, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
      // Relative: the api at the origin that serves this document.
      servers: [{ url: '/', description: 'This api' }],
      components: { securitySchemes },
      paths: pathsWithDeclaredSecurity(opts.openapi?.paths ?? {}, declared),
    } as FastifyDynamicSwaggerOptions['openapi'],
    transform: (input) => {
      const { schema, url } = jsonSchemaTransform(input);
      return { schema: schemaWithDeclaredSecurity(schema as { security?: SecurityRequirement[] }, declared), url };
    },
  });

  // Cookies for the browser surfaces (portal sign-in, OAuth consent); parsed on every request.
  await app.register(fastifyCookie);

  // Callback hooks, not async ones, here and below: they run on every request of the listener.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  if (opts.bodies) applyBodyRules(app, opts.bodies);
  refuseBadCallerInput(app);
  countRequests(app, opts.metrics);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (isMcpPath(request.url)) {
      const code = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? jsonRpcCodes.parseError
        : error instanceof CallerInputError || status === 413 ? jsonRpcCodes.invalidRequest : jsonRpcCodes.serverError;
      const message = code === jsonRpcCodes.parseError ? 'Parse error: invalid JSON' : status >= 500 ? 'internal error' : error.message;
      return reply.code(code === jsonRpcCodes.parseError ? 400 : status).send(jsonRpcError(code, message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ error: 'invalid_request', message: error.message });
    }
    return reply.code(status).send({
      error: status === 413 ? 'payload_too_large' : status >= 500 ? 'internal_error' : (error.code ?? 'bad_request'),
      message: status >= 500 ? 'internal error' : error.message,
    });
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.code(404).send({ error: 'not_found', message: `no route for ${request.method} ${request.url.split('?')[0]}` });
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/healthz',
    { schema: { operationId: 'getHealth', summary: 'Liveness', description: 'Liveness: the process answers', security: publicOperation, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: 'Readiness: dependencies reachable and not draining',
        security: publicOperation,
        response: {
          200: z.object({ ready: z.boolean(), checks: z.record(z.string(), z.boolean()) }),
          503: z.object({ ready: z.boolean(), checks: z.record(z.string(), z.boolean()) }),
        },
      },
    },
    async (_request, reply) => {
      const result = await opts.readiness.evaluate();
      return reply.code(result.ready ? 200 : 503).send(result);
    },
  );

  if (opts.serveMetrics) registerMetricsRoute(app, opts.metrics);
  return app;
}

/** Node's arrival limits, on the TLS options when the listener serves HTTPS (Node reads them there). */
function listenerOptions(arrival: ArrivalLimits | undefined, tls: HttpOptions['tls']) {
  const limits = arrival ? arrivalOptions(arrival) : undefined;
  const https = tls ? { https: { ...limits?.http, cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) } } : {};
  if (!limits) return https;
  return tls ? { requestTimeout: limits.requestTimeout, ...https } : limits;
}

/** HTTP request series, labelled by route template (never the caller's path). */
export function countRequests(app: App, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
}

export function registerMetricsRoute(app: App | FastifyInstance, metrics: Metrics): void {
  (app as FastifyInstance).get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/**
 * `metrics.address` set: Prometheus scrapes a listener of its own, apart from the public API. Its
 * request log lines go through the same logger, so they get the same URL redaction.
 */
export async function startMetricsListener(metrics: Metrics, address: string, log: Logger): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ loggerInstance: log.child({ listener: 'metrics' }) as FastifyBaseLogger, logController: new AccessLogController() });
  registerMetricsRoute(app, metrics);
  const { host, port } = parseListenAddress(address);
  const url = await app.listen({ host, port });
  return { url, close: () => app.close() };
}

/** `:8080`, `0.0.0.0:8080`, `127.0.0.1:0`, `[::1]:8080`. An empty host means every interface. */
export function parseListenAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(address.trim());
  if (!match) throw new Error(`invalid listen address "${address}" (expected host:port or :port)`);
  const host = match[1] ?? match[2] ?? '';
  return { host: host === '' ? '0.0.0.0' : host, port: Number(match[3]) };
}
