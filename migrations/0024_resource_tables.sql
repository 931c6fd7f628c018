-- Table registration (issue 20; spec document 2, "Table registration" state table; docs/resources.md
-- "Table registration"). One row per table a resource is registered as, in the scratch catalog of a
-- SQL connection: which version it reads (`version`; NULL while its first correction runs), whether
-- it follows new versions written by an export or an extraction, whether it corrects the file (a new
-- upload with broken records is corrected again above it), who registered it and when.
-- shared/tables/ owns it.
--
-- No foreign key to resources: a forced delete of the file drops the tables over it after the
-- resource's rows are gone (the delete's reference counter, `released`), and needs these rows to know
-- what to drop. The prune rule of resource_versions keeps every version a row here names
-- (shared/resources/context.ts), so `version` always has its bytes while the row exists.

CREATE TABLE resource_tables (
  id             text PRIMARY KEY,                -- UUIDv7
  resource_id    text NOT NULL,
  connection     text NOT NULL,                   -- toolkits.sql.<name>
  catalog        text NOT NULL,                   -- the connection's scratch catalog and schema
  schema_name    text NOT NULL,
  table_name     text NOT NULL,                   -- what callers query (persona prefix included)
  format         text NOT NULL CHECK (format IN ('csv', 'tsv', 'ndjson')),
  version        integer,                         -- the version registered at (NULL: first correction running)
  relation       text,                            -- the engine object over that version's bytes (Trino: table_name__v<n>; DuckDB: table_name)
  follow         boolean NOT NULL,
  corrects       boolean NOT NULL,
  correcting     boolean NOT NULL DEFAULT false,  -- a correction runs in the registerTable workflow
  registered_by  text NOT NULL,
  registered_at  timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  CHECK ((version IS NULL) = (relation IS NULL)),
  CHECK (version IS NOT NULL OR correcting)
);
-- A table name is taken once per connection.
CREATE UNIQUE INDEX resource_tables_name ON resource_tables (connection, table_name);
CREATE INDEX resource_tables_resource ON resource_tables (resource_id);
