-- Compaction and retention state of webhook windows (spec document 3, "Webhook window";
-- shared/webhooks/windows.ts) and the request counts behind the source page.
--
-- A window is owed a compaction while it was never compacted or landed_seq > compacted_seq (a
-- segment landed after the compaction it has started from). compacted_seq never moves back.
ALTER TABLE webhook_windows
  -- landed_seq the last successful compaction covered; NULL: never compacted.
  ADD COLUMN compacted_seq     bigint,
  ADD COLUMN compacted_at      timestamptz,
  -- The managed resource webhooks/{source}/{dt}/{HH}-{MM}.parquet and its version.
  ADD COLUMN resource_id       text,
  ADD COLUMN resource_version  integer,
  -- Duplicates the last compaction dropped (the window's total): each compaction adds only the
  -- increase to webhook_duplicates_dropped_total.
  ADD COLUMN duplicates_dropped bigint NOT NULL DEFAULT 0,
  -- Failing: attempts since the last success, the last reason, and when the sweep may retry.
  ADD COLUMN attempts          integer NOT NULL DEFAULT 0,
  ADD COLUMN last_error        text,
  ADD COLUMN last_failed_at    timestamptz,
  ADD COLUMN next_try_at       timestamptz,
  -- Raw retention: the raw segments up to landed_seq raw_removed_seq are deleted.
  ADD COLUMN raw_removed_at    timestamptz,
  ADD COLUMN raw_removed_seq   bigint,
  -- Compacted retention, in the spec's order; each step is recorded once done, so a pass stopped
  -- half-way is finished by the next. 'removed': nothing of the window is left.
  ADD COLUMN removal_step      text CHECK (removal_step IN ('unregistered', 'resource_deleted', 'removed'));

-- The sweep's selection: windows owed a compaction, oldest first.
CREATE INDEX webhook_windows_owed ON webhook_windows (start_at)
  WHERE removal_step IS NULL AND (compacted_seq IS NULL OR landed_seq > compacted_seq);

-- Requests per source, minute and outcome (webhook_requests_total outcomes), added to by every
-- receiving replica a few seconds at a time; rows older than a day and an hour are pruned by the
-- flushes themselves. Requests to unknown names are never kept (they have no source).
CREATE TABLE webhook_request_counts (
  source_id  text NOT NULL REFERENCES webhook_sources (id) ON DELETE CASCADE,
  minute     timestamptz NOT NULL,
  outcome    text NOT NULL,
  count      bigint NOT NULL,
  PRIMARY KEY (source_id, minute, outcome)
);
CREATE INDEX webhook_request_counts_minute ON webhook_request_counts (minute);
