/**
 * `webhooks.receiver.address` set: /hooks/ on a listener of its own (document 3: "Optional
 * separate listener"; all sources share its one port and are routed by path). Only the webhook
 * routes and a liveness probe are served there; its requests are logged and counted like the api's.
 */
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { AccessLogController, requestLogger } from '../http/access-log.js';
import { refuseBadCallerInput } from '../http/caller-input.js';
import { applyBodyRules, arrivalOptions, type ArrivalLimits, type BodyRules } from '../http/raw-body.js';
import { countRequests, parseListenAddress, type App } from '../http/app.js';
import type { Logger } from '../../shared/logging/index.js';
import type { Metrics } from '../../shared/metrics/index.js';
import { continueHooksOnRead, hookRoutes, type HookRoutesOptions } from './routes.js';

export interface HookListener {
  url: string;
  close(): Promise<void>;
}

export async function startHookListener(opts: HookRoutesOptions & { address: string; log: Logger; metrics: Metrics; arrival: ArrivalLimits; bodies: BodyRules }): Promise<HookListener> {
  const app = Fastify({
    loggerInstance: opts.log.child({ listener: 'webhooks' }) as FastifyBaseLogger,
    logController: new AccessLogController(),
    childLoggerFactory: requestLogger,
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    ...arrivalOptions(opts.arrival),
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  countRequests(app, opts.metrics);
  applyBodyRules(app, opts.bodies);
  refuseBadCallerInput(app);
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(hookRoutes, { receiver: opts.receiver, ...(opts.now ? { now: opts.now } : {}) });
  continueHooksOnRead(app.server);
  const { host, port } = parseListenAddress(opts.address);
  const url = await app.listen({ host, port });
  return { url, close: () => app.close() };
}
