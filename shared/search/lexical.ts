/**
 * Lexical search over managed resources (spec document 2: search ranking, membership-scoped for
 * everyone, administrators included). Postgres full-text search, weighted — names and tags (A)
 * above description (B) above folder path, library, content type and the folder's description (C)
 * above contents (D) — plus trigram similarity of the query to the names it resembles. Any word
 * of the query may match (OR); more and heavier matches rank higher. Each way of matching hands on
 * a bounded shortlist to the full score (docs/resources.md "Search ranking", cost bounds).
 *
 * Metadata is read live from `resources` (and the folder's description from `resource_folders`),
 * so a write is findable the moment it commits; contents come from `resource_search_index` once
 * the indexer ran. Folders whose files are not indexed one by one answer as one entry each
 * (`resource_search_folders`, refreshed by the sweep). Hybrid ranking (embeddings) fuses these
 * hits with its own (shared/search/hybrid*).
 */
import { withTransaction, type Db } from '../db/index.js';
import { formatLibrary, formatLibraryPath, libraryFromKey, libraryKey, referenceOf, canonicalUri, type Library } from '../resources/index.js';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;
/** Longest query text considered (characters). */
export const MAX_QUERY_CHARS = 500;

interface HitBase {
  /** `<library text>`: person:<subject>, persona:<name>, global. */
  library: string;
  /** Folder path inside the library. */
  path: string;
  title: string;
  description: string;
  /** A short passage of the matching text (contents, else the description). */
  snippet: string;
  score: number;
}

export interface ResourceHit extends HitBase {
  kind: 'resource';
  /** The resource id. */
  id: string;
  reference: string;
  uri: string;
  file_name: string;
  content_type: string;
  size: number;
  updated_at: string;
}

/** A folder whose files are not indexed one by one, as one entry. */
export interface FolderHit extends HitBase {
  kind: 'folder';
  /** `folder:<library>/<path>` (the listing route takes `<library>/<path>` as its `path`). */
  id: string;
  file_count: number;
  types: string[];
  /** A few of its files' display names. */
  names: string[];
}

export type SearchHit = ResourceHit | FolderHit;

export interface SearchPage {
  hits: SearchHit[];
  /** Whether a further page (offset + limit) has hits. */
  more: boolean;
}

/** Folder ids in hits: `folder:` + `<library>/<path>`. */
export const FOLDER_ID_PREFIX = 'folder:';

export interface HitRow {
  kind: 'resource' | 'folder';
  id: string;
  library_kind: string;
  library_key: string;
  path: string;
  title: string;
  file_name: string;
  description: string;
  content_type: string;
  size: string | null;
  updated_at: Date | null;
  file_count: number | null;
  types: string[] | null;
  names: string[] | null;
  snippet: string;
  score: number;
}

/**
 * The hits of `query` in the libraries of `scope` (readableLibraries of the caller), best first,
 * paged by offset. An empty query finds nothing.
 */
export async function searchLexical(
  db: Db,
  scope: readonly Library[],
  query: string,
  page: { limit?: number; offset?: number } = {},
): Promise<SearchPage> {
  const text = query.trim().slice(0, MAX_QUERY_CHARS);
  const limit = Math.min(Math.max(1, Math.trunc(page.limit ?? DEFAULT_SEARCH_LIMIT)), MAX_SEARCH_LIMIT);
  const offset = Math.max(0, Math.trunc(page.offset ?? 0));
  if (text === '' || scope.length === 0) return { hits: [], more: false };
  const keys = scope.map((l) => libraryKey(l));
  const res = await withTransaction(db, async (client) => {
    // The planner does not count reading large (TOASTed) vectors into a sequential scan's cost, and
    // would test every row of a small index table instead of asking its GIN index.
    await client.query('SET LOCAL enable_seqscan = off');
    // One plan per connection: planning this query took as long as running a typical one, and its
    // shape does not depend on the words (the GIN indexes find every match).
    await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
    const contents = contentsQuery((await client.query<TermRow>(termsSql, [text])).rows);
    const params = [text, keys.map((k) => k.kind), keys.map((k) => k.key), limit + 1, offset, contents.query, contents.terms, CONTENTS_RANK_CAP, shortlistSize(limit, offset)];
    return client.query<HitRow>({ name: 'search-lexical', text: lexicalSql, values: params });
  });
  const rows = res.rows.slice(0, limit);
  return { hits: rows.map(toHit), more: res.rows.length > limit };
}

/**
 * Files matching by their metadata, and files matching by their contents, that are scored in full:
 * the best of each by its own rank, several pages' worth beyond the one asked for.
 */
export function shortlistSize(limit: number, offset: number): number {
  return Math.max(200, 4 * (offset + limit + 1));
}

/** Contents of more than this share of files make a word common (it tells them apart too little to rank). */
export const COMMON_TERM_SHARE = 0.25;
/**
 * In-scope files ranked on their contents at most, per query: those holding the most of its words,
 * then the most recently changed (ranking reads each file's contents vector).
 */
export const CONTENTS_RANK_CAP = 500;

interface TermRow {
  lexeme: string;
  /** Share of indexed files whose contents hold it, from the planner's statistics; null when not among the most common. */
  share: number | null;
}

/**
 * What the contents are searched and ranked for: the query's words as one tsquery (any may match)
 * and one by one (to count how many each file holds). A word in most files (by the table's
 * statistics) tells files apart too little: it is left out when the query has others. Metadata
 * always takes the whole query.
 */
export function contentsQuery(terms: readonly TermRow[]): { query: string; terms: string[] } {
  const quoted = (t: TermRow) => `'${t.lexeme.replace(/'/g, "''")}'`;
  const distinctive = terms.filter((t) => t.share === null || t.share <= COMMON_TERM_SHARE);
  const used = (distinctive.length > 0 ? distinctive : terms).map(quoted);
  return { query: used.join(' | '), terms: used };
}

// The query's lexemes, each with the share of files whose contents hold it (pg_stats keeps the
// most common elements of the contents vectors and their frequencies).
const termsSql = `
SELECT q.lexeme, c.share FROM unnest(to_tsvector('english', search_words($1))) AS q
  LEFT JOIN (
    SELECT e AS lexeme, max(f) AS share
      FROM pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS x(e, f)
     WHERE s.schemaname = current_schema() AND s.tablename = 'resource_search_index' AND s.attname = 'contents_vector' AND e IS NOT NULL
     GROUP BY e
  ) c ON c.lexeme = q.lexeme`;

export function toHit(row: HitRow): SearchHit {
  const library: Library = libraryFromKey(row.library_kind, row.library_key);
  const base = { library: formatLibrary(library), path: row.path, title: row.title, description: row.description, snippet: row.snippet, score: Number(row.score) };
  if (row.kind === 'folder') {
    return { kind: 'folder', id: `${FOLDER_ID_PREFIX}${formatLibraryPath(library, row.path)}`, ...base, file_count: row.file_count ?? 0, types: row.types ?? [], names: row.names ?? [] };
  }
  return {
    kind: 'resource',
    id: row.id,
    ...base,
    reference: referenceOf(row.id),
    uri: canonicalUri(library, row.path, row.file_name),
    file_name: row.file_name,
    content_type: row.content_type,
    size: Number(row.size ?? 0),
    updated_at: (row.updated_at ?? new Date(0)).toISOString(),
  };
}

/**
 * Where a person opens the hit: the portal's page of the resource or folder under
 * `portal.public_base_url` (document 2, "Portal addresses"); without one, the resource's canonical
 * `mcp://` URI or the folder's `<library>/<path>`.
 */
export function hitUrl(hit: SearchHit, publicBaseUrl: string | undefined): string {
  const folderPath = hit.kind === 'folder' ? hit.id.slice(FOLDER_ID_PREFIX.length) : '';
  if (!publicBaseUrl) return hit.kind === 'resource' ? hit.uri : folderPath;
  const base = publicBaseUrl.replace(/\/+$/, '');
  return hit.kind === 'resource' ? `${base}/portal/resources/${encodeURIComponent(hit.id)}` : `${base}/portal/resources/lib/${folderPath}`;
}

// $1 query text, $2/$3 the scope's library kinds and keys, $4 limit + 1, $5 offset, $6 the contents'
// tsquery and $7 its words one by one (contentsQuery), $8 how many in-scope contents matches are
// ranked at most (CONTENTS_RANK_CAP) and $9 how many of them, and of the metadata matches, are
// scored in full (shortlistSize).
// The candidates are the scope's files matching through the GIN indexes (metadata, folder
// descriptions, contents, name trigrams); the search setting and the ranking apply to them.
// Snippets are drawn for the page only.
const lexicalSql = `
WITH scope AS (SELECT * FROM unnest($2::text[], $3::text[]) AS s(kind, key)),
-- Metadata matches in scope, the best $9 by their metadata rank (metadata vectors are small and
-- stored inline: ranking them all is cheap; scoring them all in full was not).
metadata_matches AS MATERIALIZED (
  SELECT r.id FROM resources r JOIN scope s ON s.kind = r.library_kind AND s.key = r.library_key
   WHERE r.search_vector @@ search_query($1) AND r.search_setting <> 'not_indexed'
   ORDER BY ts_rank(r.search_vector, search_query($1)) DESC, r.id LIMIT $9
),
-- In-scope contents matches, each with how many of the query's words it holds, found word by word
-- through the GIN index (no contents vector is read to do so; the index row carries its library).
contents_words AS MATERIALIZED (
  -- (Grouped bytewise, "C": sorting thousands of ids by the database's collation was a third of it.)
  SELECT (m.resource_id COLLATE "C") COLLATE "default" AS resource_id, count(*) AS words, max(m.indexed_at) AS indexed_at
    FROM unnest($7::text[]) AS t(term)
    CROSS JOIN LATERAL (
      SELECT resource_id, indexed_at FROM resource_search_index
       WHERE contents_vector @@ t.term::tsquery AND (library_kind, library_key) IN (SELECT kind, key FROM scope)
    ) AS m
   GROUP BY m.resource_id COLLATE "C"
),
-- A contents vector is large (read from TOAST, ~10 µs each): at most $8 matches are ranked on their
-- contents — those holding the most words, then the most recently indexed — and only the best $9
-- of them go on to the full score.
contents_ranked AS (
  SELECT i.resource_id, ts_rank(i.contents_vector, $6::tsquery) AS contents_rank FROM (
    SELECT resource_id FROM contents_words ORDER BY words DESC, indexed_at DESC, resource_id LIMIT $8
  ) AS pre
  JOIN resource_search_index i ON i.resource_id = pre.resource_id
  JOIN resources r ON r.id = pre.resource_id
  -- Contents indexed before the file was switched to Details only do not count until it is re-indexed.
  WHERE NOT (r.search_setting = 'details_only' AND i.mode = 'contents')
  ORDER BY contents_rank DESC, i.resource_id LIMIT $9
),
-- Folders whose description matches, with its rank (a file's folder that does not match adds nothing).
folder_matches AS MATERIALIZED (
  SELECT library_kind, library_key, path, ts_rank(search_vector, search_query($1)) AS folder_rank FROM resource_folders WHERE search_vector @@ search_query($1)
),
-- In-scope names the query resembles (trigrams), the $9 most alike: only they get the similarity's bonus.
name_matches AS MATERIALIZED (
  SELECT r.id, word_similarity($1, r.display_name || ' ' || r.file_name) AS similarity
    FROM resources r JOIN scope s ON s.kind = r.library_kind AND s.key = r.library_key
   WHERE $1 <% (r.display_name || ' ' || r.file_name)
   ORDER BY similarity DESC, r.id LIMIT $9
),
candidates AS (
  -- Each candidate once, with the rank of its contents when they matched (a contents vector is
  -- large, read from TOAST: it is read once, for the ranking).
  SELECT id, max(contents_rank) AS contents_rank FROM (
    SELECT m.id, NULL::real AS contents_rank FROM metadata_matches m
    UNION ALL
    SELECT resource_id, contents_rank FROM contents_ranked
    UNION ALL
    SELECT r.id, NULL FROM folder_matches f JOIN resources r ON r.library_kind = f.library_kind AND r.library_key = f.library_key AND r.folder_path = f.path
    UNION ALL
    SELECT m.id, NULL FROM name_matches m
  ) AS any_match GROUP BY id
),
resource_hits AS (
  SELECT 'resource'::text AS kind, r.id, r.library_kind, r.library_key, r.folder_path AS path, r.display_name AS title, r.file_name,
         r.description, r.content_type, r.size, r.updated_at, NULL::integer AS file_count, NULL::text[] AS types, NULL::text[] AS names,
         ts_rank(r.search_vector, search_query($1)) + coalesce(f.folder_rank, 0) + coalesce(c.contents_rank, 0) + 0.5 * coalesce(n.similarity, 0) AS score,
         c.contents_rank IS NOT NULL AS contents_match
    FROM candidates c
    JOIN resources r ON r.id = c.id
    JOIN scope s ON s.kind = r.library_kind AND s.key = r.library_key
    LEFT JOIN resource_search_index i ON i.resource_id = r.id
    LEFT JOIN folder_matches f ON f.library_kind = r.library_kind AND f.library_key = r.library_key AND f.path = r.folder_path
    LEFT JOIN name_matches n ON n.id = r.id
   WHERE r.search_setting <> 'not_indexed'
     AND NOT (r.search_setting = 'default' AND i.mode IS NOT DISTINCT FROM 'not_indexed')
),
folder_hits AS (
  SELECT 'folder'::text AS kind, NULL::text AS id, e.library_kind, e.library_key, e.path, e.path AS title, ''::text AS file_name,
         e.description, ''::text AS content_type, NULL::bigint AS size, NULL::timestamptz AS updated_at, e.file_count, e.types, e.names,
         ts_rank(e.search_vector, search_query($1)) + 0.5 * word_similarity($1, e.path) AS score,
         false AS contents_match
    FROM resource_search_folders e
    JOIN scope s ON s.kind = e.library_kind AND s.key = e.library_key
   WHERE e.search_vector @@ search_query($1) OR $1 <% e.path
),
ranked AS (
  SELECT * FROM resource_hits UNION ALL SELECT * FROM folder_hits
  ORDER BY score DESC, kind DESC, library_kind, library_key, path, title, id
  LIMIT $4 OFFSET $5
)
SELECT h.kind, h.id, h.library_kind, h.library_key, h.path, h.title, h.file_name, h.description, h.content_type, h.size, h.updated_at,
       h.file_count, h.types, h.names, h.score,
       CASE WHEN h.contents_match THEN ts_headline('english', i.contents, search_query($1), 'MaxFragments=1, MaxWords=35, MinWords=15, StartSel="", StopSel=""')
            WHEN h.description <> '' THEN ts_headline('english', h.description, search_query($1), 'MaxFragments=1, MaxWords=35, MinWords=15, StartSel="", StopSel=""')
            WHEN h.kind = 'folder' THEN array_to_string(h.names, ', ')
            ELSE left(coalesce(i.contents, ''), 200) END AS snippet
  FROM ranked h
  LEFT JOIN resource_search_index i ON h.kind = 'resource' AND i.resource_id = h.id
 ORDER BY h.score DESC, h.kind DESC, h.library_kind, h.library_key, h.path, h.title, h.id`;
