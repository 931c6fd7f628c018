-- Table registration's locks (shared/tables/lock.ts; docs/resources.md "Table registration"): one
-- row per lock held, a lease. Registrations, corrections and follow-ups of one file
-- (`file:<resource id>`) and registrations of one table name on a connection
-- (`name:<connection>:<table>`) take them, so a view and its registration row always agree.
--
-- A lease rather than a session advisory lock: taking, renewing and releasing it are single short
-- statements, so no pooled connection is pinned for a job's length (a correction may stream a file
-- for minutes), and it is a real lock under embedded PGlite too, whose connections all share one
-- backend (an advisory lock there is re-entrant across them). A holder that dies leaves a row whose
-- lease expires; the next taker replaces it.

CREATE TABLE resource_table_locks (
  key         text PRIMARY KEY,
  holder      text NOT NULL,           -- a random id per acquisition: only its holder renews or releases it
  expires_at  timestamptz NOT NULL     -- renewed while the work runs; after it, anyone may take the lock
);
