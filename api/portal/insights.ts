/**
 * The portal's knowledge review routes (issue 40; docs/knowledge.md), under
 * /api/v1/portal/admin/insights, registered with `knowledge.enabled` and a database, for platform
 * administrators only (members of admin.persona; api/admin/authorize.ts, checked before anything
 * is read). They call the same insight store as the apply_knowledge tool:
 *
 *   GET  /api/v1/portal/admin/insights                 insights by status (default pending), entity, category; paged
 *   POST /api/v1/portal/admin/insights/{id}/approve    pending → approved, with review notes
 *   POST /api/v1/portal/admin/insights/{id}/reject     pending or approved → rejected, with review notes
 */
import { z } from 'zod';
import type { App } from '../http/app.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { restSecurity } from '../http/openapi.js';
import { sendAdminRefusal, type AdminAuthorizer } from '../admin/authorize.js';
import {
  allowedDecisions,
  CHANGE_TYPES,
  CONFIDENCES,
  INSIGHT_CATEGORIES,
  INSIGHT_SOURCES,
  INSIGHT_STATUSES,
  KnowledgeError,
  LIMITS,
  type Insight,
  type InsightStore,
  type KnowledgeErrorCode,
} from '../../shared/knowledge/index.js';

export interface InsightRoutesOptions {
  insights: InsightStore;
  authorize: AdminAuthorizer;
}

const tags = ['portal: knowledge'];
const errorSchema = z.object({ error: z.string().describe('invalid, not_found, conflict, unauthorized, forbidden'), message: z.string() }).describe('Error');

const insightSchema = z
  .object({
    id: z.string(),
    status: z.enum(INSIGHT_STATUSES),
    category: z.enum(INSIGHT_CATEGORIES),
    insight_text: z.string(),
    entity_urns: z.array(z.string()),
    related_columns: z.array(z.object({ urn: z.string(), column: z.string(), relevance: z.string().optional() })),
    suggested_actions: z.array(z.object({ action_type: z.enum(CHANGE_TYPES), target: z.string().optional(), detail: z.string() })),
    confidence: z.enum(CONFIDENCES),
    source: z.enum(INSIGHT_SOURCES),
    captured_by: z.object({ subject: z.string(), email: z.string().nullable(), persona: z.string().nullable() }),
    session_id: z.string().nullable(),
    call_ids: z.array(z.string()).describe('The tool calls it came from'),
    times_captured: z.number().int().describe('How often it was captured (near-duplicates count here)'),
    review: z.object({ notes: z.string().nullable(), reviewed_by: z.string().nullable().describe('Email, else subject'), reviewed_at: z.string().nullable() }),
    changeset_id: z.string().nullable().describe('The changeset that applied it'),
    created_at: z.string(),
    updated_at: z.string(),
    allowed_actions: z.array(z.enum(['approve', 'reject'])).describe('The decisions it takes now: approve when pending; reject when pending or approved'),
  })
  .describe('A captured insight');

const listQuery = z.object({
  status: z.enum(INSIGHT_STATUSES).default('pending'),
  entity: z.string().max(1000).optional().describe('Only insights about this entity URN'),
  category: z.enum(INSIGHT_CATEGORIES).optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault),
  offset: z.coerce.number().int().min(0).default(0),
});

const decisionBody = z
  .object({ review_notes: z.string().max(LIMITS.notesMax).optional().describe('Why (kept with the insight)') })
  .nullish()
  .describe('Optional: a request without a body decides without notes');
const idParams = z.object({ id: z.string().max(100) });
const decisionAnswer = z.object({ insight: insightSchema, changed: z.boolean().describe('false: it was in that state already (a repeated request)') });

const withActions = (insight: Insight) => ({ ...insight, allowed_actions: allowedDecisions(insight.status) });

const statusOf: Record<KnowledgeErrorCode, number> = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403, unavailable: 503, catalog_failed: 502 };

export async function insightRoutes(app: App, opts: InsightRoutesOptions): Promise<void> {
  // The administrator each request was admitted as (the reviewer a decision records).
  const callers = new WeakMap<object, CallerContext>();
  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authorize(request);
    if (!decision.ok) return sendAdminRefusal(reply, decision);
    callers.set(request, decision.caller);
  });

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof KnowledgeError) return reply.code(statusOf[error.code]).send({ error: error.code, message: error.message });
    throw error;
  });

  app.get(
    '/',
    {
      schema: {
        operationId: 'listInsights',
        security: restSecurity,
        tags,
        summary: 'Captured insights for review, oldest first',
        description: `Insights in one status (default pending), optionally about one entity and of one category; limit 1–${LIMITS.pageMax} (default ${LIMITS.pageDefault}).`,
        querystring: listQuery,
        response: {
          200: z.object({ insights: z.array(insightSchema), total: z.number().int(), offset: z.number().int(), limit: z.number().int(), next_offset: z.number().int().nullable() }),
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await opts.insights.list({ status: q.status, limit: q.limit, offset: q.offset, ...(q.entity?.trim() ? { entity_urn: q.entity.trim() } : {}), ...(q.category ? { category: q.category } : {}) });
      return { ...page, insights: page.insights.map(withActions) };
    },
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/:id/${decision}`,
      {
        schema: {
          operationId: decision === 'approve' ? 'approveInsight' : 'rejectInsight',
          security: restSecurity,
          tags,
          summary: decision === 'approve' ? 'Approve an insight (pending → approved)' : 'Reject an insight (pending or approved → rejected)',
          description: 'Recorded with the reviewer and the notes (and an audit row, knowledge_change). Repeating it changes nothing; another state answers 409.',
          params: idParams,
          body: decisionBody,
          response: { 200: decisionAnswer, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
        },
      },
      async (request) => {
        const caller = callers.get(request)!;
        const actor = { subject: caller.subject, authType: caller.authType, ...(caller.email ? { email: caller.email } : {}) };
        const result = await opts.insights.decide(actor, [request.params.id], decision, request.body?.review_notes?.trim() || undefined);
        const [insight] = [...result.changed, ...result.unchanged];
        return { insight: withActions(insight!), changed: result.changed.length > 0 };
      },
    );
  }
}
