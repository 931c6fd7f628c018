/**
 * Folder entries of search (spec document 2: "A folder holding files that are not indexed one by
 * one appears in search as one entry: its path, file count and types, a few names, and its
 * description"). A file is not indexed one by one when search does not read its contents: its
 * setting is Details only or Not indexed, or the indexer recorded it on details, metadata (over 8 MB)
 * or not at all (a rule). The index sweep rebuilds the entries; a folder's new description reaches
 * search then (at most 5 minutes).
 */
import { withTransaction, type Db } from '../db/index.js';

/** Names kept per folder entry. */
export const FOLDER_ENTRY_NAMES = 5;

/** Rebuilds every folder entry in one transaction (searches see the old set until it commits). */
export async function refreshFolderEntries(db: Db, now: Date): Promise<{ entries: number }> {
  return withTransaction(db, async (client) => {
    // Folders that no longer hold such files (emptied, now indexed on contents, deleted) drop out.
    await client.query(`DELETE FROM resource_search_folders`);
    const inserted = await client.query(
      `INSERT INTO resource_search_folders (library_kind, library_key, path, file_count, types, names, description, refreshed_at)
       SELECT h.library_kind, h.library_key, h.folder_path, h.n, h.types, h.names, coalesce(f.description, ''), $2
         FROM (SELECT r.library_kind, r.library_key, r.folder_path, count(*)::integer AS n,
                      array_agg(DISTINCT split_part(r.content_type, ';', 1) ORDER BY split_part(r.content_type, ';', 1)) AS types,
                      -- A file set to Not indexed counts, but its name is not shown.
                      coalesce((array_agg(r.display_name ORDER BY lower(r.display_name), r.id)
                                 FILTER (WHERE r.search_setting <> 'not_indexed' AND i.mode IS DISTINCT FROM 'not_indexed'))[1:$1], '{}') AS names
                 FROM resources r LEFT JOIN resource_search_index i ON i.resource_id = r.id
                WHERE r.search_setting IN ('details_only', 'not_indexed') OR i.mode IN ('not_indexed', 'metadata', 'details')
                GROUP BY 1, 2, 3) h
         LEFT JOIN resource_folders f ON f.library_kind = h.library_kind AND f.library_key = h.library_key AND f.path = h.folder_path`,
      [FOLDER_ENTRY_NAMES, now],
    );
    return { entries: inserted.rowCount ?? 0 };
  });
}
