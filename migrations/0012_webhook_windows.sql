-- The windows of each webhook source that hold raw segments (spec document 3, "Webhook window"):
-- what the compaction sweep and the retention pass work from. A receiving replica records a
-- window after each segment it wrote there, before any request in the segment is answered.
--
-- landed_seq orders landings across replicas without trusting their clocks: a compaction notes
-- the value it started from, and a window whose landed_seq grew since is owed another compaction.

CREATE SEQUENCE webhook_window_landings;

CREATE TABLE webhook_windows (
  source_id        text NOT NULL REFERENCES webhook_sources (id) ON DELETE CASCADE,
  -- Partition values: YYYY-MM-DD, HH, MM (start minute of the window).
  dt               text NOT NULL,
  hour             text NOT NULL,
  minute           text NOT NULL,
  start_at         timestamptz NOT NULL,
  -- The longest compact_every_minutes of the segments landed in it: a window already holding
  -- segments keeps the longer of an old and a new length.
  length_minutes   integer NOT NULL CHECK (length_minutes BETWEEN 1 AND 60),
  first_landed_at  timestamptz NOT NULL,
  last_landed_at   timestamptz NOT NULL,
  landed_seq       bigint NOT NULL,
  segments         bigint NOT NULL,
  events           bigint NOT NULL,
  PRIMARY KEY (source_id, dt, hour, minute)
);
