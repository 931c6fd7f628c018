/**
 * The portal's REST routes of managed scripts, under /api/v1/portal/scripts (issue 16; the same
 * operations as the manage_script tool, by id). Requests authenticate as every REST surface does
 * (RouteContext: header credentials, or a browser session with its CSRF token on writes), before
 * any body is read; the caller's persona must allow `manage_script`, as on MCP. The rules live in
 * shared/scripts; errors are `{error, message, ...details}` (a syntax error adds line and column).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { CallerContext } from '../../shared/identity/index.js';
import { z } from 'zod';
import type { App } from '../http/app.js';
import { sendRestRefusal, unauthenticated, type RestAuthenticator } from '../http/rest-auth.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import {
  ENTRY_POINTS,
  MANAGE_SCRIPT_TOOL,
  MAX_SOURCE_BYTES,
  mayManageScripts,
  SCRIPT_KINDS,
  SCRIPT_STATES,
  ScriptError,
  scriptActor,
  type ScriptActor,
  type RunAnswer,
  type ScriptErrorCode,
  type ScriptRunner,
  type ScriptSchedules,
  type ScriptStore,
} from '../../shared/scripts/index.js';
import type { EndpointStore } from '../../shared/endpoints/index.js';
import { endpointBindingRoutes } from './script-endpoint.js';
import { scheduleRoutes } from './script-schedules.js';
import { restSecurity } from '../http/openapi.js';

export interface ScriptRoutesOptions {
  store: ScriptStore;
  config: Pick<PlatformConfig, 'personas' | 'admin'>;
  authenticate: RestAuthenticator;
  /** Draft runs (POST /run, /{id}/run); absent without a sandbox. */
  runner?: ScriptRunner;
  /** Schedules (/{id}/schedule); absent without a database. */
  schedules?: ScriptSchedules;
  /** An administrator's retry of a failed scheduled run (/{id}/runs/{runId}/retry); absent without Temporal. */
  retryRun?: Parameters<typeof scheduleRoutes>[1]['retry'];
  /** Endpoint bindings (/{id}/endpoint); absent without a database. */
  endpoints?: EndpointStore;
}

const tags = ['portal: scripts'];

const statusOf: Record<ScriptErrorCode, number> = {
  invalid: 400,
  syntax: 400,
  forbidden: 403,
  not_found: 404,
  name_taken: 409,
  bound: 409,
  state: 409,
  in_use: 409,
  too_large: 413,
};

const errorSchema = z
  .object({
    error: z.string().describe('invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, …'),
    message: z.string().describe('What went wrong, naming the rule; a syntax error gives line:column'),
  })
  .loose()
  .describe('Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers');

const person = z.object({ subject: z.string(), email: z.string().optional() });
const entryPoints = z.array(z.enum(ENTRY_POINTS)).describe('The entry points the source exports');
const imports = z.array(z.string()).describe('The libraries the source imports, by name');

const scriptSchema = z
  .object({
    id: z.string().describe('Stable id (UUIDv7); writer records and endpoint bindings hold it'),
    name: z.string().describe('Unique display name; also the name a library is imported by'),
    kind: z.enum(SCRIPT_KINDS).describe('script: exports main() and/or handle(req); library: neither'),
    state: z.enum(SCRIPT_STATES).describe('Only active scripts run; active and deprecated libraries are imported'),
    superseded_by: z.object({ id: z.string(), name: z.string() }).optional().describe('The replacement of a superseded script'),
    owner: person,
    current_version: z.number().int(),
    entry_points: entryPoints,
    imports,
    created_at: z.string(),
    updated_at: z.string(),
    allowed_actions: z
      .object({
        change: z.boolean().describe('New versions, state changes, deletion: the owner and administrators'),
        read_source: z.boolean().describe("The source: a script's to its owner and administrators, a library's to everyone"),
      })
      .describe("What the caller may do, by the rules the routes enforce"),
  })
  .describe('Script');

const versionSchema = z.object({
  number: z.number().int(),
  sha256: z.string().describe('Hex SHA-256 of the source (UTF-8)'),
  author: person,
  author_roles: z.array(z.string()).describe("The author's roles at save time: runs of this version act with them"),
  kind: z.enum(SCRIPT_KINDS),
  entry_points: entryPoints,
  imports,
  pins: z
    .array(
      z.object({
        library: z.string().describe('The name it is imported by'),
        library_id: z.string().nullable().describe('null once the library was deleted'),
        version: z.number().int().nullable(),
      }),
    )
    .describe('Every library the version reaches, directly or through libraries, at the version its save resolved: what its runs import (re-save to upgrade)'),
  created_at: z.string(),
});

const detailSchema = scriptSchema
  .extend({
    versions: z.array(versionSchema).describe('Newest first'),
    source: z.string().optional().describe('The source of source_version, when allowed_actions.read_source'),
    source_version: z.number().int(),
  })
  .describe('Script with its versions');

const saveSchema = z.object({
  outcome: z.enum(['created', 'revised', 'unchanged']).describe('unchanged: the source and its library pins were the current version\'s, so no version was written'),
  script: detailSchema,
});

const sourceField = z.string().describe(`The source: an ES module (at most ${MAX_SOURCE_BYTES} bytes, UTF-8; more is 413)`);
const createBody = z.object({ name: z.string().describe('Lowercase letters, digits, - and _, starting with a letter; at most 63'), source: sourceField });
const updateBody = z.object({ source: sourceField });
const supersedeBody = z.object({ superseded_by: z.string().describe('Id (or name) of the active script of the same kind that replaces this one') });
const runBody = z.object({ source: sourceField.describe('The unsaved source to run: its main() runs as the caller, with the caller\'s roles') });
const runSchema = z
  .object({
    run_id: z.string().describe('The run record (script_runs)'),
    status: z.enum(['ok', 'error', 'timeout', 'memory', 'busy']).describe('busy: no run slot of this replica was open to it (scripts.max_concurrent_runs, scripts.handler_reserved_runs) or the caller already had scripts.max_runs_per_caller runs under way; the error names the cap'),
    result: z.unknown().optional().describe("main()'s result as JSON, when ok"),
    error: z.string().optional().describe('What stopped the run, otherwise'),
    console: z.string().describe('Console output, bounded by scripts.console_limit_bytes'),
    duration_ms: z.number(),
  })
  .describe('Run');
/** A draft run's answer: 200 whatever the script did; 503 with Retry-After when it could not start (busy). */
function runAnswer(reply: FastifyReply, answer: RunAnswer): RunAnswer {
  if (answer.status === 'busy') reply.code(503).header('retry-after', '1');
  return answer;
}

const idParams = z.object({ id: z.string().describe('Script id') });
const getQuery = z.object({ version: z.coerce.number().int().min(1).optional().describe('The version whose source to return (default: the current one)') });

export async function scriptRoutes(app: App, opts: ScriptRoutesOptions): Promise<void> {
  const { store } = opts;
  const actors = new WeakMap<FastifyRequest, { actor: ScriptActor; caller: CallerContext }>();
  const actor = (request: FastifyRequest): ScriptActor => actors.get(request)!.actor;
  const callerOf = (request: FastifyRequest): CallerContext => actors.get(request)!.caller;

  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authenticate(request);
    if (!decision.ok) return sendRestRefusal(reply, decision);
    const { caller } = decision;
    if (caller.authType === 'anonymous') return sendRestRefusal(reply, unauthenticated());
    if (!mayManageScripts(caller, opts.config)) {
      return reply.code(403).send({ error: 'forbidden', message: `scripts are for callers whose persona allows the ${MANAGE_SCRIPT_TOOL} tool` });
    }
    actors.set(request, { actor: scriptActor(caller, opts.config), caller });
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (!(error instanceof ScriptError)) throw error;
    return reply.code(statusOf[error.code]).send({ error: error.code, message: error.message, ...error.details });
  });

  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
  const writeErrors = { ...errors, 409: errorSchema, 413: errorSchema };

  app.post(
    '/',
    {
      schema: {
        operationId: 'createScript', security: restSecurity,
        tags,
        summary: 'Create a script or library (version 1); the caller owns it',
        description: 'Checks the name, the syntax (400 with line:column), the kind, and that every import names an active or deprecated library.',
        body: createBody,
        response: { 201: saveSchema, ...writeErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await store.create(actor(request), request.body)),
  );

  app.get(
    '/',
    { schema: { operationId: 'listScripts', security: restSecurity, tags, summary: "Every script's name, kind, state and owner, by name", response: { 200: z.object({ scripts: z.array(scriptSchema) }), 401: errorSchema, 403: errorSchema } } },
    async (request) => ({ scripts: await store.list(actor(request)) }),
  );

  app.get(
    '/:id',
    {
      schema: { operationId: 'getScript', security: restSecurity, tags, summary: 'A script with its versions, and a version\'s source when the caller may read it', params: idParams, querystring: getQuery, response: { 200: detailSchema, ...errors } },
    },
    async (request) => store.get(actor(request), request.params.id, request.query.version !== undefined ? { version: request.query.version } : {}),
  );

  const runListSchema = z.object({
    runs: z.array(
      z
        .object({
          id: z.string(),
          version: z.number().int().nullable(),
          trigger: z.enum(['draft', 'schedule']),
          scheduled_at: z.string().nullable().describe('When the schedule fired it (scheduled runs)'),
          status: z.enum(['ok', 'error', 'timeout', 'memory', 'busy']),
          error: z.string().nullable(),
          duration_ms: z.number().int(),
          console: z.string().describe('The first 8 KiB of the console'),
          started_at: z.string(),
          finished_at: z.string(),
          started_by: z.string().describe('Who started it: the caller of a draft run, script:<name> for a scheduled one'),
          principal: z.string().describe('Whom it acted as'),
          retry_of: z.string().nullable().describe("An administrator's retry: the failed run it repeats"),
        })
        .describe('Run record'),
    ),
    next_cursor: z.string().nullable().describe('Pass as before for the next page; null on the last'),
  });
  app.get(
    '/:id/runs',
    {
      schema: {
        operationId: 'listScriptRuns', security: restSecurity,
        tags,
        summary: "A script's runs, newest first (draft and scheduled): status, duration, error, console",
        description: 'The owner and administrators only (403). Paged: limit (default 50, at most 200) and before (next_cursor of the previous page).',
        params: idParams,
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(200).default(50),
          before: z.string().optional().describe('next_cursor of the previous page'),
        }),
        response: { 200: runListSchema, ...errors },
      },
    },
    async (request) => store.runs(actor(request), request.params.id, { limit: request.query.limit, ...(request.query.before !== undefined ? { before: request.query.before } : {}) }),
  );

  app.put(
    '/:id',
    {
      schema: {
        operationId: 'updateScript', security: restSecurity,
        tags,
        summary: 'Save a new version of the source',
        description:
          'Pins every library the source reaches to its current version. No version is written when the source and those pins are unchanged ' +
          '(so re-saving an unchanged source upgrades its imports). Refused (409 bound) when the script is bound to an endpoint and the source no longer ' +
          'defines handle, and (409 in_use) when a library others import would stop being one. The owner and administrators only (403).',
        params: idParams,
        body: updateBody,
        response: { 200: saveSchema, ...writeErrors },
      },
    },
    async (request) => store.update(actor(request), request.params.id, request.body),
  );

  for (const action of ['disable', 'enable', 'deprecate'] as const) {
    app.post(
      `/:id/${action}`,
      {
        schema: {
          operationId: `${action}Script`, security: restSecurity,
          tags,
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} a script`,
          description: 'Transitions: docs/scripts.md, "States". Asking for the current state changes nothing; another transition not allowed is 409 state.',
          params: idParams,
          response: { 200: scriptSchema, ...writeErrors },
        },
      },
      async (request) => store.changeState(actor(request), request.params.id, action),
    );
  }

  app.post(
    '/:id/supersede',
    {
      schema: {
        operationId: 'supersedeScript', security: restSecurity,
        tags,
        summary: 'Mark a script superseded by another (an active script of the same kind, not itself)',
        params: idParams,
        body: supersedeBody,
        response: { 200: scriptSchema, ...writeErrors },
      },
    },
    async (request) => store.changeState(actor(request), request.params.id, 'supersede', request.body.superseded_by),
  );

  if (opts.schedules) scheduleRoutes(app, { schedules: opts.schedules, actor, errors: writeErrors, ...(opts.retryRun ? { retry: opts.retryRun } : {}) });
  if (opts.endpoints) endpointBindingRoutes(app, { endpoints: opts.endpoints, actor, errors: writeErrors });

  const { runner } = opts;
  if (runner) {
    const runDescription =
      'Runs main() in a fresh sandbox context (scripts.run_memory_bytes, scripts.run_deadline) and answers its result, error, console and ' +
      'duration; the run is recorded and audited (script_run). The answer is 200 whatever the run\'s status, except busy: 503 with Retry-After ' +
      '(no run slot of this replica was open to it, or the caller already had scripts.max_runs_per_caller runs under way; the run did not start).';
    app.post(
      '/run',
      {
        schema: {
          operationId: 'runInlineScript', security: restSecurity,
          tags,
          summary: 'Draft-run an unsaved source, as the caller with the caller\'s roles',
          description: runDescription,
          body: runBody,
          response: { 200: runSchema, 503: runSchema, ...writeErrors },
        },
      },
      async (request, reply) => runAnswer(reply, await runner.runUnsaved(callerOf(request), request.body.source)),
    );
    app.post(
      '/:id/run',
      {
        schema: {
          operationId: 'runScript', security: restSecurity,
          tags,
          summary: "Draft-run a script's current version, as principal script:<name> with its author's roles",
          description: `${runDescription} The owner and administrators only (403); a disabled, deprecated or superseded script does not run (409 state).`,
          params: idParams,
          response: { 200: runSchema, 503: runSchema, ...writeErrors },
        },
      },
      async (request, reply) => runAnswer(reply, await runner.runSaved(callerOf(request), request.params.id)),
    );
  }

  app.delete(
    '/:id',
    {
      schema: {
        operationId: 'deleteScript', security: restSecurity,
        tags,
        summary: 'Delete a script and its versions',
        description: 'Refused (409) while it is bound to an endpoint, supersedes other scripts, or (a library) is imported by another script.',
        params: idParams,
        response: { 200: scriptSchema, ...writeErrors },
      },
    },
    async (request) => store.delete(actor(request), request.params.id),
  );
}
