/**
 * Search with meaning (resources.search.embeddings): the resources nearest to the query's vector,
 * and the search entry point that fuses them with the lexical hits by reciprocal rank fusion.
 * Without an embedder (no provider, or no pgvector) it is the lexical search alone. Scoping and
 * the search settings are the lexical search's: the caller's readable libraries only, nothing Not
 * indexed, and no match by contents on a file switched to Details only until it is embedded again.
 */
import type { Db } from '../db/index.js';
import { libraryKey, type Library } from '../resources/index.js';
import { vectorLiteral, type Embedder } from './embeddings/index.js';
import { fuseRankings } from './hybrid-fusion.js';
import { DEFAULT_SEARCH_LIMIT, MAX_QUERY_CHARS, MAX_SEARCH_LIMIT, searchLexical, toHit, type HitRow, type ResourceHit, type SearchHit, type SearchPage } from './lexical.js';

/** Deepest rank either list is read to for one page (offset + limit + 1, at most this). */
export const MAX_FUSION_DEPTH = 1_000;

export interface SearchDeps {
  db: Db;
  /** Absent: lexical only. */
  embedder?: Embedder;
  /** Where a failing provider is reported (the page is then answered lexically): a pino or Fastify logger. */
  log?: { warn(details: Record<string, unknown>, message: string): void };
}

/** The resources of `scope` nearest in meaning to `query`, nearest first (score: cosine similarity). */
export async function semanticRanking(db: Db, embedder: Embedder, scope: readonly Library[], query: string, limit: number): Promise<ResourceHit[]> {
  const text = query.trim().slice(0, MAX_QUERY_CHARS);
  if (text === '' || scope.length === 0 || limit <= 0) return [];
  const [vector] = await embedder.embed([text]);
  const keys = scope.map((l) => libraryKey(l));
  const res = await db.query<HitRow>(semanticSql, [vectorLiteral(vector!), keys.map((k) => k.kind), keys.map((k) => k.key), embedder.model, vector!.length, limit]);
  return res.rows.map((row) => toHit(row) as ResourceHit);
}

/**
 * One page of search: lexical, fused with the semantic ranking when an embedder is configured.
 * Both lists are read to the page's depth; a hit found by both keeps the lexical snippet.
 */
export async function searchResources(deps: SearchDeps, scope: readonly Library[], query: string, page: { limit?: number; offset?: number } = {}): Promise<SearchPage> {
  if (!deps.embedder) return searchLexical(deps.db, scope, query, page);
  const limit = Math.min(Math.max(1, Math.trunc(page.limit ?? DEFAULT_SEARCH_LIMIT)), MAX_SEARCH_LIMIT);
  const offset = Math.max(0, Math.trunc(page.offset ?? 0));
  const depth = Math.min(offset + limit + 1, MAX_FUSION_DEPTH);
  const lexical = await lexicalDepth(deps.db, scope, query, depth);
  let semantic: ResourceHit[];
  try {
    semantic = await semanticRanking(deps.db, deps.embedder, scope, query, depth);
  } catch (error) {
    deps.log?.warn({ err: (error as Error).message, model: deps.embedder.model }, 'semantic ranking failed; answering lexically');
    return searchLexical(deps.db, scope, query, page);
  }
  const hits = new Map<string, SearchHit>();
  for (const hit of [...semantic, ...lexical]) hits.set(hit.id, hit);
  const fused = fuseRankings([lexical.map((h) => h.id), semantic.map((h) => h.id)]);
  return {
    hits: fused.slice(offset, offset + limit).map(({ id, score }) => ({ ...hits.get(id)!, score })),
    more: fused.length > offset + limit,
  };
}

/** The first `depth` lexical hits, read page by page. */
async function lexicalDepth(db: Db, scope: readonly Library[], query: string, depth: number): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  for (let more = true; more && hits.length < depth; ) {
    const next = await searchLexical(db, scope, query, { limit: Math.min(MAX_SEARCH_LIMIT, depth - hits.length), offset: hits.length });
    hits.push(...next.hits);
    more = next.more;
  }
  return hits;
}

// $1 the query's vector, $2/$3 the scope's library kinds and keys, $4 the model, $5 its dimensions, $6 limit.
// An exact scan of the scope's vectors: the column has no fixed dimension (any model fits), so no
// approximate index applies. Snippets are drawn for the nearest rows only (contents are TOASTed).
const semanticSql = `
WITH scope AS (SELECT * FROM unnest($2::text[], $3::text[]) AS s(kind, key)),
nearest AS (
  SELECT e.resource_id, e.embedding <=> $1::vector AS distance
    FROM resource_embeddings e
    JOIN resources r ON r.id = e.resource_id
    JOIN scope s ON s.kind = r.library_kind AND s.key = r.library_key
    LEFT JOIN resource_search_index i ON i.resource_id = r.id
   WHERE e.model = $4 AND vector_dims(e.embedding) = $5
     AND r.search_setting <> 'not_indexed'
     AND NOT (r.search_setting = 'default' AND i.mode IS NOT DISTINCT FROM 'not_indexed')
     AND NOT (r.search_setting = 'details_only' AND e.mode = 'contents')
   ORDER BY distance, e.resource_id
   LIMIT $6
)
SELECT 'resource'::text AS kind, r.id, r.library_kind, r.library_key, r.folder_path AS path, r.display_name AS title, r.file_name,
       r.description, r.content_type, r.size, r.updated_at, NULL::integer AS file_count, NULL::text[] AS types, NULL::text[] AS names,
       CASE WHEN r.description <> '' THEN left(r.description, 200) ELSE left(coalesce(i.contents, ''), 200) END AS snippet,
       1 - n.distance AS score
  FROM nearest n
  JOIN resources r ON r.id = n.resource_id
  LEFT JOIN resource_search_index i ON i.resource_id = r.id
 ORDER BY n.distance, n.resource_id`;
