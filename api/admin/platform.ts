/**
 * The admin REST routes the administrators' portal pages read (spec document 1: "admin REST API,
 * audit"), under `{admin.path_prefix}` beside the webhook, settings and secrets routes, for
 * members of `admin.persona` only (api/admin/authorize.ts, checked before anything is read):
 *
 *   GET {prefix}/access              200 when the caller administers the platform (the portal shows its Administration pages)
 *   GET {prefix}/audit               the audit trail: filters (user, tool, outcome, time range), cursor paging
 *   GET {prefix}/audit/export.csv    the same rows as CSV (at most AUDIT_EXPORT_MAX_ROWS)
 *   GET {prefix}/personas            effective persona definitions, their tools and members
 *   GET {prefix}/connections         the configured connections and their health (probed now)
 *   GET {prefix}/system              versions, the database's and Temporal's state
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import { AUDIT_CSV_HEADER, AUDIT_OUTCOMES, AuditCursorError, auditCsvLine, auditRows, queryAudit, type AuditFilters } from '../../shared/audit/index.js';
import { personasOverview } from '../../shared/personas/index.js';
import { sendAdminRefusal, type AdminAuthorizer } from './authorize.js';
import { restSecurity } from '../http/openapi.js';

/** Rows one CSV export holds at most (narrow the range for more). */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

const health = z
  .object({
    ok: z.boolean(),
    latency_ms: z.number().int().nullable().describe('How long the probe took; null when it was not made'),
    error: z.string().nullable().describe('Why the probe failed (the driver\'s message, cut to 300 characters)'),
  })
  .describe('A probe made for this request');

export const connectionViewSchema = z
  .object({
    kind: z.enum(['sql', 'objstore', 'catalog']),
    name: z.string().describe('The instance key: what tools\' connection argument names'),
    display_name: z.string(),
    engine: z.string().describe('trino or duckdb; s3 or filesystem; the catalog service'),
    target: z.string().nullable().describe('Where it points: host:port, endpoint or region, directory, URL (never credentials)'),
    is_default: z.boolean(),
    read_only: z.boolean(),
    internal: z.boolean().describe('Used by the platform only (its storage); the tools cannot name it'),
    health,
  })
  .describe('A configured connection');

export type ConnectionView = z.infer<typeof connectionViewSchema>;

export const systemViewSchema = z
  .object({
    server: z.object({ name: z.string(), version: z.string().describe('server.version'), description: z.string().nullable() }),
    platform: z.object({
      version: z.string().describe('The platform build (package version)'),
      node: z.string(),
      started_at: z.string(),
      uptime_seconds: z.number().int(),
    }),
    database: z.object({
      configured: z.boolean(),
      health,
      version: z.string().nullable().describe('The server\'s version string'),
      migration: z.object({ version: z.number().int(), name: z.string() }).nullable().describe('The newest migration applied'),
    }),
    temporal: z.object({
      configured: z.boolean(),
      address: z.string().nullable(),
      namespace: z.string(),
      task_queue: z.string(),
      ui_url: z.string().nullable().describe('temporal.ui_url: where the portal links workflows'),
      health,
    }),
    audit: z.object({
      enabled: z.boolean(),
      log_tool_calls: z.boolean(),
      retention_days: z.number().int(),
      recording: z.boolean().describe('Rows are written: audit.enabled with a database'),
    }),
    portal: z.object({ enabled: z.boolean(), public_base_url: z.string() }),
    admin: z.object({ persona: z.string(), path_prefix: z.string() }),
  })
  .describe('What runs and how it is');

export type SystemView = z.infer<typeof systemViewSchema>;

export interface AdminPlatformRoutesOptions {
  config: Pick<PlatformConfig, 'admin' | 'personas' | 'audit'>;
  authorize: AdminAuthorizer;
  /** The platform database (the audit trail lives there); without it the audit routes answer 503. */
  db?: Db;
  /** The tools the platform serves, by name (a persona's effective tools are among them). */
  toolNames(): readonly string[];
  /** API keys, configured and stored: their names and roles (never a key). */
  apiKeys(): Promise<Array<{ name: string; roles: readonly string[] }>>;
  /** The connections with a probe of each, made now. */
  connections(): Promise<ConnectionView[]>;
  system(): Promise<SystemView>;
}

const tags = ['admin: platform'];
const errorSchema = z.object({ error: z.string().describe('invalid, unavailable, unauthorized, forbidden'), message: z.string() }).describe('Error');
const errors = { 401: errorSchema, 403: errorSchema };

const time = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), 'expected a time (ISO 8601)')
  .describe('ISO 8601, e.g. 2026-03-02T10:00:00Z');

const auditFilterQuery = z.object({
  user: z.string().max(320).optional().describe('Rows whose subject or email contains this text (case-insensitive)'),
  tool: z.string().max(200).optional().describe('A tool or event name (manage_script, endpoint:orders, script_run, portal_download, …); a trailing * matches names starting with the rest'),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  from: time.optional().describe('From this time, inclusive'),
  to: time.optional().describe('Up to this time, exclusive'),
});

const auditRecord = z
  .object({
    id: z.string(),
    occurred_at: z.string(),
    subject: z.string().describe('apikey:<name>, oidc:<issuer>#<sub>, script:<name>, local:operator, anonymous:anonymous'),
    email: z.string().nullable(),
    auth_type: z.string(),
    persona: z.string().nullable(),
    tool: z.string().describe('The tool called, or the event: script_change, script_run, endpoint:<name>, portal_download, …'),
    outcome: z.string().describe('ok, error or denied'),
    duration_ms: z.number().int(),
    error_text: z.string().nullable(),
    session_id: z.string().nullable(),
    resource_id: z.string().nullable(),
    parameters: z.unknown().describe('The arguments, secrets redacted ("[redacted]") and content arguments as {size, sha256}'),
  })
  .describe('An audit row');

const auditSettings = z.object({
  enabled: z.boolean().describe('audit.enabled'),
  log_tool_calls: z.boolean().describe('audit.log_tool_calls: tool calls are recorded only when both are on'),
  retention_days: z.number().int(),
});

function filtersOf(query: z.infer<typeof auditFilterQuery>): AuditFilters {
  return {
    ...(query.user?.trim() ? { user: query.user.trim() } : {}),
    ...(query.tool?.trim() ? { tool: query.tool.trim() } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.from ? { from: new Date(query.from) } : {}),
    ...(query.to ? { to: new Date(query.to) } : {}),
  };
}

const personasSchema = z
  .object({
    admin_persona: z.string(),
    default_persona: z.string(),
    default_defined: z.boolean().describe('Whether default_persona is defined; if not, callers matching no persona are refused'),
    personas: z.array(
      z.object({
        name: z.string(),
        display_name: z.string().nullable(),
        description: z.string().nullable(),
        priority: z.number().int(),
        administrators: z.boolean().describe('admin.persona: its members are platform administrators'),
        is_default: z.boolean(),
        tools: z.object({
          allow: z.array(z.string()),
          deny: z.array(z.string()),
          effective: z.array(z.string()).describe('The tools the platform serves that its members may call'),
        }),
        prompts: z.object({ system_prefix: z.string().nullable(), system_suffix: z.string().nullable(), instructions: z.string().nullable() }),
        hints: z.record(z.string(), z.string()),
        members: z.object({
          roles: z.array(z.object({ role: z.string(), via: z.enum(['persona_roles', 'role_mapping']) })),
          users: z.array(z.string()).describe('role_mapping.user_personas entries naming it'),
          api_keys: z.array(z.object({ name: z.string(), roles: z.array(z.string()), active: z.boolean().describe('Its active persona (whose tool rules apply)') })),
        }),
      }),
    ),
    role_mapping: z.object({ oidc_to_persona: z.record(z.string(), z.string()), user_personas: z.record(z.string(), z.string()) }),
  })
  .describe('The personas, with every default applied');

export async function adminPlatformRoutes(app: App, opts: AdminPlatformRoutesOptions): Promise<void> {
  const { config, db } = opts;

  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authorize(request);
    if (!decision.ok) return sendAdminRefusal(reply, decision);
  });

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof AuditCursorError) return reply.code(400).send({ error: 'invalid', message: error.message });
    throw error;
  });

  function noDatabase(reply: FastifyReply) {
    return reply.code(503).send({ error: 'unavailable', message: 'the audit trail is in the platform database, and this api has none (database.dsn)' });
  }

  app.get(
    '/access',
    {
      schema: {
        operationId: 'getAdminAccess', security: restSecurity,
        tags,
        summary: 'Whether the caller administers the platform (200), as every admin route decides it',
        description: 'The portal shows its Administration pages to callers this answers 200; 401 without credentials, 403 for a caller outside admin.persona.',
        response: { 200: z.object({ administrator: z.literal(true), admin_persona: z.string(), path_prefix: z.string() }), ...errors },
      },
    },
    async () => ({ administrator: true as const, admin_persona: config.admin.persona, path_prefix: config.admin.path_prefix }),
  );

  app.get(
    '/audit',
    {
      schema: {
        operationId: 'listAuditRecords', security: restSecurity,
        tags,
        summary: 'The audit trail, newest first, filtered and paged',
        description:
          'Rows of audit_log (docs/audit.md): tool calls, script changes and runs, endpoint requests, resource reads and moves. Filters combine (AND); ' +
          'limit 1–200 (default 50); cursor: next_cursor of the previous page. Parameters are redacted as when they were written, again on the way out.',
        querystring: auditFilterQuery.extend({
          limit: z.coerce.number().int().min(1).max(200).default(50),
          cursor: z.string().max(200).optional().describe('next_cursor of the previous page'),
        }),
        response: {
          200: z.object({ items: z.array(auditRecord), next_cursor: z.string().nullable(), settings: auditSettings }),
          400: errorSchema,
          503: errorSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      if (!db) return noDatabase(reply);
      const { limit, cursor, ...filters } = request.query;
      const page = await queryAudit(db, filtersOf(filters), { limit, ...(cursor ? { cursor } : {}) });
      return { ...page, settings: { enabled: config.audit.enabled, log_tool_calls: config.audit.log_tool_calls, retention_days: config.audit.retention_days } };
    },
  );

  app.get(
    '/audit/export.csv',
    {
      schema: {
        operationId: 'exportAuditRecords', security: restSecurity,
        tags,
        summary: 'The filtered audit trail as CSV (newest first)',
        description:
          `The rows GET /audit answers for the same filters, every page, at most ${AUDIT_EXPORT_MAX_ROWS} (narrow the time range for more); ` +
          'columns ' + AUDIT_CSV_HEADER.trim() + '. A text cell starting with =, +, -, @ is prefixed with \' so a spreadsheet does not run it.',
        querystring: auditFilterQuery,
        response: {
          200: { description: 'text/csv; charset=utf-8, as an attachment', content: { 'text/csv': { schema: z.any().meta({ type: 'string', description: 'CSV, CRLF line ends' }) } } },
          400: errorSchema,
          503: errorSchema,
          ...errors,
        },
      },
    },
    async (request: FastifyRequest<{ Querystring: z.infer<typeof auditFilterQuery> }>, reply) => {
      if (!db) return noDatabase(reply);
      const filters = filtersOf(request.query);
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      async function* lines() {
        yield AUDIT_CSV_HEADER;
        for await (const row of auditRows(db!, filters, { max: AUDIT_EXPORT_MAX_ROWS })) yield auditCsvLine(row);
      }
      const { Readable } = await import('node:stream');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );

  app.get(
    '/personas',
    {
      schema: {
        operationId: 'listPersonas', security: restSecurity,
        tags,
        summary: 'The personas: effective definitions, the tools they allow, and their members',
        description:
          'Each definition with every default applied; tools.effective: the tools the platform serves that its members may call (the rule of tools/call); ' +
          'members: the roles mapping to it, the users role_mapping.user_personas assigns to it, and the API keys whose roles make them members.',
        response: { 200: personasSchema, ...errors },
      },
    },
    async () => personasOverview(config.personas, { adminPersona: config.admin.persona, toolNames: opts.toolNames(), apiKeys: await opts.apiKeys() }),
  );

  app.get(
    '/connections',
    {
      schema: {
        operationId: 'listConnections', security: restSecurity,
        tags,
        summary: 'The configured connections (SQL, object storage, catalog) and their health, probed now',
        description: 'Each connection is probed at once (listing catalogs, buckets, or a one-result search), at most 5 s each; credentials are never shown.',
        response: { 200: z.object({ connections: z.array(connectionViewSchema) }), ...errors },
      },
    },
    async () => ({ connections: await opts.connections() }),
  );

  app.get(
    '/system',
    {
      schema: {
        operationId: 'getSystemInfo', security: restSecurity,
        tags,
        summary: 'Versions, and the state of the platform database and Temporal (probed now)',
        response: { 200: systemViewSchema, ...errors },
      },
    },
    async () => opts.system(),
  );
}
