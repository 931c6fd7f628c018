/**
 * Insights in Postgres (migrations/0031_knowledge.sql): capture with near-duplicate matching, the
 * review queue and its summary, and the review decisions. Each write is one transaction with its
 * audit row (tool `knowledge_change`, written whenever audit runs).
 */
import type pg from 'pg';
import { auditRow, insertAuditRows } from '../audit/index.js';
import { auditActive, type PlatformConfig } from '../config/index.js';
import { uuidv7 } from '../crypto/index.js';
import { withTransaction, type Db } from '../db/index.js';
import {
  KnowledgeError,
  LIMITS,
  SIMILARITY,
  type CaptureInput,
  type CaptureResult,
  type Insight,
  type InsightFilter,
  type InsightPage,
  type InsightStatus,
  type KnowledgeActor,
  type ReviewQueue,
} from './types.js';

export const KNOWLEDGE_AUDIT_TOOL = 'knowledge_change';

/**
 * Lower case, every run of characters that are not letters or digits one blank: what
 * near-duplicate matching compares, so case, punctuation and spacing never make two insights differ.
 */
export function normalizeInsightText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Captures serialise on this transaction lock, so two agents saying the same thing at once store it once. */
const CAPTURE_LOCK = 0x6b6e_6f77; // "know"

type Row = Record<string, unknown>;
const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v));

export function insightFromRow(r: Row): Insight {
  return {
    id: r.id as string,
    status: r.status as InsightStatus,
    category: r.category as Insight['category'],
    insight_text: r.insight_text as string,
    entity_urns: r.entity_urns as string[],
    related_columns: r.related_columns as Insight['related_columns'],
    suggested_actions: r.suggested_actions as Insight['suggested_actions'],
    confidence: r.confidence as Insight['confidence'],
    source: r.source as Insight['source'],
    captured_by: { subject: r.captured_by as string, email: (r.captured_by_email as string | null) ?? null, persona: (r.persona as string | null) ?? null },
    session_id: (r.session_id as string | null) ?? null,
    call_ids: r.call_ids as string[],
    times_captured: r.times_captured as number,
    review: { notes: (r.review_notes as string | null) ?? null, reviewed_by: (r.reviewed_by_email as string | null) ?? (r.reviewed_by as string | null) ?? null, reviewed_at: iso(r.reviewed_at) },
    changeset_id: (r.changeset_id as string | null) ?? null,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** One `knowledge_change` audit row on the write's own transaction, whenever audit runs. */
export async function recordKnowledgeChange(client: pg.PoolClient, config: PlatformConfig, actor: KnowledgeActor, parameters: Record<string, unknown>): Promise<void> {
  if (!auditActive(config)) return;
  const at = new Date();
  await insertAuditRows(client, [
    auditRow(
      {
        occurredAt: at,
        subject: actor.subject,
        ...(actor.email ? { email: actor.email } : {}),
        authType: actor.authType,
        ...(actor.persona ? { persona: actor.persona } : {}),
        tool: KNOWLEDGE_AUDIT_TOOL,
        parameters,
        durationMs: 0,
        outcome: 'ok',
        ...(actor.sessionId ? { sessionId: actor.sessionId } : {}),
      },
      at.getTime(),
    ),
  ]);
}

export type ReviewDecision = 'approve' | 'reject';

/** Which statuses a decision moves from (a repeat of the same decision changes nothing). */
const decisionFrom: Record<ReviewDecision, { from: readonly InsightStatus[]; to: InsightStatus }> = {
  approve: { from: ['pending'], to: 'approved' },
  reject: { from: ['pending', 'approved'], to: 'rejected' },
};

/** The decisions an insight in `status` takes (what a review page offers). */
export function allowedDecisions(status: InsightStatus): ReviewDecision[] {
  return (Object.keys(decisionFrom) as ReviewDecision[]).filter((d) => decisionFrom[d].from.includes(status));
}

export interface ReviewSummary {
  total_pending: number;
  by_entity: Array<{ entity_urn: string; count: number; categories: string[]; oldest_at: string }>;
  by_entity_truncated: boolean;
  by_category: Record<string, number>;
  by_confidence: Record<string, number>;
  by_age: { under_7d: number; from_7_to_30d: number; over_30d: number };
  oldest_pending_at: string | null;
  oldest_pending_age_days: number | null;
  pending_over_30d: number;
}

/** Entities bulk_review lists at most (the busiest first). */
const SUMMARY_ENTITIES = 50;

export class InsightStore {
  constructor(private readonly opts: { db: Db; config: PlatformConfig }) {}

  /**
   * Stores a pending insight, unless an open (pending or approved) insight sharing an entity (or,
   * with none named, naming none) reads the same (similarity ≥ SIMILARITY.duplicate): then that
   * one is counted again and returned. Close ones (≥ SIMILARITY.similar) are reported either way.
   */
  async capture(actor: KnowledgeActor, input: CaptureInput): Promise<CaptureResult> {
    const normalized = normalizeInsightText(input.insight_text);
    if (normalized.length < LIMITS.textMin) throw new KnowledgeError('invalid', `insight_text must hold at least ${LIMITS.textMin} letters or digits`);
    const urns = [...new Set(input.entity_urns ?? [])];
    return withTransaction(this.opts.db, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [CAPTURE_LOCK]);
      // `%` is similarity at or above this transaction's threshold, and lets the trigram index pick candidates.
      await client.query(`SELECT set_config('pg_trgm.similarity_threshold', $1, true)`, [String(SIMILARITY.similar)]);
      const near = await client.query<{ id: string; status: InsightStatus; score: number }>(
        `SELECT id, status, round(similarity(normalized_text, $1)::numeric, 3)::float8 AS score
           FROM knowledge_insights
          WHERE status IN ('pending', 'approved')
            AND normalized_text % $1
            AND (entity_urns && $2::text[] OR (cardinality($2::text[]) = 0 AND cardinality(entity_urns) = 0))
          ORDER BY score DESC, created_at, id
          LIMIT 5`,
        [normalized, urns],
      );
      const similar = near.rows.map((r) => ({ id: r.id, score: r.score, status: r.status }));
      const same = near.rows[0] && near.rows[0].score >= SIMILARITY.duplicate ? near.rows[0] : undefined;
      if (same) {
        const { rows } = await client.query(`UPDATE knowledge_insights SET times_captured = times_captured + 1, updated_at = now() WHERE id = $1 RETURNING *`, [same.id]);
        return { insight: insightFromRow(rows[0]!), stored: false, similar_existing: similar };
      }
      const { rows } = await client.query(
        `INSERT INTO knowledge_insights (id, category, insight_text, normalized_text, entity_urns, related_columns, suggested_actions, confidence, source,
                                         captured_by, captured_by_email, persona, session_id, call_ids, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now(), now()) RETURNING *`,
        [
          uuidv7(),
          input.category,
          input.insight_text,
          normalized,
          urns,
          JSON.stringify(input.related_columns ?? []),
          JSON.stringify(input.suggested_actions ?? []),
          input.confidence ?? 'medium',
          input.source ?? 'user',
          actor.subject,
          actor.email ?? null,
          actor.persona ?? null,
          actor.sessionId ?? null,
          [...new Set(input.call_ids ?? [])],
        ],
      );
      return { insight: insightFromRow(rows[0]!), stored: true, similar_existing: similar };
    });
  }

  async get(id: string): Promise<Insight> {
    const { rows } = await this.opts.db.query('SELECT * FROM knowledge_insights WHERE id = $1', [id]);
    if (!rows[0]) throw new KnowledgeError('not_found', `no insight ${id}`);
    return insightFromRow(rows[0]);
  }

  /** Insights by status (default pending), entity and category, oldest first (the review order). */
  async list(filter: InsightFilter): Promise<InsightPage> {
    const limit = Math.min(Math.max(filter.limit ?? LIMITS.pageDefault, 1), LIMITS.pageMax);
    const offset = Math.max(filter.offset ?? 0, 0);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    add((n) => `status = $${n}`, filter.status ?? 'pending');
    if (filter.category) add((n) => `category = $${n}`, filter.category);
    if (filter.entity_urn) add((n) => `entity_urns @> ARRAY[$${n}::text]`, filter.entity_urn);
    const clause = where.join(' AND ');
    const [page, count] = await Promise.all([
      this.opts.db.query(`SELECT * FROM knowledge_insights WHERE ${clause} ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`, params),
      this.opts.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_insights WHERE ${clause}`, params),
    ]);
    const total = count.rows[0]?.n ?? 0;
    return { insights: page.rows.map(insightFromRow), total, offset, limit, next_offset: offset + page.rows.length < total ? offset + page.rows.length : null };
  }

  /** The pending queue's size and age (platform_info's review_queue). */
  async queue(): Promise<ReviewQueue> {
    const { rows } = await this.opts.db.query<{ pending: number; oldest: Date | null; stale: number }>(
      `SELECT count(*)::int AS pending, min(created_at) AS oldest,
              count(*) FILTER (WHERE created_at <= now() - make_interval(days => $1))::int AS stale
         FROM knowledge_insights WHERE status = 'pending'`,
      [LIMITS.staleDays],
    );
    const r = rows[0]!;
    return { pending: r.pending, oldest_pending_at: iso(r.oldest), oldest_pending_age_days: ageDays(r.oldest), pending_over_30d: r.stale };
  }

  /** The pending queue grouped by entity, category, confidence and age (bulk_review). */
  async summary(): Promise<ReviewSummary> {
    const db = this.opts.db;
    const [queue, entities, categories, confidences, ages] = await Promise.all([
      this.queue(),
      db.query<{ urn: string; n: number; categories: string[]; oldest: Date }>(
        `SELECT urn, count(*)::int AS n, array_agg(DISTINCT category ORDER BY category) AS categories, min(created_at) AS oldest
           FROM knowledge_insights, unnest(CASE WHEN cardinality(entity_urns) = 0 THEN ARRAY[''] ELSE entity_urns END) AS urn
          WHERE status = 'pending' GROUP BY urn ORDER BY n DESC, urn LIMIT ${SUMMARY_ENTITIES + 1}`,
      ),
      db.query<{ k: string; n: number }>(`SELECT category AS k, count(*)::int AS n FROM knowledge_insights WHERE status = 'pending' GROUP BY 1`),
      db.query<{ k: string; n: number }>(`SELECT confidence AS k, count(*)::int AS n FROM knowledge_insights WHERE status = 'pending' GROUP BY 1`),
      db.query<{ week: number; month: number; older: number }>(
        `SELECT count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS week,
                count(*) FILTER (WHERE created_at <= now() - interval '7 days' AND created_at > now() - make_interval(days => $1))::int AS month,
                count(*) FILTER (WHERE created_at <= now() - make_interval(days => $1))::int AS older
           FROM knowledge_insights WHERE status = 'pending'`,
        [LIMITS.staleDays],
      ),
    ]);
    const counts = (rows: Array<{ k: string; n: number }>) => Object.fromEntries(rows.map((r) => [r.k, r.n]));
    const a = ages.rows[0]!;
    return {
      total_pending: queue.pending,
      // '' groups the insights that name no entity.
      by_entity: entities.rows.slice(0, SUMMARY_ENTITIES).map((r) => ({ entity_urn: r.urn, count: r.n, categories: r.categories, oldest_at: iso(r.oldest)! })),
      by_entity_truncated: entities.rows.length > SUMMARY_ENTITIES,
      by_category: counts(categories.rows),
      by_confidence: counts(confidences.rows),
      by_age: { under_7d: a.week, from_7_to_30d: a.month, over_30d: a.older },
      oldest_pending_at: queue.oldest_pending_at,
      oldest_pending_age_days: queue.oldest_pending_age_days,
      pending_over_30d: queue.pending_over_30d,
    };
  }

  /**
   * Approves (pending → approved) or rejects (pending or approved → rejected) insights with the
   * reviewer's notes, all or none: an unknown id or one in another state refuses the whole call.
   * Insights already in the decided state are left as they are (a repeated request changes nothing).
   */
  async decide(actor: KnowledgeActor, ids: readonly string[], decision: ReviewDecision, notes: string | undefined): Promise<{ changed: Insight[]; unchanged: Insight[] }> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) throw new KnowledgeError('invalid', 'insight_ids: name at least one insight');
    if (wanted.length > LIMITS.insightIds) throw new KnowledgeError('invalid', `insight_ids: at most ${LIMITS.insightIds} at once (got ${wanted.length})`);
    const rule = decisionFrom[decision];
    return withTransaction(this.opts.db, async (client) => {
      const { rows } = await client.query('SELECT * FROM knowledge_insights WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [wanted]);
      const found = new Map(rows.map((r) => [r.id as string, insightFromRow(r)]));
      const missing = wanted.filter((id) => !found.has(id));
      if (missing.length) throw new KnowledgeError('not_found', `no insight ${missing.join(', ')}`, { missing });
      const blocked = [...found.values()].filter((i) => i.status !== rule.to && !rule.from.includes(i.status));
      if (blocked.length) {
        throw new KnowledgeError('conflict', `cannot ${decision} ${blocked.map((i) => `${i.id} (${i.status})`).join(', ')}: only ${rule.from.join(' or ')} insights can be ${rule.to}`, {
          blocked: blocked.map((i) => ({ id: i.id, status: i.status })),
        });
      }
      const moving = [...found.values()].filter((i) => i.status !== rule.to).map((i) => i.id);
      const unchanged = [...found.values()].filter((i) => i.status === rule.to);
      if (moving.length === 0) return { changed: [], unchanged };
      const updated = await client.query(
        `UPDATE knowledge_insights SET status = $2, review_notes = $3, reviewed_by = $4, reviewed_by_email = $5, reviewed_at = now(), updated_at = now()
          WHERE id = ANY($1::text[]) RETURNING *`,
        [moving, rule.to, notes ?? null, actor.subject, actor.email ?? null],
      );
      await recordKnowledgeChange(client, this.opts.config, actor, { action: decision, insight_ids: moving, ...(notes ? { review_notes: notes } : {}) });
      return { changed: updated.rows.map(insightFromRow), unchanged };
    });
  }
}

function ageDays(oldest: Date | null): number | null {
  return oldest ? Math.floor((Date.now() - oldest.getTime()) / 86_400_000) : null;
}
