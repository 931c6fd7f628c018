/**
 * Admin REST routes of webhook sources, under `{admin.path_prefix}/webhooks/sources` (spec
 * document 3 gives the create; list, read, update, delete and the rejected-request list are
 * ours, documented in /api/openapi.json; the source page's status and retries are in
 * webhook-source-status.ts). Every request is an administrator's (api/admin/authorize.ts),
 * checked before any body is read. Bodies are validated by the service (shared/webhooks), whose
 * messages name the field; the route schemas document them. No answer ever carries a secret.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { z } from 'zod';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { App } from '../http/app.js';
import {
  KEPT_REJECTIONS,
  WEBHOOK_REJECTION_OUTCOMES,
  WebhookSourceError,
  webhookSourceCreateSchema,
  webhookSourceUpdateSchema,
  webhookSourceViewSchema,
  type WebhookRejections,
  type WebhookSourceErrorCode,
  type WebhookSources,
} from '../../shared/webhooks/index.js';
import { sendAdminRefusal, type AdminAuthorizer } from './authorize.js';
import { listFigures, listFiguresSchema, startJob, webhookSourceStatusRoutes, type WebhookSourceStatusOptions } from './webhook-source-status.js';
import { restSecurity } from '../http/openapi.js';

export interface WebhookSourceRoutesOptions extends WebhookSourceStatusOptions {
  sources: WebhookSources;
  rejections: WebhookRejections;
  authorize: AdminAuthorizer;
}

const tags = ['admin: webhook sources'];

const errorSchema = z
  .object({
    error: z.string().describe('invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, …'),
    message: z.string().describe('What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim'),
  })
  .describe('Error');

const nameParams = z.object({ name: z.string().describe('Source name') });
const listSchema = z.object({
  sources: z.array(webhookSourceViewSchema.extend({ figures: listFiguresSchema.optional().describe('With figures=true only') })),
});
const listQuery = z.object({
  figures: z
    .enum(['true', 'false'])
    .optional()
    .describe("true: each source with its figures (requests and events of the last hour and day, last event, windows owed, last failure), as its page shows them"),
});
const rejectionsSchema = z.object({
  rejections: z
    .array(
      z.object({
        at: z.string().describe('When the request was refused (UTC)'),
        outcome: z.enum(WEBHOOK_REJECTION_OUTCOMES),
        reason: z.string().describe('Why; never the body'),
      }),
    )
    .describe(`The last ${KEPT_REJECTIONS}, newest first`),
});

const statusOf: Record<WebhookSourceErrorCode, { status: number; error: string }> = {
  invalid: { status: 400, error: 'invalid' },
  not_found: { status: 404, error: 'not_found' },
  name_taken: { status: 409, error: 'conflict' },
  removing: { status: 409, error: 'conflict' },
  scratch_refused: { status: 422, error: 'scratch_refused' },
  table_failed: { status: 502, error: 'table_failed' },
};

/** The body is parsed by the service (one place for its rules and messages); parameters by zod here. */
function bodyParsedByService<S>(route: FastifyRouteSchemaDef<S>): FastifyValidationResult {
  return route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
}

export async function webhookSourceRoutes(app: App, opts: WebhookSourceRoutesOptions): Promise<void> {
  const { sources, rejections } = opts;
  const subjects = new WeakMap<FastifyRequest, string>();

  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authorize(request);
    if (!decision.ok) return sendAdminRefusal(reply, decision);
    subjects.set(request, decision.caller.subject);
  });

  // The service's refusals here; anything else (malformed JSON, a body over server.body_limit) to the app's handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (!(error instanceof WebhookSourceError)) throw error;
    const { status, error: code } = statusOf[error.code];
    if (status >= 500) request.log.error({ err: error }, 'webhook source table operation failed');
    return reply.code(status).send({ error: code, message: error.message });
  });

  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

  app.post(
    '/',
    {
      validatorCompiler: bodyParsedByService,
      schema: {
        operationId: 'createWebhookSource', security: restSecurity,
        tags,
        summary: 'Create a webhook source and its table',
        description:
          "Checks the connection's scratch catalog first (422 with its reason when it cannot hold the table); a source whose table cannot be made is not kept (502).",
        body: webhookSourceCreateSchema,
        response: { 201: webhookSourceViewSchema, ...errors, 409: errorSchema, 422: errorSchema, 502: errorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await sources.create(request.body as unknown, subjects.get(request)!)),
  );

  app.get(
    '/',
    {
      schema: {
        operationId: 'listWebhookSources',
        security: restSecurity,
        tags,
        summary: 'List webhook sources (never their secrets), with their figures when asked',
        querystring: listQuery,
        response: { 200: listSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      const all = await sources.list();
      if (request.query.figures !== 'true') return { sources: all };
      const nowMs = (opts.now ?? Date.now)();
      return {
        sources: await Promise.all(
          all.map(async (source) => ({ ...source, figures: await listFigures(request, opts, { id: source.id, name: source.name, pathToken: source.auth.mode === 'path_token' }, nowMs) })),
        ),
      };
    },
  );

  app.get(
    '/:name',
    { schema: { operationId: 'getWebhookSource', security: restSecurity, tags, summary: 'Read a webhook source (never its secret: auth.secret_set says whether one is stored)', params: nameParams, response: { 200: webhookSourceViewSchema, ...errors } } },
    async (request) => sources.get(request.params.name),
  );

  app.put(
    '/:name',
    {
      validatorCompiler: bodyParsedByService,
      schema: {
        operationId: 'updateWebhookSource', security: restSecurity,
        tags,
        summary: 'Replace the settings of a webhook source',
        description:
          'Every setting is replaced (omitted ones take their defaults). name, connection and config.persona cannot change (400 when they differ). ' +
          'Without auth.secret the stored secret stays; a new one with rotation_overlap_seconds keeps the previous one valid until the overlap ends. ' +
          'A new compact_every_minutes applies to events received afterwards.',
        params: nameParams,
        body: webhookSourceUpdateSchema,
        response: { 200: webhookSourceViewSchema, ...errors },
      },
    },
    async (request) => sources.update(request.params.name, request.body as unknown),
  );

  app.delete(
    '/:name',
    {
      schema: {
        operationId: 'deleteWebhookSource', security: restSecurity,
        tags,
        summary: 'Delete a webhook source: it is marked as being removed and its removal starts',
        description:
          'Answers 202 with the source (state removing) once the mark is stored; again for a source already being removed. From then on the source receives ' +
          'nothing (its /hooks/ address answers 404), and the workflow webhook-remove:{name} stops its compactions and removes its windows (partition, ' +
          'resource, raw segments — each step recorded), its table and the source itself; its name is free again once that finished (a create until then: 409).',
        params: nameParams,
        response: { 202: webhookSourceViewSchema, ...errors },
      },
    },
    async (request, reply) => {
      const source = await sources.markRemoving(request.params.name);
      // The mark is the durable hand-off: a start that fails here is made by the next sweep.
      await startJob(request, 'removal', () => opts.jobs?.remove({ id: source.id, name: source.name, connection: source.connection, persona: source.config.persona }));
      return reply.code(202).send(source);
    },
  );

  app.get(
    '/:name/rejections',
    {
      schema: {
        operationId: 'listWebhookSourceRejections', security: restSecurity,
        tags,
        summary: `The last ${KEPT_REJECTIONS} rejected requests of a webhook source (time, outcome, reason; never the body)`,
        params: nameParams,
        response: { 200: rejectionsSchema, ...errors },
      },
    },
    async (request) => ({ rejections: await rejections.list((await sources.get(request.params.name)).id) }),
  );

  webhookSourceStatusRoutes(app, opts);
}
