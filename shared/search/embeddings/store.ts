/**
 * Vectors of managed resources (migrations/0022, `resource_embeddings`): what one resource is
 * embedded as, embedding it, and whether the store exists at all (pgvector was available when the
 * migration ran).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/index.js';
import type { Logger } from '../../logging/index.js';
import { createEmbedder, type Embedder, type EmbedderDeps, type EmbeddingsConfig } from './client.js';

/** Characters of text embedded per resource: metadata first, then the indexed contents prefix (about 2,000 tokens). */
export const MAX_EMBEDDED_CHARS = 8_000;

export type EmbedOutcome =
  | { status: 'embedded'; resourceId: string; model: string; chars: number }
  | { status: 'unchanged'; resourceId: string; model: string }
  | { status: 'removed'; resourceId: string }
  | { status: 'gone'; resourceId: string }
  | { status: 'off'; resourceId: string };

interface EmbedSource {
  display_name: string;
  file_name: string;
  tags: string[];
  description: string;
  folder_path: string;
  head_version: number;
  search_setting: string;
  mode: string | null;
  contents: string | null;
  text_sha256: string | null;
}

/** The text a resource is embedded as: names, tags, description, folder, then its indexed contents (Details only and metadata modes: none). */
export function embeddingText(source: Pick<EmbedSource, 'display_name' | 'file_name' | 'tags' | 'description' | 'folder_path' | 'mode' | 'contents'>): string {
  const lines = [
    source.display_name,
    source.file_name,
    source.tags.length > 0 ? `Tags: ${source.tags.join(', ')}` : '',
    source.description,
    source.folder_path ? `Folder: ${source.folder_path}` : '',
    source.mode === 'contents' || source.mode === 'details' ? (source.contents ?? '') : '',
  ];
  return lines.filter((l) => l.trim() !== '').join('\n').slice(0, MAX_EMBEDDED_CHARS);
}

/**
 * Embeds one resource's latest state (the indexResource workflow's activity, after indexing):
 * its metadata and indexed contents prefix, stored with the model's name. A resource that is not
 * indexed loses its vector; the same text embedded by the same model is left as it is.
 */
export async function embedResource(deps: { db: Db; embedder: Embedder | undefined }, resourceId: string, at: Date): Promise<EmbedOutcome> {
  const { db, embedder } = deps;
  if (!embedder) return { status: 'off', resourceId };
  const res = await db.query<EmbedSource>(
    `SELECT r.display_name, r.file_name, r.tags, r.description, r.folder_path, r.head_version, r.search_setting, i.mode, i.contents, e.text_sha256
       FROM resources r
       LEFT JOIN resource_search_index i ON i.resource_id = r.id
       LEFT JOIN resource_embeddings e ON e.resource_id = r.id AND e.model = $2
      WHERE r.id = $1`,
    [resourceId, embedder.model],
  );
  const source = res.rows[0];
  if (!source) return { status: 'gone', resourceId };
  if (source.search_setting === 'not_indexed' || source.mode === 'not_indexed') {
    await db.query(`DELETE FROM resource_embeddings WHERE resource_id = $1`, [resourceId]);
    return { status: 'removed', resourceId };
  }
  const text = embeddingText(source);
  const sha = createHash('sha256').update(text).digest('hex');
  if (sha === source.text_sha256) return { status: 'unchanged', resourceId, model: embedder.model };
  const [vector] = await embedder.embed([text]);
  // Only while the resource exists: a delete that committed meanwhile took its rows away (cascade).
  await db.query(
    `INSERT INTO resource_embeddings (resource_id, model, embedded_version, text_sha256, mode, embedding, embedded_at)
     SELECT id, $2, $3, $4, $5, $6::vector, $7 FROM resources WHERE id = $1
     ON CONFLICT (resource_id, model) DO UPDATE
       SET embedded_version = EXCLUDED.embedded_version, text_sha256 = EXCLUDED.text_sha256, mode = EXCLUDED.mode,
           embedding = EXCLUDED.embedding, embedded_at = EXCLUDED.embedded_at`,
    [resourceId, embedder.model, source.head_version, sha, source.mode ?? 'metadata', vectorLiteral(vector!), at],
  ).catch((error: unknown) => {
    if ((error as { code?: string }).code !== '23503') throw error;
  });
  return { status: 'embedded', resourceId, model: embedder.model, chars: text.length };
}

/** Indexed resources with no vector of `model`, or one of an older version than their head (for the sweep). */
export async function unembeddedResources(db: Db, model: string, limit: number): Promise<string[]> {
  const res = await db.query<{ id: string }>(
    `SELECT r.id FROM resources r
       LEFT JOIN resource_embeddings e ON e.resource_id = r.id AND e.model = $1
       LEFT JOIN resource_search_index i ON i.resource_id = r.id
      WHERE r.search_setting <> 'not_indexed' AND i.mode IS DISTINCT FROM 'not_indexed'
        AND (e.resource_id IS NULL OR e.embedded_version <> r.head_version)
      ORDER BY r.updated_at, r.id LIMIT $2`,
    [model, limit],
  );
  return res.rows.map((r) => r.id);
}

/** pgvector's text form of a vector: `[0.1,0.2]`. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

/** Whether the vector table exists (the migration creates it only where pgvector was available). */
export async function vectorStoreExists(db: Db): Promise<boolean> {
  const res = await db.query<{ ok: boolean }>(`SELECT to_regclass('resource_embeddings') IS NOT NULL AS ok`);
  return res.rows[0]?.ok === true;
}

/**
 * The embedder semantic search uses, or undefined (lexical only): said once in the log, at
 * startup, with the reason. Needs a provider (resources.search.embeddings) and the vector store.
 */
export async function openEmbeddings(config: EmbeddingsConfig, db: Db, log: Logger, deps: EmbedderDeps = {}): Promise<Embedder | undefined> {
  const embedder = createEmbedder(config, deps);
  if (!embedder) {
    log.info('search is lexical only: no embedding provider is configured (resources.search.embeddings.provider is none)');
    return undefined;
  }
  if (!(await vectorStoreExists(db))) {
    log.warn({ provider: embedder.provider, model: embedder.model }, 'search is lexical only: the database has no pgvector extension (install it, e.g. postgresql-15-pgvector, before migration 0022)');
    return undefined;
  }
  log.info({ provider: embedder.provider, model: embedder.model }, 'semantic search on: resources are embedded and ranked by meaning beside the lexical ranking');
  return embedder;
}
