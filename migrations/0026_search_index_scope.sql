-- 1. The library of each indexed resource beside its contents (docs/resources.md "Search ranking"):
-- the contents shortlist of a search is scoped in the same rows the GIN index finds, instead of
-- looking each match up in `resources` (thousands of lookups for a common word). The search still
-- checks every hit against `resources`, so this copy only decides which matches are ranked.
-- A move to another library updates it in the move's transaction (trigger below); the indexer
-- writes it with every record.
ALTER TABLE resource_search_index ADD COLUMN library_kind text, ADD COLUMN library_key text;
UPDATE resource_search_index i SET library_kind = r.library_kind, library_key = r.library_key FROM resources r WHERE r.id = i.resource_id;
ALTER TABLE resource_search_index ALTER COLUMN library_kind SET NOT NULL, ALTER COLUMN library_key SET NOT NULL;

CREATE FUNCTION resource_search_index_follow_library() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE resource_search_index SET library_kind = NEW.library_kind, library_key = NEW.library_key WHERE resource_id = NEW.id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER resources_library_to_search_index AFTER UPDATE OF library_kind, library_key ON resources
  FOR EACH ROW WHEN (OLD.library_kind IS DISTINCT FROM NEW.library_kind OR OLD.library_key IS DISTINCT FROM NEW.library_key)
  EXECUTE FUNCTION resource_search_index_follow_library();

-- 2. The `resources.index` rules an index row was decided under (a fingerprint, search/rules.ts
-- rulesFingerprint): the sweep re-indexes rows decided under other rules, so a rule change reaches
-- files already indexed (a new Not indexed rule hides them) without waiting for their next write.
-- Rows from before this migration have none and are re-decided once.
ALTER TABLE resource_search_index ADD COLUMN rules_fingerprint text;
