-- Listing and facets for a large tree (issue 12): the Last read sorts' index, and per-folder file
-- counts with the folder's last change, kept by triggers on `resources`.

-- Keyset listing of one folder by last read (`last_read`, `last_read_asc`; platform administrators).
-- A file never read sorts as -infinity, so the order is total and a cursor can name its position.
CREATE INDEX resources_folder_last_read ON resources (library_kind, library_key, folder_path, coalesce(last_read_at, '-infinity'::timestamptz), id);

-- One row per folder that ever held a file ('' = the library root): the files filed directly in it,
-- and when a file was last written into it, removed from it or moved out of it. Facets roll these up
-- to every ancestor instead of counting files, so one level of a 100,000-file tree reads only the
-- folder rows of the subtree. Triggers keep it, in the transaction of the write itself, for every way
-- a row changes (the service, a migration, rows seeded by hand).
CREATE TABLE resource_folder_stats (
  library_kind     text NOT NULL,
  library_key      text NOT NULL,
  path             text NOT NULL,
  file_count       bigint NOT NULL,
  last_changed_at  timestamptz,
  PRIMARY KEY (library_kind, library_key, path)
);

INSERT INTO resource_folder_stats (library_kind, library_key, path, file_count, last_changed_at)
SELECT library_kind, library_key, folder_path, count(*), max(updated_at) FROM resources GROUP BY 1, 2, 3;

-- Applies (library, folder, count delta, change time) rows, in key order: two writes touching the same
-- folders lock their rows in the same order and cannot deadlock. A write's time is the row's
-- updated_at (the service's clock); a removal has no new row and takes the transaction's time.
CREATE FUNCTION resource_folder_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO resource_folder_stats AS s (library_kind, library_key, path, file_count, last_changed_at)
    SELECT library_kind, library_key, folder_path, count(*), max(updated_at) FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (library_kind, library_key, path) DO UPDATE
      SET file_count = s.file_count + EXCLUDED.file_count, last_changed_at = greatest(s.last_changed_at, EXCLUDED.last_changed_at);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO resource_folder_stats AS s (library_kind, library_key, path, file_count, last_changed_at)
    SELECT library_kind, library_key, folder_path, -count(*), now() FROM removed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (library_kind, library_key, path) DO UPDATE
      SET file_count = s.file_count + EXCLUDED.file_count, last_changed_at = greatest(s.last_changed_at, EXCLUDED.last_changed_at);
  ELSE
    -- A move counts out of the old folder and into the new one, both changed at the move; an edit in
    -- place (new content, new details) changes its folder. A last-read stamp changes nothing here.
    INSERT INTO resource_folder_stats AS s (library_kind, library_key, path, file_count, last_changed_at)
    SELECT kind, key, path, sum(delta), max(at) FROM (
      SELECT o.library_kind AS kind, o.library_key AS key, o.folder_path AS path, -1 AS delta, n.updated_at AS at
        FROM removed o JOIN added n USING (id)
       WHERE (o.library_kind, o.library_key, o.folder_path) IS DISTINCT FROM (n.library_kind, n.library_key, n.folder_path)
      UNION ALL
      SELECT n.library_kind, n.library_key, n.folder_path,
             CASE WHEN (o.library_kind, o.library_key, o.folder_path) IS DISTINCT FROM (n.library_kind, n.library_key, n.folder_path) THEN 1 ELSE 0 END,
             n.updated_at
        FROM removed o JOIN added n USING (id)
       WHERE (o.library_kind, o.library_key, o.folder_path, o.updated_at) IS DISTINCT FROM (n.library_kind, n.library_key, n.folder_path, n.updated_at)
    ) AS d GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (library_kind, library_key, path) DO UPDATE
      SET file_count = s.file_count + EXCLUDED.file_count, last_changed_at = greatest(s.last_changed_at, EXCLUDED.last_changed_at);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER resource_folder_stats_insert AFTER INSERT ON resources
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION resource_folder_stats_apply();
CREATE TRIGGER resource_folder_stats_delete AFTER DELETE ON resources
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION resource_folder_stats_apply();
CREATE TRIGGER resource_folder_stats_update AFTER UPDATE ON resources
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION resource_folder_stats_apply();
