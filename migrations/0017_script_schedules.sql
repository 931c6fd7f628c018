-- Scheduled runs of managed scripts (issue 16; docs/scripts.md, "Schedules"): at most one schedule
-- per script, a cron expression or an interval, in a time zone. This row is the truth: the sync
-- (worker/script-schedules.ts) makes the Temporal Schedule `script-schedule:{script_id}` match it
-- after every change and on every reconcile pass, so a crash between the commit and the Temporal
-- call loses nothing. Deleting the script deletes its row; the reconcile then deletes the Schedule.
CREATE TABLE script_schedules (
  script_id    text PRIMARY KEY REFERENCES scripts (id) ON DELETE CASCADE,
  -- A Temporal cron string (5 fields, or @hourly/@daily/…), or an interval in ms: exactly one.
  cron         text,
  interval_ms  bigint CHECK (interval_ms >= 60000),
  -- IANA time zone the cron is read in (intervals ignore it).
  time_zone    text NOT NULL DEFAULT 'UTC',
  paused       boolean NOT NULL DEFAULT false,
  created_by   text NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_by   text NOT NULL,
  updated_at   timestamptz NOT NULL,
  CHECK ((cron IS NULL) <> (interval_ms IS NULL))
);

-- An administrator's retry of a failed scheduled run is a run of its own, linked to the one it repeats.
ALTER TABLE script_runs ADD COLUMN retry_of text REFERENCES script_runs (id) ON DELETE SET NULL;
