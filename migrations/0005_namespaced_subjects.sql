-- Subjects are namespaced by how the caller authenticated: apikey:<name>, oidc:<issuer>#<sub>,
-- local:operator, anonymous:anonymous (shared/identity/subjects.ts). Rows written before carry the
-- bare key name or OIDC sub. Which one a bare value was depends on the configuration (API key names,
-- the OIDC issuer), so the api rewrites them once at startup (shared/identity/legacy-subjects.ts),
-- in one transaction holding this row's lock, and stamps migrated_at. One row, always.
CREATE TABLE subject_namespace_migration (
  singleton       boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  -- NULL until the api has namespaced the stored subjects.
  migrated_at     timestamptz,
  rewritten_rows  bigint
);
INSERT INTO subject_namespace_migration (singleton) VALUES (true);

-- sessions.max_per_subject counts a subject's live sessions on every initialize.
CREATE INDEX mcp_sessions_subject ON mcp_sessions (subject);
