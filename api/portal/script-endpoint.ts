/**
 * The portal's REST routes of a script's endpoint binding (docs/endpoints.md, "Binding"), added by
 * scriptRoutes under /api/v1/portal/scripts/{id}/endpoint with its authentication and error
 * mapping: read (with the endpoint's recent failed requests), set (create or replace), enable and
 * disable. Setting and switching are platform administrators' acts; the owner and administrators
 * read. The rules live in shared/endpoints (rules.ts, store.ts).
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import { AUTH_MODES, BINDING_LIMITS, ENDPOINT_METHODS, RECENT_FAILURES, type EndpointStore } from '../../shared/endpoints/index.js';
import type { ScriptActor } from '../../shared/scripts/index.js';
import { restSecurity } from '../http/openapi.js';

const tags = ['portal: scripts'];

const MiB = 1024 * 1024;

const bindingSchema = z
  .object({
    endpoint: z.string().describe('The name in /endpoints/{name}'),
    script: z.object({ id: z.string(), name: z.string() }),
    methods: z.array(z.enum(ENDPOINT_METHODS)).describe('Methods answered; HEAD is answered wherever GET is'),
    path: z.string().describe('Template under the name ("" or e.g. /items/{id})'),
    auth_mode: z.enum(AUTH_MODES),
    open_reads: z.boolean().describe('On a public endpoint, GET and HEAD need no bot check'),
    timeout_seconds: z.number().int(),
    max_memory_bytes: z.number().int(),
    max_body_bytes: z.number().int(),
    allowed_origins: z.array(z.string()),
    rate_limit: z.number().int().describe('Requests per minute for the endpoint, per replica'),
    caller_rate_limit: z.number().int().describe('Requests per minute for one signed-in caller, per replica'),
    enabled: z.boolean().describe('A disabled endpoint answers 404'),
    created_by: z.string(),
    created_at: z.string(),
    updated_by: z.string(),
    updated_at: z.string().describe("The binding's write time: a change takes effect on the next request on every replica"),
  })
  .describe("A script's endpoint binding");

const failureSchema = z
  .object({
    id: z.string(),
    endpoint: z.string(),
    script_id: z.string().nullable(),
    version: z.number().int().nullable(),
    method: z.string(),
    status: z.number().int().describe('500, 503 or 504'),
    error: z.string().describe("The script's error (never shown to the endpoint's caller)"),
    duration_ms: z.number().int(),
    session_id: z.string(),
    occurred_at: z.string(),
  })
  .describe('A failed request');

const bindingBody = z.object({
  endpoint: z.string().describe('Lowercase letters, digits, - and _ (at most 63); unique across the deployment'),
  auth_mode: z.enum(AUTH_MODES).describe('signed_in: a browser session or an API key; public: a bot check'),
  methods: z.array(z.string()).optional().describe(`Of ${ENDPOINT_METHODS.join(', ')} (default [GET]); HEAD is never listed: it is answered wherever GET is`),
  path: z.string().optional().describe('Template: empty, or /segments where {name} takes one segment (req.params.name); default empty'),
  open_reads: z.boolean().optional().describe('Public endpoints only: GET and HEAD need no bot check (default false)'),
  timeout_seconds: z.number().optional().describe(`Default ${BINDING_LIMITS.timeoutSeconds.default}, 1 to ${BINDING_LIMITS.timeoutSeconds.max}`),
  max_memory_bytes: z
    .number()
    .optional()
    .describe(`Default ${BINDING_LIMITS.maxMemoryBytes.default / MiB} MiB, ${BINDING_LIMITS.maxMemoryBytes.min / MiB} to ${BINDING_LIMITS.maxMemoryBytes.max / MiB} MiB`),
  max_body_bytes: z.number().optional().describe(`Default ${BINDING_LIMITS.maxBodyBytes.default / MiB} MiB, at most ${BINDING_LIMITS.maxBodyBytes.max / MiB} MiB`),
  allowed_origins: z.array(z.string()).optional().describe('Browser origins scheme://host[:port] (no path, no wildcard) allowed cross-origin; default none'),
  rate_limit: z.number().optional().describe(`Default ${BINDING_LIMITS.rateLimit.default} per minute per replica`),
  caller_rate_limit: z.number().optional().describe(`Default ${BINDING_LIMITS.callerRateLimit.default} per minute per replica`),
});

const idParams = z.object({ id: z.string().describe('Script id') });

export function endpointBindingRoutes(app: App, opts: { endpoints: EndpointStore; actor: (request: FastifyRequest) => ScriptActor; errors: Record<number, z.ZodType> }): void {
  const { endpoints, actor, errors } = opts;
  app.get(
    '/:id/endpoint',
    {
      schema: {
        operationId: 'getScriptEndpoint', security: restSecurity,
        tags,
        summary: "A script's endpoint binding and its recent failed requests (404 when unbound)",
        description: `The owner and administrators only (403). Failed requests: the newest ${RECENT_FAILURES} of the seven days kept, newest first.`,
        params: idParams,
        response: { 200: z.object({ binding: bindingSchema, failures: z.array(failureSchema) }), ...errors },
      },
    },
    async (request) => endpoints.get(actor(request), request.params.id),
  );
  app.put(
    '/:id/endpoint',
    {
      schema: {
        operationId: 'putScriptEndpoint', security: restSecurity,
        tags,
        summary: "Bind a script's handle(req) to /endpoints/{endpoint}, or replace its binding (administrators)",
        description:
          'Fields left out take their defaults; the endpoint may be renamed; a disabled endpoint stays disabled. Platform administrators only (403, ' +
          'owners too); only a script whose current version defines handle(req), never a library (400); an endpoint name bound to another script is 409 ' +
          'name_taken naming it; a public endpoint is refused (400) while the bot check cannot protect it.',
        params: idParams,
        body: bindingBody,
        response: { 200: bindingSchema, ...errors },
      },
    },
    async (request) => endpoints.set(actor(request), request.params.id, request.body),
  );
  app.delete(
    '/:id/endpoint',
    {
      schema: {
        operationId: 'deleteScriptEndpoint', security: restSecurity,
        tags,
        summary: 'Unbind a script: its endpoint answers 404 and the name is free again (administrators)',
        description: 'Platform administrators only (403); 404 when the script is not bound. A bound script cannot be deleted until it is unbound. Answers the removed binding.',
        params: idParams,
        response: { 200: bindingSchema, ...errors },
      },
    },
    async (request) => endpoints.remove(actor(request), request.params.id),
  );
  for (const action of ['enable', 'disable'] as const) {
    app.post(
      `/:id/endpoint/${action}`,
      {
        schema: {
          operationId: `${action}ScriptEndpoint`, security: restSecurity,
          tags,
          summary: action === 'enable' ? "Turn a script's endpoint on (administrators)" : "Turn a script's endpoint off: its requests answer 404 (administrators)",
          description: 'Platform administrators only (403). Asking for the state the endpoint is in changes nothing.',
          params: idParams,
          response: { 200: bindingSchema, ...errors },
        },
      },
      async (request) => (action === 'enable' ? endpoints.enable(actor(request), request.params.id) : endpoints.disable(actor(request), request.params.id)),
    );
  }
}
