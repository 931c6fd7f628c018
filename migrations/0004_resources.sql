-- Managed resources (spec document 2): human-uploaded files agents use verbatim.
-- A library is (library_kind, library_key): ('person', <subject>), ('persona', <name>), ('global', '').

CREATE TABLE resources (
  id               text PRIMARY KEY,                 -- UUIDv7, stable across replace, move and rename
  library_kind     text NOT NULL CHECK (library_kind IN ('person', 'persona', 'global')),
  library_key      text NOT NULL,
  folder_path      text NOT NULL DEFAULT '',         -- '' = library root; 'a/b' otherwise
  file_name        text NOT NULL,
  display_name     text NOT NULL,
  description      text NOT NULL DEFAULT '',
  tags             text[] NOT NULL DEFAULT '{}',
  content_type     text NOT NULL,
  size             bigint NOT NULL,
  content_sha256   text,                             -- NULL only for legacy rows without a recorded hash
  head_version     integer NOT NULL,
  search_setting   text NOT NULL DEFAULT 'default' CHECK (search_setting IN ('default', 'contents', 'details_only', 'not_indexed')),
  uploader         text NOT NULL,                    -- subject; a move never changes it
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  last_read_at     timestamptz
);
-- One live resource per address.
CREATE UNIQUE INDEX resources_address ON resources (library_kind, library_key, folder_path, file_name);
-- Keyset listing of one folder in each of the six sorts (ties broken by id): an index per sort key
-- so a 10,000-file folder pages without sorting. Descending sorts scan these backwards.
CREATE INDEX resources_folder_name ON resources (library_kind, library_key, folder_path, lower(display_name), id);
CREATE INDEX resources_folder_updated ON resources (library_kind, library_key, folder_path, updated_at, id);
CREATE INDEX resources_folder_size ON resources (library_kind, library_key, folder_path, size, id);

CREATE TABLE resource_versions (
  resource_id      text NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
  version          integer NOT NULL,
  uploader         text NOT NULL,
  created_at       timestamptz NOT NULL,
  size             bigint NOT NULL,
  content_type     text NOT NULL,
  content_sha256   text,
  change_summary   text,
  restored_from    integer,                          -- set on a restore: the version whose bytes were copied
  object_bucket    text NOT NULL,
  object_key       text NOT NULL,
  PRIMARY KEY (resource_id, version)
);
-- Restore and pruning never share an object between versions: each version owns its key.
CREATE UNIQUE INDEX resource_versions_object ON resource_versions (object_bucket, object_key);

-- One row per folder (spec: resource_folders), kept when emptied.
CREATE TABLE resource_folders (
  library_kind     text NOT NULL,
  library_key      text NOT NULL,
  path             text NOT NULL,                    -- never '' (the library root is not a folder row)
  description      text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (library_kind, library_key, path)
);

-- Every address a resource has answered to (its canonical URI at the time).
CREATE TABLE resource_aliases (
  uri              text NOT NULL,
  resource_id      text NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
  vacated_at       timestamptz NOT NULL,
  PRIMARY KEY (uri, resource_id)
);
CREATE INDEX resource_aliases_uri ON resource_aliases (uri, vacated_at DESC);

-- Written by: who created or modified the file, most recent first.
CREATE TABLE resource_writers (
  resource_id      text NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
  writer_kind      text NOT NULL CHECK (writer_kind IN ('person', 'agent_session', 'script')),
  writer_id        text NOT NULL,                    -- subject, MCP session id, or script id
  display          text NOT NULL DEFAULT '',
  created          boolean NOT NULL,                 -- true: created the file; false: only modified
  last_written_at  timestamptz NOT NULL,
  PRIMARY KEY (resource_id, writer_kind, writer_id)
);
CREATE INDEX resource_writers_recent ON resource_writers (resource_id, last_written_at DESC);

-- Content reads by door, for usage (recorded only while audit is enabled).
CREATE TABLE resource_reads (
  id               bigserial PRIMARY KEY,
  resource_id      text NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
  door             text NOT NULL CHECK (door IN ('resources_read', 'search_fetch', 'portal_download', 'portal_preview')),
  reader           text NOT NULL,
  read_at          timestamptz NOT NULL
);
CREATE INDEX resource_reads_resource_time ON resource_reads (resource_id, read_at DESC);

-- Audit of moves and edits of resources (spec: a move is recorded with who moved what, from where to where).
CREATE TABLE resource_events (
  id               bigserial PRIMARY KEY,
  resource_id      text NOT NULL,
  kind             text NOT NULL,                    -- created, revised (create over an existing address), replaced, restored, updated, moved, deleted
  actor            text NOT NULL,
  details          jsonb NOT NULL DEFAULT '{}'::jsonb,
  occurred_at      timestamptz NOT NULL
);
CREATE INDEX resource_events_resource ON resource_events (resource_id, occurred_at DESC);
