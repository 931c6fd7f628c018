/**
 * The portal's REST routes of stored prompts, under /api/v1/portal/prompts (issue 40): a person's
 * prompts (list, create, read, edit, move to another scope, delete) and their attachments (attach
 * by resource id, detach, reorder). Requests authenticate as every REST surface does (RouteContext:
 * header credentials, or a browser session with its CSRF token on writes), before any body is read.
 * The rules live in shared/prompts: a prompt the caller may not open answers 404, as one that does
 * not exist. Errors are `{error, message, ...details}`.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PlatformConfig } from '../../shared/config/index.js';
import {
  MAX_ARGUMENTS,
  MAX_ATTACHMENTS,
  MAX_CONTENT_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_NAME_CHARS,
  PROMPT_SCOPES,
  PromptError,
  type PromptActor,
  type PromptErrorCode,
  type PromptService,
} from '../../shared/prompts/index.js';
import { resourceActor } from '../../shared/resources/index.js';
import type { App } from '../http/app.js';
import { CallerInputError } from '../http/caller-input.js';
import { restSecurity } from '../http/openapi.js';
import { sendRestRefusal, unauthenticated, type RestAuthenticator } from '../http/rest-auth.js';

export interface PromptRoutesOptions {
  service: PromptService;
  config: Pick<PlatformConfig, 'personas' | 'admin'>;
  authenticate: RestAuthenticator;
}

const tags = ['portal: prompts'];

const statusByCode: Record<PromptErrorCode, number> = {
  not_found: 404,
  forbidden: 403,
  invalid: 400,
  conflict: 409,
  attachment_narrower: 409,
  limit: 409,
};

const errorSchema = z
  .object({
    error: z.string().describe('not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, …'),
    message: z.string().describe('What went wrong, naming the rule (an attachment_narrower refusal names the resource)'),
  })
  .loose()
  .describe('Error');

function errors(...statuses: number[]): Record<number, typeof errorSchema> {
  return Object.fromEntries([401, ...statuses].map((s) => [s, errorSchema]));
}

const argumentSchema = z.object({
  name: z.string().max(MAX_NAME_CHARS).describe('The {name} placeholder it fills'),
  description: z.string().optional(),
  required: z.boolean(),
});

const attachmentSchema = z
  .object({
    resource_id: z.string(),
    reference: z.string().describe('mcp:resource:<id>'),
    position: z.number().int().describe('0 first'),
    name: z.string().describe('The resource\'s display name (as attached, for missing material)'),
    missing: z.boolean().describe('The resource was deleted: the prompt reports the material as missing'),
    readable: z.boolean().describe('The caller may open the resource; uri, library, content_type and size only then'),
    uri: z.string().optional(),
    library: z.string().optional(),
    content_type: z.string().optional(),
    size: z.number().int().optional(),
  })
  .describe('Attachment');

export const promptSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    content: z.string(),
    arguments: z.array(argumentSchema),
    scope: z.enum(PROMPT_SCOPES),
    persona: z.string().optional().describe('The persona of a persona prompt'),
    owner: z.object({ subject: z.string(), email: z.string().optional() }),
    created_at: z.string(),
    updated_at: z.string(),
    reference: z.string().describe('mcp:prompt:<id>'),
    attachments: z.array(attachmentSchema).describe('In the authored order'),
    allowed_actions: z
      .object({
        change: z.boolean().describe('Edit and delete: the owner, or an administrator of the prompt\'s scope'),
        attach: z.boolean().describe('Attach, detach, reorder'),
        scopes: z.array(z.string()).describe('Scopes it may be moved to: personal, persona:<name>, shared'),
      })
      .describe('What the caller may do, by the rules the routes enforce'),
  })
  .describe('Prompt');

const fields = {
  description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
  content: z.string().max(MAX_CONTENT_CHARS).optional().describe('{arg} placeholders are replaced by the arguments'),
  arguments: z.array(argumentSchema.extend({ required: z.boolean().optional() })).max(MAX_ARGUMENTS).optional(),
  scope: z.enum(PROMPT_SCOPES).optional().describe('personal (default), persona (with persona), shared (platform administrators)'),
  persona: z.string().max(200).optional(),
};

const idParams = z.object({ id: z.string().min(1).max(100).describe('Prompt id') });

const withRequired = (args: Array<{ name: string; description?: string | undefined; required?: boolean | undefined }> | undefined) =>
  args?.map((a) => ({ name: a.name, required: a.required ?? false, ...(a.description !== undefined ? { description: a.description } : {}) }));

/** Drops keys whose value is undefined (exactOptionalPropertyTypes: inputs name only what was sent). */
function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

export async function promptRoutes(app: App, opts: PromptRoutesOptions): Promise<void> {
  const { service, config } = opts;
  const actors = new WeakMap<FastifyRequest, PromptActor>();
  const actor = (request: FastifyRequest): PromptActor => {
    const found = actors.get(request);
    if (!found) throw new Error('prompt route reached without an actor');
    return found;
  };

  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authenticate(request);
    if (!decision.ok) return sendRestRefusal(reply, decision);
    // Anonymous callers own no prompts.
    if (decision.caller.authType === 'anonymous') return sendRestRefusal(reply, unauthenticated());
    actors.set(request, resourceActor(decision.caller, { config, origin: 'person' }));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof PromptError) return reply.code(statusByCode[error.code] ?? 500).send({ ...(error.details ?? {}), error: error.code, message: error.message });
    if (hasZodFastifySchemaValidationErrors(error)) return reply.code(400).send({ error: 'invalid_request', message: error.message });
    if (error instanceof CallerInputError) return reply.code(400).send({ error: 'invalid', message: error.message });
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'prompt request failed');
    return reply.code(status).send({ error: status >= 500 ? 'internal_error' : (error.code ?? 'bad_request'), message: status >= 500 ? 'internal error' : error.message });
  });

  app.get(
    '/api/v1/portal/prompts',
    {
      schema: {
        operationId: 'listPrompts',
        security: restSecurity,
        tags,
        summary: 'List prompts',
        description: '`filter` `mine` (default): the prompts the caller created; `visible`: every stored prompt the caller sees on MCP (own personal ones, their personas\', shared), more specific scopes first.',
        querystring: z.object({ filter: z.enum(['mine', 'visible']).optional() }),
        response: { 200: z.object({ items: z.array(promptSchema) }), ...errors(400) },
      },
    },
    async (request) => ({ items: await service.list(actor(request), { filter: request.query.filter ?? 'mine' }) }),
  );

  app.post(
    '/api/v1/portal/prompts',
    {
      schema: {
        operationId: 'createPrompt',
        security: restSecurity,
        tags,
        summary: 'Create a prompt',
        description:
          'Name: lowercase letters, digits, hyphens and underscores (unique in its scope; operator and workflow prompts\' names are taken). ' +
          'Scope personal: the caller\'s own; persona: needs persona-admin:<name>; shared: platform administrators. 201 with the prompt.',
        body: z.object({ name: z.string().max(MAX_NAME_CHARS), ...fields, content: z.string().max(MAX_CONTENT_CHARS) }),
        response: { 201: promptSchema, ...errors(400, 403, 409) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const created = await service.create(actor(request), defined({ name: b.name, content: b.content, description: b.description, arguments: withRequired(b.arguments), scope: b.scope, persona: b.persona }));
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/v1/portal/prompts/:id',
    {
      schema: {
        operationId: 'getPrompt',
        security: restSecurity,
        tags,
        summary: 'Read a prompt',
        description: 'The prompt and its attachments as the caller may see them (deleted ones as missing). 404 unless the caller may open it.',
        params: idParams,
        response: { 200: promptSchema, ...errors(404) },
      },
    },
    async (request) => service.get(actor(request), request.params.id),
  );

  app.patch(
    '/api/v1/portal/prompts/:id',
    {
      schema: {
        operationId: 'updatePrompt',
        security: restSecurity,
        tags,
        summary: 'Edit or move a prompt',
        description:
          'Changes the fields sent. A scope change (scope, persona) needs authority to create prompts there and is refused (409 attachment_narrower, naming the resource) ' +
          'while an attachment is narrower than the new scope.',
        params: idParams,
        body: z.object({ name: z.string().max(MAX_NAME_CHARS).optional(), ...fields }),
        response: { 200: promptSchema, ...errors(400, 403, 404, 409) },
      },
    },
    async (request) => {
      const b = request.body;
      return service.update(actor(request), request.params.id, defined({ name: b.name, content: b.content, description: b.description, arguments: withRequired(b.arguments), scope: b.scope, persona: b.persona }));
    },
  );

  app.delete(
    '/api/v1/portal/prompts/:id',
    {
      schema: {
        operationId: 'deletePrompt',
        security: restSecurity,
        tags,
        summary: 'Delete a prompt',
        description: 'Deletes the prompt and its attachments (the resources stay). 204.',
        params: idParams,
        response: { 204: z.null().describe('Deleted'), ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/portal/prompts/:id/attachments',
    {
      schema: {
        operationId: 'attachPromptResource',
        security: restSecurity,
        tags,
        summary: 'Attach a resource',
        description:
          `Attaches a resource the caller may open, at \`position\` (0 first; default last); attaching one already attached moves it. At most ${MAX_ATTACHMENTS}. ` +
          'Attachment rule: the resource must be at least as widely visible as the prompt (a private file only on its owner\'s personal prompts, a persona\'s file only on that persona\'s prompts, a Global file anywhere), else 409 attachment_narrower naming it.',
        params: idParams,
        body: z.object({ resource_id: z.string().min(1).max(200).describe('The resource\'s id (or mcp:resource:<id>)'), position: z.number().int().min(0).optional() }),
        response: { 200: promptSchema, ...errors(400, 403, 404, 409) },
      },
    },
    async (request) => service.attach(actor(request), request.params.id, request.body.resource_id, request.body.position),
  );

  app.put(
    '/api/v1/portal/prompts/:id/attachments',
    {
      schema: {
        operationId: 'reorderPromptAttachments',
        security: restSecurity,
        tags,
        summary: 'Reorder the attachments',
        description: 'The attachments in a new order: every attached resource id exactly once, first first.',
        params: idParams,
        body: z.object({ resource_ids: z.array(z.string().max(200)).max(MAX_ATTACHMENTS) }),
        response: { 200: promptSchema, ...errors(400, 403, 404) },
      },
    },
    async (request) => service.reorder(actor(request), request.params.id, request.body.resource_ids),
  );

  app.delete(
    '/api/v1/portal/prompts/:id/attachments/:resourceId',
    {
      schema: {
        operationId: 'detachPromptResource',
        security: restSecurity,
        tags,
        summary: 'Detach a resource',
        description: 'Removes the attachment (also of a resource that was deleted); the rest keep their order.',
        params: idParams.extend({ resourceId: z.string().min(1).max(200) }),
        response: { 200: promptSchema, ...errors(403, 404) },
      },
    },
    async (request) => service.detach(actor(request), request.params.id, request.params.resourceId),
  );
}
