-- Runs of managed scripts (issue 16; docs/scripts.md, "Runs"): one row per run, draft or scheduled.
-- shared/scripts/runs/ owns this table. A run of an unsaved source has no script_id; a run of a
-- script that is later deleted keeps its row (script_id cleared, script_name kept).

CREATE TABLE script_runs (
  id              text PRIMARY KEY,        -- UUIDv7
  script_id       text REFERENCES scripts (id) ON DELETE SET NULL,
  -- The script's name at run time (display; null for an unsaved source).
  script_name     text,
  -- The version that ran; null for an unsaved source.
  version         integer CHECK (version >= 1),
  -- draft: started by a person or agent (manage_script run, REST); schedule: by its Temporal Schedule.
  trigger         text NOT NULL CHECK (trigger IN ('draft', 'schedule')),
  -- When a schedule fired this run (the Temporal scheduled time); null for drafts.
  scheduled_at    timestamptz,
  status          text NOT NULL CHECK (status IN ('ok', 'error', 'timeout', 'memory', 'busy')),
  error           text,
  duration_ms     integer NOT NULL CHECK (duration_ms >= 0),
  -- The run's console output, bounded (shared/scripts/runs: the first 8 KiB).
  console_excerpt text NOT NULL DEFAULT '',
  started_at      timestamptz NOT NULL,
  finished_at     timestamptz NOT NULL,
  -- Who started it: the caller of a draft run; the schedule's principal for scheduled runs.
  caller_subject  text NOT NULL,
  -- The principal the run acted as: script:<name>, or the caller for an unsaved source.
  principal       text NOT NULL
);
CREATE INDEX script_runs_by_script ON script_runs (script_id, started_at DESC);
