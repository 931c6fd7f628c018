/**
 * Stored secrets (shared/secrets), administered at `{admin.path_prefix}/secrets` by
 * administrators (api/admin/authorize.ts), checked before any body is read: list (names and
 * grants), create or replace one (`PUT /{name}`; the value is write-only), delete one. No answer,
 * error or log line carries a value; the platform reads values on the server only, for the
 * connections a secret allows (`secretFor`).
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app.js';
import { SecretError, secretNameSchema, secretPutSchema, secretViewSchema, type SecretErrorCode, type SecretStore } from '../../shared/secrets/index.js';
import { sendAdminRefusal, type AdminAuthorizer } from './authorize.js';
import { restSecurity } from '../http/openapi.js';

export interface SecretRoutesOptions {
  secrets: SecretStore;
  authorize: AdminAuthorizer;
}

const tags = ['admin: secrets'];

const errorSchema = z
  .object({
    error: z.string().describe('invalid, invalid_request, not_found, unauthorized, forbidden'),
    message: z.string().describe('What went wrong, naming the field; never a value'),
  })
  .describe('Error');

const nameParams = z.object({ name: secretNameSchema });

const statusOf: Record<SecretErrorCode, number> = { invalid: 400, not_found: 404, not_allowed: 403 };

export async function secretRoutes(app: App, opts: SecretRoutesOptions): Promise<void> {
  const { secrets } = opts;
  const subjects = new WeakMap<FastifyRequest, string>();

  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authorize(request);
    if (!decision.ok) return sendAdminRefusal(reply, decision);
    subjects.set(request, decision.caller.subject);
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (!(error instanceof SecretError)) throw error;
    return reply.code(statusOf[error.code]).send({ error: error.code, message: error.message });
  });

  const errors = { 401: errorSchema, 403: errorSchema };

  app.get(
    '/',
    { schema: { operationId: 'listSecrets', security: restSecurity, tags, summary: 'List stored secrets: names and grants, never values', response: { 200: z.object({ secrets: z.array(secretViewSchema) }), ...errors } } },
    async () => ({ secrets: await secrets.list() }),
  );

  app.put(
    '/:name',
    {
      schema: {
        operationId: 'putSecret', security: restSecurity,
        tags,
        summary: 'Create or replace a stored secret',
        description:
          'The value is sealed at rest (AES-256-GCM under secrets.encryption_key) and never returned. Without value, a replace changes the grants and keeps the stored value. ' +
          'A platform connection reads the value only when allow_connections names it and personas is empty.',
        params: nameParams,
        body: secretPutSchema,
        response: { 200: secretViewSchema, 201: secretViewSchema, 400: errorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { created, secret } = await secrets.put(request.params.name, request.body, subjects.get(request)!);
      return reply.code(created ? 201 : 200).send(secret);
    },
  );

  app.delete(
    '/:name',
    {
      schema: {
        operationId: 'deleteSecret', security: restSecurity,
        tags,
        summary: 'Delete a stored secret',
        description: 'Whatever names it (e.g. the bot-check settings\' secret_name) can no longer read it: a hosted bot check then answers 503.',
        params: nameParams,
        response: { 204: z.null().describe('Deleted'), 404: errorSchema, 400: errorSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!(await secrets.delete(request.params.name))) return reply.code(404).send({ error: 'not_found', message: `no stored secret named "${request.params.name}"` });
      return reply.code(204).send(null);
    },
  );
}
