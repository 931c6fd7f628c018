-- Pinned imports (docs/scripts.md, "Imports"): a version runs exactly the library versions it was
-- saved against, never a library's later version. A library is imported by name and runs with the
-- importer's roles, so resolving its current version at run time let a library's author change
-- code that ran with another author's roles (an administrator's). One row per library a version
-- reaches — directly or through other libraries — with the version of it the save resolved.

CREATE TABLE script_version_pins (
  script_id        text NOT NULL,
  number           integer NOT NULL,
  -- The name the library is imported by (import 'formatting').
  library          text NOT NULL,
  -- The library's version the save resolved; both null once that library is deleted (the store
  -- refuses deletion while a current version pins it, so only older versions keep such a row).
  library_id       text,
  library_version  integer,
  PRIMARY KEY (script_id, number, library),
  FOREIGN KEY (script_id, number) REFERENCES script_versions (script_id, number) ON DELETE CASCADE,
  FOREIGN KEY (library_id, library_version) REFERENCES script_versions (script_id, number) ON DELETE SET NULL,
  CHECK ((library_id IS NULL) = (library_version IS NULL))
);
-- "Which current versions pin this library?" (a library in use is not deleted, nor made a script).
CREATE INDEX script_version_pins_library ON script_version_pins (library_id) WHERE library_id IS NOT NULL;

-- Existing versions are pinned to what they were saved against: each library it reaches by name,
-- at the version that was that library's newest when the importing version was written (its
-- created_at), following those versions' own imports at the same time. So a library changed after
-- an importer was saved is not what that importer runs — as if the pins had been there all along.
-- A name that resolves to no library at that time stays unpinned (a run of it fails: unknown library).
WITH RECURSIVE reach (script_id, number, saved_at, library) AS (
  SELECT v.script_id, v.number, v.created_at, i.name
    FROM script_versions v CROSS JOIN LATERAL unnest(v.imports) AS i (name)
  UNION
  SELECT r.script_id, r.number, r.saved_at, i.name
    FROM reach r
    JOIN scripts l ON l.name = r.library AND l.id <> r.script_id
    JOIN script_versions lv ON lv.script_id = l.id
     AND lv.number = (SELECT max(x.number) FROM script_versions x WHERE x.script_id = l.id AND x.created_at <= r.saved_at)
    CROSS JOIN LATERAL unnest(lv.imports) AS i (name)
)
INSERT INTO script_version_pins (script_id, number, library, library_id, library_version)
SELECT r.script_id, r.number, r.library, l.id, lv.number
  FROM reach r
  JOIN scripts l ON l.name = r.library AND l.id <> r.script_id
  JOIN script_versions lv ON lv.script_id = l.id
   AND lv.number = (SELECT max(x.number) FROM script_versions x WHERE x.script_id = l.id AND x.created_at <= r.saved_at)
 WHERE lv.kind = 'library';
