/**
 * Knowledge capture and apply (issue 40; spec document 1 `knowledge.*`; toolkits.md §4.1
 * `capture_insight`, `apply_knowledge`): the insight and changeset shapes, their limits and the
 * refusals. docs/knowledge.md describes the whole.
 */

export const INSIGHT_CATEGORIES = ['correction', 'business_context', 'data_quality', 'usage_guidance', 'relationship', 'enhancement'] as const;
export type InsightCategory = (typeof INSIGHT_CATEGORIES)[number];

export const INSIGHT_STATUSES = ['pending', 'approved', 'rejected', 'applied', 'superseded', 'rolled_back'] as const;
export type InsightStatus = (typeof INSIGHT_STATUSES)[number];

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const INSIGHT_SOURCES = ['user', 'agent_discovery', 'enrichment_gap'] as const;
export type InsightSource = (typeof INSIGHT_SOURCES)[number];

/** The catalog changes an apply makes (each reversible: its prior value is recorded). */
export const CHANGE_TYPES = ['update_description', 'add_tag', 'remove_tag', 'add_glossary_term', 'add_documentation'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** Limits of the anchor's capture_insight and apply_knowledge (toolkits.md §4.1). */
export const LIMITS = {
  textMin: 10,
  textMax: 4000,
  entityUrns: 10,
  relatedColumns: 20,
  suggestedActions: 5,
  /** Tool calls an insight names as where it came from (the anchor's `sources` bound). */
  callIds: 20,
  changes: 20,
  insightIds: 50,
  notesMax: 2000,
  /** Page sizes: default and most. */
  pageDefault: 20,
  pageMax: 100,
  /** A pending insight at least this old is review debt (platform_info's pending_over_30d). */
  staleDays: 30,
} as const;

/**
 * Near-duplicates (pg_trgm `similarity` of the normalized texts, for insights sharing an entity
 * URN, or both naming none): at or above DUPLICATE the capture is the existing insight again and
 * adds no row; from SIMILAR up to it the new insight is stored and the close ones are reported.
 */
export const SIMILARITY = { duplicate: 0.8, similar: 0.5 } as const;

export interface RelatedColumn {
  urn: string;
  column: string;
  relevance?: string;
}

export interface SuggestedAction {
  action_type: ChangeType;
  target?: string;
  detail: string;
}

export interface Insight {
  id: string;
  status: InsightStatus;
  category: InsightCategory;
  insight_text: string;
  entity_urns: string[];
  related_columns: RelatedColumn[];
  suggested_actions: SuggestedAction[];
  confidence: Confidence;
  source: InsightSource;
  captured_by: { subject: string; email: string | null; persona: string | null };
  session_id: string | null;
  call_ids: string[];
  times_captured: number;
  review: { notes: string | null; reviewed_by: string | null; reviewed_at: string | null };
  changeset_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface CaptureInput {
  category: InsightCategory;
  insight_text: string;
  entity_urns?: string[];
  related_columns?: RelatedColumn[];
  suggested_actions?: SuggestedAction[];
  confidence?: Confidence;
  source?: InsightSource;
  call_ids?: string[];
}

/** Who captured, reviewed or applied: the caller as the audit log names it. */
export interface KnowledgeActor {
  subject: string;
  email?: string;
  /** How the caller authenticated (the audit row's auth type). */
  authType: string;
  persona?: string;
  sessionId?: string;
}

export interface CaptureResult {
  insight: Insight;
  /** false: a near-duplicate of `insight`, which was counted again instead of storing a second row. */
  stored: boolean;
  similar_existing: Array<{ id: string; score: number; status: InsightStatus }>;
}

export interface InsightFilter {
  status?: InsightStatus;
  category?: InsightCategory;
  entity_urn?: string;
  limit?: number;
  offset?: number;
}

export interface InsightPage {
  insights: Insight[];
  total: number;
  offset: number;
  limit: number;
  next_offset: number | null;
}

export interface ReviewQueue {
  pending: number;
  oldest_pending_at: string | null;
  oldest_pending_age_days: number | null;
  pending_over_30d: number;
}

export interface ChangeInput {
  change_type: ChangeType;
  /** update_description, add_tag, remove_tag, add_glossary_term: a column's field path (none: the dataset). add_documentation: the URL. */
  target?: string;
  /** The description; the tag or term (URN or name); the link's label. */
  detail: string;
}

export type ChangeStatus = 'planned' | 'applied' | 'failed' | 'rolled_back' | 'rollback_failed';
export type ChangesetStatus = 'applying' | 'applied' | 'partial' | 'rolling_back' | 'rolled_back' | 'rollback_partial';

export interface Change extends ChangeInput {
  position: number;
  status: ChangeStatus;
  /** What the catalog held before the write: `{description}` (null: none) or `{present}`. */
  prior: { description: string | null } | { present: boolean } | null;
  error: string | null;
}

export interface Changeset {
  id: string;
  entity_urn: string;
  connection: string;
  status: ChangesetStatus;
  insight_ids: string[];
  review_notes: string | null;
  applied_by: { subject: string; email: string | null };
  error: string | null;
  created_at: string;
  finished_at: string | null;
  rolled_back_by: string | null;
  rolled_back_at: string | null;
  changes: Change[];
}

export type KnowledgeErrorCode = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'unavailable' | 'catalog_failed';

/** A refusal whose message the caller reads (a tool error, or the REST answer's message). */
export class KnowledgeError extends Error {
  constructor(
    readonly code: KnowledgeErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'KnowledgeError';
  }
}
