-- Knowledge capture and apply (issue 40; spec document 1 `knowledge.*`, toolkits.md §4.1
-- capture_insight / apply_knowledge; docs/knowledge.md). Agents record insights about catalog
-- entities; administrators review them and apply approved ones to the catalog as changesets that
-- record each change's prior value, so a rollback restores it.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE knowledge_insights (
  id                text PRIMARY KEY,                  -- UUIDv7
  status            text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'approved', 'rejected', 'applied', 'superseded', 'rolled_back')),
  category          text NOT NULL
                    CHECK (category IN ('correction', 'business_context', 'data_quality', 'usage_guidance', 'relationship', 'enhancement')),
  insight_text      text NOT NULL,
  -- Lower case, punctuation and repeated blanks removed: what near-duplicate matching compares.
  normalized_text   text NOT NULL,
  entity_urns       text[] NOT NULL DEFAULT '{}',
  related_columns   jsonb NOT NULL DEFAULT '[]'::jsonb, -- [{urn, column, relevance}]
  suggested_actions jsonb NOT NULL DEFAULT '[]'::jsonb, -- [{action_type, target, detail}]
  confidence        text NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
  source            text NOT NULL CHECK (source IN ('user', 'agent_discovery', 'enrichment_gap')),
  captured_by       text NOT NULL,                     -- subject (namespaced)
  captured_by_email text,
  persona           text,
  session_id        text,
  call_ids          text[] NOT NULL DEFAULT '{}',      -- the tool calls it came from
  -- How often it was captured: a near-duplicate capture counts here instead of adding a row.
  times_captured    integer NOT NULL DEFAULT 1,
  review_notes      text,
  reviewed_by       text,
  reviewed_by_email text,
  reviewed_at       timestamptz,
  changeset_id      text,                              -- the changeset that applied it
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
-- The review queue, oldest first, per status (bulk_review, the portal's list, platform_info's counts).
CREATE INDEX knowledge_insights_status_created ON knowledge_insights (status, created_at, id);
-- By entity (the review filter, and the overlap test of near-duplicate matching).
CREATE INDEX knowledge_insights_entities ON knowledge_insights USING gin (entity_urns);
-- Near-duplicate candidates: trigram similarity over the open insights' text.
CREATE INDEX knowledge_insights_open_text ON knowledge_insights USING gin (normalized_text gin_trgm_ops)
  WHERE status IN ('pending', 'approved');

CREATE TABLE knowledge_changesets (
  id                text PRIMARY KEY,                  -- UUIDv7
  entity_urn        text NOT NULL,
  connection        text NOT NULL,                     -- the catalog instance written (knowledge.apply.datahub_connection)
  -- applying → applied | partial (a write failed: the changes before it applied, the rest not);
  -- applied | partial | rollback_partial → rolling_back → rolled_back | rollback_partial.
  status            text NOT NULL
                    CHECK (status IN ('applying', 'applied', 'partial', 'rolling_back', 'rolled_back', 'rollback_partial')),
  insight_ids       text[] NOT NULL DEFAULT '{}',
  review_notes      text,
  applied_by        text NOT NULL,
  applied_by_email  text,
  error             text,
  created_at        timestamptz NOT NULL,
  finished_at       timestamptz,
  rolled_back_by    text,
  rolled_back_at    timestamptz
);
CREATE INDEX knowledge_changesets_created ON knowledge_changesets (created_at DESC, id DESC);
CREATE INDEX knowledge_changesets_entity ON knowledge_changesets (entity_urn, created_at DESC);
-- Which changesets name an insight (an insight is applied by one changeset in flight at a time).
CREATE INDEX knowledge_changesets_insights ON knowledge_changesets USING gin (insight_ids);

CREATE TABLE knowledge_changes (
  changeset_id      text NOT NULL REFERENCES knowledge_changesets(id) ON DELETE CASCADE,
  position          integer NOT NULL,                  -- applied in this order, rolled back in reverse
  change_type       text NOT NULL
                    CHECK (change_type IN ('update_description', 'add_tag', 'remove_tag', 'add_glossary_term', 'add_documentation')),
  target            text,                              -- a column's field path, or the documentation URL
  detail            text NOT NULL,                     -- the description, tag or term URN, or link label
  status            text NOT NULL DEFAULT 'planned'
                    CHECK (status IN ('planned', 'applied', 'failed', 'rolled_back', 'rollback_failed')),
  -- What the catalog held before the write ({description} or {present}); set when it applied.
  prior             jsonb,
  error             text,
  PRIMARY KEY (changeset_id, position)
);
