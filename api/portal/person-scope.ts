/**
 * What the route scopes of a person's own things (assets, stored prompts) share: authentication
 * before any body is read (anonymous callers own nothing, so they are refused), the person's actor
 * per request, and one error handler — the domain's errors as `{error, message, ...details}` with
 * the domain's statuses, invalid input as 400, anything else as itself or a 500 kept out of the answer.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { PlatformConfig } from '../../shared/config/index.js';
import { resourceActor, type ResourceActor } from '../../shared/resources/index.js';
import type { App } from '../http/app.js';
import { CallerInputError } from '../http/caller-input.js';
import { sendRestRefusal, unauthenticated, type RestAuthenticator } from '../http/rest-auth.js';

/** A domain's error: a code the routes map to a status, and details sent beside the message. */
interface DomainError<Code extends string> extends Error {
  readonly code: Code;
  readonly details?: Record<string, unknown> | undefined;
}

export interface PersonScopeOptions<Code extends string> {
  authenticate: RestAuthenticator;
  config: Pick<PlatformConfig, 'personas' | 'admin'>;
  /** What the scope holds, for its log lines ("asset", "prompt"). */
  what: string;
  isDomainError: (error: unknown) => error is DomainError<Code>;
  statusByCode: Record<Code, number>;
}

/** Registers the scope's authentication and error handler; answers each request's actor. */
export function personScope<Code extends string>(app: App, opts: PersonScopeOptions<Code>): (request: FastifyRequest) => ResourceActor {
  const actors = new WeakMap<FastifyRequest, ResourceActor>();

  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authenticate(request);
    if (!decision.ok) return sendRestRefusal(reply, decision);
    if (decision.caller.authType === 'anonymous') return sendRestRefusal(reply, unauthenticated());
    actors.set(request, resourceActor(decision.caller, { config: opts.config, origin: 'person' }));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (opts.isDomainError(error)) return reply.code((opts.statusByCode[error.code] as number | undefined) ?? 500).send({ ...(error.details ?? {}), error: error.code, message: error.message });
    if (hasZodFastifySchemaValidationErrors(error)) return reply.code(400).send({ error: 'invalid_request', message: error.message });
    if (error instanceof CallerInputError) return reply.code(400).send({ error: 'invalid', message: error.message });
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, `${opts.what} request failed`);
    return reply.code(status).send({ error: status >= 500 ? 'internal_error' : (error.code ?? 'bad_request'), message: status >= 500 ? 'internal error' : error.message });
  });

  return (request) => {
    const found = actors.get(request);
    if (!found) throw new Error(`${opts.what} route reached without an actor`);
    return found;
  };
}
