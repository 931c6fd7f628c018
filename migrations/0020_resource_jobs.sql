-- Resource jobs' durable hand-off (issue 18; docs/architecture.md "Resource job hand-off"): a
-- write that must start background work (indexing; thumbnails and table follow-ups later) records
-- the request here IN ITS OWN TRANSACTION, so a crash between the commit and the workflow's start
-- loses nothing. The process that wrote starts the workflow at once and removes the row; a sweeper
-- in every process with a Temporal client retries what is left. shared/resources/jobs/ owns it.

CREATE TABLE resource_jobs (
  workflow_id    text PRIMARY KEY,                 -- deterministic per kind (index:{resourceId}): one row per workflow to start or signal
  kind           text NOT NULL,                    -- a key of the kind registry (shared/resources/jobs/kinds.ts)
  resource_id    text NOT NULL,                    -- no FK: a delete leaves its pending job to the workflow, which finds the resource gone
  params         jsonb NOT NULL DEFAULT '{}'::jsonb, -- what the kind needs beyond the resource id
  requests       integer NOT NULL DEFAULT 1,       -- writes that asked; a dispatch removes the row only when none came while it ran
  created_at     timestamptz NOT NULL,
  requested_at   timestamptz NOT NULL,             -- the latest write that asked
  due_at         timestamptz NOT NULL,             -- a sweeper takes it from then on (pushed back after a failed start)
  claimed_until  timestamptz,                      -- a dispatcher's lease: nobody else dispatches it before then
  attempts       integer NOT NULL DEFAULT 0,       -- dispatches tried since the last success
  last_error     text                              -- why the last start failed (Temporal's message, never a secret)
);
CREATE INDEX resource_jobs_due ON resource_jobs (due_at);

-- The origin of every version, not only of the first (index rules match on it; history shows it).
ALTER TABLE resource_versions
  ADD COLUMN origin text CHECK (origin IN ('portal', 'agent', 'script', 'export', 'webhook'));

-- Versions written before this migration: the origin their own event recorded (only `created`
-- did), else the one its writer implies (a person at the portal, an agent session, a managed
-- script; the webhook compactor writes as the script `webhook-compactor`), else the first event's.
-- A version with no event at all stays NULL: unknown.
UPDATE resource_versions v
SET origin = COALESCE(
  own.details->>'origin',
  CASE own.details->'writer'->>'kind'
    WHEN 'person' THEN 'portal'
    WHEN 'agent_session' THEN 'agent'
    WHEN 'script' THEN CASE WHEN own.details->'writer'->>'scriptId' = 'webhook-compactor' THEN 'webhook' ELSE 'script' END
  END,
  (SELECT e.details->>'origin' FROM resource_events e WHERE e.resource_id = v.resource_id ORDER BY e.id LIMIT 1)
)
FROM resource_versions v2
LEFT JOIN LATERAL (
  SELECT e.details FROM resource_events e
  WHERE e.resource_id = v2.resource_id
    AND e.kind IN ('created', 'revised', 'replaced', 'restored')
    AND e.details->>'version' = v2.version::text
  ORDER BY e.id LIMIT 1
) own ON true
WHERE v.resource_id = v2.resource_id AND v.version = v2.version;
