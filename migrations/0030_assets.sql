-- Assets (issue 38; spec document 1 "portal", document 2 "Asset reference"): what agents make and
-- people keep and share. Bytes live in the objstore connection portal.s3_connection, bucket
-- portal.s3_bucket, under portal.s3_prefix; one object per version.

CREATE TABLE assets (
  id               text PRIMARY KEY,                 -- UUIDv7
  owner            text NOT NULL,                    -- subject of the caller who saved it first
  owner_email      text,
  name             text NOT NULL,
  description      text NOT NULL DEFAULT '',
  tags             text[] NOT NULL DEFAULT '{}',
  content_type     text NOT NULL,                    -- of the head version
  size             bigint NOT NULL,
  content_sha256   text NOT NULL,
  head_version     integer NOT NULL,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
-- My assets: one owner's, newest first (keyset paging on updated_at, id).
CREATE INDEX assets_owner_updated ON assets (owner, updated_at DESC, id DESC);
-- Everyone's (administrators), newest first.
CREATE INDEX assets_updated ON assets (updated_at DESC, id DESC);

CREATE TABLE asset_versions (
  asset_id         text NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  version          integer NOT NULL,
  content_type     text NOT NULL,
  size             bigint NOT NULL,
  content_sha256   text NOT NULL,
  object_bucket    text NOT NULL,
  object_key       text NOT NULL,
  author           text NOT NULL,                    -- subject
  origin           text NOT NULL CHECK (origin IN ('agent', 'person')),
  change_summary   text,
  restored_from    integer,
  -- Provenance: the MCP session that saved it, the tool calls of that session on record before the
  -- save (audit_log ids and tool names, oldest first), and the sources the agent named.
  session_id       text,
  calls            jsonb NOT NULL DEFAULT '[]'::jsonb,
  sources          text[] NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (asset_id, version)
);
CREATE UNIQUE INDEX asset_versions_object ON asset_versions (object_bucket, object_key);

-- Resources the head version points at (its content's mcp:resource:<id> references and canonical
-- URIs, and the resources named in `sources`). No foreign key to resources: a forced delete of
-- the resource leaves the row, and the asset reports the file as missing (spec document 2, Errors).
CREATE TABLE asset_references (
  asset_id         text NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  resource_id      text NOT NULL,
  PRIMARY KEY (asset_id, resource_id)
);
-- Used by: the assets pointing at one resource.
CREATE INDEX asset_references_resource ON asset_references (resource_id, asset_id);

CREATE TABLE asset_shares (
  id                   text PRIMARY KEY,             -- UUIDv7
  asset_id             text NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  token_sha256         text NOT NULL UNIQUE,         -- hex SHA-256 of the link's token; the token itself is never kept
  created_by           text NOT NULL,
  created_at           timestamptz NOT NULL,
  expires_at           timestamptz,                  -- NULL: no expiry
  shared_with_user_id  text,                         -- private share: the subject who may open it
  shared_with_email    text,                         -- private share: the address (lower case) who may open it
  hide_expiration      boolean NOT NULL DEFAULT false,
  notice_text          text,                         -- NULL: the built-in confidentiality notice; '' hides it
  revoked_at           timestamptz,
  revoked_by           text,
  view_count           integer NOT NULL DEFAULT 0,
  last_viewed_at       timestamptz,
  CHECK (notice_text IS NULL OR char_length(notice_text) <= 500)
);
CREATE INDEX asset_shares_asset ON asset_shares (asset_id, created_at DESC);
-- Shared with me: live private shares by recipient.
CREATE INDEX asset_shares_user ON asset_shares (shared_with_user_id) WHERE shared_with_user_id IS NOT NULL AND revoked_at IS NULL;
CREATE INDEX asset_shares_email ON asset_shares (shared_with_email) WHERE shared_with_email IS NOT NULL AND revoked_at IS NULL;
