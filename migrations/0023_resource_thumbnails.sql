-- Thumbnails (issue 19; spec document 2, "Thumbnail" state table and "Thumbnail drawing rules";
-- docs/resources.md "Thumbnails"). One row per resource that ever had a draw started: what the
-- last draw was about (`state` of `version`) and the tile stored now (`tile_*`), which may be of an
-- older version (the answer's `stale`: the old tile keeps showing until the new one lands). A
-- resource without a row answers `none` (drawable, nothing started yet) or `icon` (a family never
-- drawn, or over its bound): the icon answer needs no row, the rules decide it from the type,
-- name and size. shared/resources/thumbnails/ owns it.

CREATE TABLE resource_thumbnails (
  resource_id     text PRIMARY KEY REFERENCES resources (id) ON DELETE CASCADE,
  state           text NOT NULL CHECK (state IN ('drawing', 'drawn', 'failed')),
  version         integer NOT NULL,                 -- the file version being drawn, drawn or that failed
  recaptures      integer NOT NULL DEFAULT 0,       -- Recapture / Try again requests for `version` (names its workflow)
  failed_reason   text,                             -- why the draw failed (state failed)
  failed_variant  text CHECK (failed_variant IN ('light', 'dark', 'image')),
  tile_version    integer,                          -- the version the stored tile was drawn from (NULL: none stored)
  tile_source_at  timestamptz,                      -- the moment of that file version (its created_at)
  tile_drawn_at   timestamptz,
  tile_format     text CHECK (tile_format IN ('png', 'webp')),
  tile_variants   text[] NOT NULL DEFAULT '{}',     -- {light,dark} for documents, {image} for the others
  tile_objects    text[] NOT NULL DEFAULT '{}',     -- object keys in the resources bucket, beside the resource's versions
  updated_at      timestamptz NOT NULL,
  CHECK ((state = 'failed') = (failed_reason IS NOT NULL)),
  CHECK ((tile_version IS NULL) = (cardinality(tile_objects) = 0))
);
