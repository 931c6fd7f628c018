-- Managed scripts (issue 16; docs/scripts.md): user code with a stable id, a unique display name,
-- an owner, versions of its source and a state. Writer records and endpoint bindings hold the id,
-- so a name is only what people read. shared/scripts/store.ts owns these tables.

CREATE TABLE scripts (
  id               text PRIMARY KEY,      -- UUIDv7
  -- Also the name libraries are imported by and the principal script:<name>; never UUID-shaped
  -- (shared/scripts/rules.ts), so one field can take either an id or a name.
  name             text NOT NULL UNIQUE CHECK (name ~ '^[a-z][a-z0-9_-]*$' AND length(name) <= 63),
  owner_subject    text NOT NULL,
  owner_email      text,
  -- What the current version's source defines: main() and/or handle(req) make a script, neither a library.
  kind             text NOT NULL CHECK (kind IN ('script', 'library')),
  state            text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled', 'deprecated', 'superseded')),
  -- The script that replaces this one; deleting that script is refused while this points at it.
  superseded_by    text REFERENCES scripts (id),
  current_version  integer NOT NULL CHECK (current_version >= 1),
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  CHECK ((state = 'superseded') = (superseded_by IS NOT NULL)),
  CHECK (superseded_by IS DISTINCT FROM id)
);
CREATE INDEX scripts_superseded_by ON scripts (superseded_by) WHERE superseded_by IS NOT NULL;

-- Every saved source, numbered from 1; a save whose source is unchanged adds none.
CREATE TABLE script_versions (
  script_id     text NOT NULL REFERENCES scripts (id) ON DELETE CASCADE,
  number        integer NOT NULL CHECK (number >= 1),
  source        text NOT NULL,
  -- Hex SHA-256 of the source's UTF-8 bytes.
  sha256        text NOT NULL,
  author_subject text NOT NULL,
  author_email  text,
  -- The author's roles when saving: a run of this version acts with them (principal script:<name>).
  author_roles  text[] NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('script', 'library')),
  -- The entry points the source exports (main, handle) and the libraries it imports, by name.
  entry_points  text[] NOT NULL,
  imports       text[] NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (script_id, number)
);
-- "Which current sources import this library?" (a library in use is not deleted).
CREATE INDEX script_versions_imports ON script_versions USING gin (imports);

-- The binding of a script's handle(req) to /endpoints/{endpoint} (spec document 3). Minimal here:
-- the endpoint issue adds its settings as columns. A bound script keeps defining handle and is
-- not deleted (the store refuses both, naming the endpoint; the foreign key is the backstop).
CREATE TABLE endpoint_bindings (
  endpoint   text PRIMARY KEY,
  script_id  text NOT NULL UNIQUE REFERENCES scripts (id)
);
