/**
 * The rows of search indexing (migrations/0021): what the indexer recorded per resource, the write
 * origin of a version, and the resources whose record lags their head or the rules (for the sweep).
 */
import type { Db } from '../db/index.js';
import type { WriteOrigin } from '../resources/index.js';
import type { IndexMode } from './rules.js';

/** Characters of extracted text kept per resource (the "bounded prefix" of document 2): 64 Ki. */
export const MAX_INDEXED_CHARS = 65_536;

export interface IndexRecord {
  resourceId: string;
  version: number;
  mode: IndexMode;
  /** Text indexed beside the metadata (at most MAX_INDEXED_CHARS; '' for metadata only). */
  contents: string;
  at: Date;
  /** The rules the mode was decided under (rulesFingerprint). */
  rules: string;
}

/** The origin of a version's write (resource_versions.origin); undefined when it was not recorded. */
export async function versionOrigin(db: Db, resourceId: string, version: number): Promise<WriteOrigin | undefined> {
  const res = await db.query<{ origin: WriteOrigin | null }>(`SELECT origin FROM resource_versions WHERE resource_id = $1 AND version = $2`, [resourceId, version]);
  return res.rows[0]?.origin ?? undefined;
}

/** What the indexer last recorded for the resource, if anything. */
export async function indexedState(db: Db, resourceId: string): Promise<{ version: number; mode: IndexMode; rules: string | null } | undefined> {
  const res = await db.query<{ indexed_version: number; mode: IndexMode; rules_fingerprint: string | null }>(
    `SELECT indexed_version, mode, rules_fingerprint FROM resource_search_index WHERE resource_id = $1`,
    [resourceId],
  );
  const row = res.rows[0];
  return row ? { version: row.indexed_version, mode: row.mode, rules: row.rules_fingerprint } : undefined;
}

/** Notes that the recorded mode is also what `rules` decide (nothing else changes). */
export async function confirmRules(db: Db, resourceId: string, rules: string): Promise<void> {
  await db.query(`UPDATE resource_search_index SET rules_fingerprint = $2 WHERE resource_id = $1`, [resourceId, rules]);
}

/**
 * Records (or replaces) the resource's index row. Returns false when the resource is gone: a
 * delete that committed meanwhile took its row away (ON DELETE CASCADE) and no new one may appear.
 */
export async function recordIndex(db: Db, record: IndexRecord): Promise<boolean> {
  const res = await db
    .query(
    `INSERT INTO resource_search_index (resource_id, indexed_version, mode, contents, indexed_at, rules_fingerprint, library_kind, library_key)
     SELECT id, $2, $3, $4, $5, $6, library_kind, library_key FROM resources WHERE id = $1
     ON CONFLICT (resource_id) DO UPDATE
       SET indexed_version = EXCLUDED.indexed_version, mode = EXCLUDED.mode, contents = EXCLUDED.contents, indexed_at = EXCLUDED.indexed_at,
           rules_fingerprint = EXCLUDED.rules_fingerprint, library_kind = EXCLUDED.library_kind, library_key = EXCLUDED.library_key`,
    [record.resourceId, record.version, record.mode, record.contents, record.at, record.rules],
    )
    // Deleted between the SELECT and the foreign-key check.
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '23503') return undefined;
      throw error;
    });
  return (res?.rowCount ?? 0) > 0;
}

/**
 * Resources never indexed, indexed at an older version than their head, or decided under other
 * rules than `rules` (a fingerprint): oldest change first.
 */
export async function laggingResources(db: Db, limit: number, rules: string): Promise<string[]> {
  const res = await db.query<{ id: string }>(
    `SELECT r.id FROM resources r LEFT JOIN resource_search_index i ON i.resource_id = r.id
      WHERE i.resource_id IS NULL OR i.indexed_version <> r.head_version OR i.rules_fingerprint IS DISTINCT FROM $2
      ORDER BY r.updated_at, r.id LIMIT $1`,
    [limit, rules],
  );
  return res.rows.map((r) => r.id);
}
