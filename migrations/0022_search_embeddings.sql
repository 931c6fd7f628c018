-- Semantic search of managed resources (issue 18; docs/resources.md "Semantic search").
--
-- One vector per resource and embedding model (resources.search.embeddings), of its metadata and
-- the indexed contents prefix, in pgvector where the extension is available: Debian's
-- postgresql-15-pgvector, or PGlite's `vector`. Without it nothing is created and search stays
-- lexical (the platform says so once in its log at startup). The column has no fixed dimension, so
-- any model fits; a query compares only vectors of its own model. Install pgvector before this
-- migration runs to have semantic search.

DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS vector;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pgvector is not available here (%): search stays lexical', SQLERRM;
END $$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    -- mode: the index mode whose text was embedded (metadata, details, contents), so a file switched
    -- to Details only stops matching by its contents before it is embedded again.
    CREATE TABLE resource_embeddings (
      resource_id       text NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      model             text NOT NULL,
      embedded_version  integer NOT NULL,
      text_sha256       text NOT NULL,                 -- of the text embedded: a metadata edit re-embeds, a repeat does not
      mode              text NOT NULL CHECK (mode IN ('metadata', 'details', 'contents')),
      embedding         vector NOT NULL,
      embedded_at       timestamptz NOT NULL,
      PRIMARY KEY (resource_id, model)
    );
  END IF;
END $$;
