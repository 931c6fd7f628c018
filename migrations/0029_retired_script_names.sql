-- A deleted script's name is never given to another script (docs/scripts.md, "States"): a run
-- acts as principal script:<name>, which owns what the script wrote (its personal library, tables,
-- audit history), so a new script of the same name — anyone's — would act with that authority.
-- shared/scripts/store.ts writes a row on every deletion and refuses such names on create.

CREATE TABLE retired_script_names (
  name        text PRIMARY KEY,
  -- The deleted script; null for names retired by this migration from what deleted scripts left.
  script_id   text,
  retired_at  timestamptz NOT NULL
);

-- Scripts deleted before this migration: names their runs, files or audit rows still carry.
INSERT INTO retired_script_names (name, retired_at)
SELECT name, now() FROM (
  SELECT script_name AS name FROM script_runs WHERE script_id IS NULL AND script_name IS NOT NULL
  UNION SELECT substr(library_key, 8) FROM resources WHERE library_kind = 'person' AND library_key LIKE 'script:%'
  UNION SELECT substr(library_key, 8) FROM resource_folders WHERE library_kind = 'person' AND library_key LIKE 'script:%'
  UNION SELECT parameters->>'name' FROM audit_log WHERE tool = 'script_change' AND parameters->>'action' = 'delete'
) AS used
WHERE name IS NOT NULL AND name NOT IN (SELECT name FROM scripts);
