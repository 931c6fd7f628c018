-- Search indexing of managed resources (issue 18; docs/resources.md "Search indexing").
--
-- Metadata is findable the moment a write commits: a STORED generated tsvector on `resources` (and
-- one on `resource_folders` for the folder's description), kept by Postgres in the write's own
-- transaction. Contents arrive when the indexResource workflow has run: a bounded text prefix per
-- resource in `resource_search_index`, removed with the resource (ON DELETE CASCADE). Folders whose
-- files are not indexed one by one appear as one entry each in `resource_search_folders`, refreshed
-- by the indexSweep schedule. Names are also matched by trigram similarity (pg_trgm).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Words of a name or path: separators (. _ - /) become spaces so `q3-report.docx` is `q3 report docx`.
CREATE FUNCTION search_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace(t, '[._/:-]+', ' ', 'g');

-- A search's query: its words (split like names, English stemming), any of which may match.
CREATE FUNCTION search_query(q text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN replace(plainto_tsquery('english'::regconfig, search_words(q))::text, ' & ', ' | ')::tsquery;

-- A resource's metadata, weighted: names and tags A, description B, folder path, library and
-- content type C. (array_to_string is only STABLE; the wrapper is immutable since tags are text.)
CREATE FUNCTION resource_search_vector(display_name text, file_name text, tags text[], description text, folder_path text, library_key text, content_type text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN setweight(to_tsvector('english'::regconfig, search_words(display_name || ' ' || file_name || ' ' || array_to_string(tags, ' '))), 'A')
      || setweight(to_tsvector('english'::regconfig, description), 'B')
      || setweight(to_tsvector('english'::regconfig, search_words(folder_path || ' ' || library_key || ' ' || content_type)), 'C');

ALTER TABLE resources ADD COLUMN search_vector tsvector
  GENERATED ALWAYS AS (resource_search_vector(display_name, file_name, tags, description, folder_path, library_key, content_type)) STORED;
CREATE INDEX resources_search_vector ON resources USING gin (search_vector);
-- Name similarity (`query <% name`: the query resembles a word run in the name).
CREATE INDEX resources_search_name ON resources USING gin ((display_name || ' ' || file_name) gin_trgm_ops);

-- A folder's description, read live with each file filed in it (weight C).
ALTER TABLE resource_folders ADD COLUMN search_vector tsvector
  GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, description), 'C')) STORED;
CREATE INDEX resource_folders_search_vector ON resource_folders USING gin (search_vector);

-- What the indexer recorded per resource: the version it read, how it indexed it, and the text.
-- mode: not_indexed (hidden from search), metadata (fields only: over 8 MB, or no contents asked),
-- details (fields plus a table's column names), contents (fields plus a text prefix).
-- contents: at most 65,536 characters of extracted text (the indexer cuts it; docs/resources.md).
CREATE TABLE resource_search_index (
  resource_id      text PRIMARY KEY REFERENCES resources(id) ON DELETE CASCADE,
  indexed_version  integer NOT NULL,
  mode             text NOT NULL CHECK (mode IN ('not_indexed', 'metadata', 'details', 'contents')),
  contents         text NOT NULL DEFAULT '',
  contents_vector  tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, contents), 'D')) STORED,
  indexed_at       timestamptz NOT NULL
);
CREATE INDEX resource_search_index_contents ON resource_search_index USING gin (contents_vector);

-- A folder entry's words: its path A, description B, the names and types of its files C.
CREATE FUNCTION resource_search_folder_vector(path text, description text, names text[], types text[], library_key text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN setweight(to_tsvector('english'::regconfig, search_words(path)), 'A')
      || setweight(to_tsvector('english'::regconfig, description), 'B')
      || setweight(to_tsvector('english'::regconfig, search_words(array_to_string(names, ' ') || ' ' || array_to_string(types, ' ') || ' ' || library_key)), 'C');

-- One entry per folder holding files that are not indexed one by one ('' = a library's root).
CREATE TABLE resource_search_folders (
  library_kind     text NOT NULL,
  library_key      text NOT NULL,
  path             text NOT NULL,
  file_count       integer NOT NULL,
  types            text[] NOT NULL,
  names            text[] NOT NULL,
  description      text NOT NULL DEFAULT '',
  search_vector    tsvector GENERATED ALWAYS AS (resource_search_folder_vector(path, description, names, types, library_key)) STORED,
  refreshed_at     timestamptz NOT NULL,
  PRIMARY KEY (library_kind, library_key, path)
);
CREATE INDEX resource_search_folders_vector ON resource_search_folders USING gin (search_vector);
