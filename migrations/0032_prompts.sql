-- Prompts people and agents create (issue 40; spec document 2 "Other attachments", Authentication
-- "Attach to a prompt" and the Attachment rule), beside the operator's server.prompts, the
-- prompts_dir files and the workflow prompts, which live in configuration and code only.
--
-- scope: personal (scope_key = the owner's subject), persona (scope_key = the persona's name) or
-- shared (scope_key = ''). A name is unique within its scope; the MCP surface lists what a caller
-- may see, more specific scopes first (docs/prompts.md).

CREATE TABLE prompts (
  id           text PRIMARY KEY,                      -- UUIDv7
  scope        text NOT NULL CHECK (scope IN ('personal', 'persona', 'shared')),
  scope_key    text NOT NULL,
  owner        text NOT NULL,                         -- subject of the caller who created it
  owner_email  text,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  content      text NOT NULL,
  -- [{name, description?, required}] as server.prompts[].arguments
  arguments    jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  CHECK ((scope = 'shared') = (scope_key = ''))
);
CREATE UNIQUE INDEX prompts_scope_name ON prompts (scope, scope_key, name);
-- The prompts one person created (the portal's page, the per-person ceiling).
CREATE INDEX prompts_owner ON prompts (owner, updated_at DESC, id DESC);

-- Resources a prompt carries, in an authored order (position 0 first). No foreign key to
-- resources: a forced delete leaves the row, and the prompt reports the material as missing by
-- the name it had when attached (spec document 2, Errors).
CREATE TABLE prompt_attachments (
  prompt_id    text NOT NULL REFERENCES prompts(id) ON DELETE CASCADE,
  resource_id  text NOT NULL,
  position     integer NOT NULL CHECK (position >= 0),
  name         text NOT NULL,                         -- the resource's display name when attached
  attached_by  text NOT NULL,
  attached_at  timestamptz NOT NULL,
  PRIMARY KEY (prompt_id, resource_id),
  UNIQUE (prompt_id, position) DEFERRABLE INITIALLY DEFERRED
);
-- Delete counts and the resource's Used by: the prompts pointing at one resource.
CREATE INDEX prompt_attachments_resource ON prompt_attachments (resource_id, prompt_id);
