-- Scripted endpoints (issue 17; spec document 3, "Endpoint binding"; docs/endpoints.md): the
-- binding's settings on the table 0015 left minimal, the enabled flag, who set it and when (the
-- binding's write time, read on every request with the script's), and the failed-request records.
-- shared/endpoints/ owns these tables. Limits are checked by shared/endpoints/rules.ts; the
-- CHECKs are the backstop.

ALTER TABLE endpoint_bindings
  ADD CONSTRAINT endpoint_bindings_name CHECK (endpoint ~ '^[a-z0-9_-]+$' AND length(endpoint) <= 63),
  ADD COLUMN methods           text[]  NOT NULL DEFAULT '{GET}',
  ADD COLUMN path              text    NOT NULL DEFAULT '',
  ADD COLUMN auth_mode         text    NOT NULL DEFAULT 'signed_in' CHECK (auth_mode IN ('signed_in', 'public')),
  ADD COLUMN open_reads        boolean NOT NULL DEFAULT false,
  ADD COLUMN timeout_seconds   integer NOT NULL DEFAULT 10 CHECK (timeout_seconds BETWEEN 1 AND 60),
  ADD COLUMN max_memory_bytes  bigint  NOT NULL DEFAULT 67108864 CHECK (max_memory_bytes > 0),
  ADD COLUMN max_body_bytes    integer NOT NULL DEFAULT 1048576 CHECK (max_body_bytes BETWEEN 0 AND 10485760),
  ADD COLUMN allowed_origins   text[]  NOT NULL DEFAULT '{}',
  ADD COLUMN rate_limit        integer NOT NULL DEFAULT 600 CHECK (rate_limit >= 1),
  ADD COLUMN caller_rate_limit integer NOT NULL DEFAULT 120 CHECK (caller_rate_limit >= 1),
  ADD COLUMN enabled           boolean NOT NULL DEFAULT true,
  ADD COLUMN created_by        text    NOT NULL DEFAULT '',
  ADD COLUMN created_at        timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN updated_by        text    NOT NULL DEFAULT '',
  ADD COLUMN updated_at        timestamptz NOT NULL DEFAULT now();

-- A failed request (status 500, 503, 504 — the handler's failures and the replica's refusals to
-- run it), kept seven days (housekeeping), listed by endpoint_list and the portal. The error is
-- the script's, shown to the script's owner and administrators only, never to the caller.
CREATE TABLE endpoint_failures (
  id           text PRIMARY KEY,      -- UUIDv7
  endpoint     text NOT NULL,
  script_id    text REFERENCES scripts (id) ON DELETE SET NULL,
  version      integer,
  method       text NOT NULL,
  status       integer NOT NULL,
  error        text NOT NULL,
  duration_ms  integer NOT NULL,
  session_id   text NOT NULL,
  occurred_at  timestamptz NOT NULL
);
CREATE INDEX endpoint_failures_endpoint ON endpoint_failures (endpoint, occurred_at DESC);
CREATE INDEX endpoint_failures_occurred ON endpoint_failures (occurred_at);
