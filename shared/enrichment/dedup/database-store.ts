import type { Db } from '../../db/index.js';
import type { DedupLimits, DedupStore, SentEntry } from './types.js';

export interface DatabaseDedupOptions {
  /** Tables remembered per session at most; past that the ones sent longest ago are forgotten. Default 256. */
  maxEntriesPerSession?: number;
}

/**
 * Sent tables beside the MCP session row (`sessions.store: database`, migration 0025): any api
 * replica serving the session sees what the others sent. One round trip per mark (the function
 * `mcp_session_dedup_mark`); rows go with the session row when it ends or expires. Times are
 * the caller's clock (`now`), so replicas with an injected clock agree in tests; a few seconds of
 * skew between real replicas only shifts entry_ttl by as much. `renew` (what else a block that went
 * out carried) is plain SQL: an upsert, then the same pruning as a mark. Migration 0025's
 * `reference` column (and the function's `p_reference`) is left NULL: no call reference exists
 * when a block is attached.
 */
export class DatabaseDedupStore implements DedupStore {
  readonly #maxEntries: number;

  constructor(
    private readonly db: Db,
    options: DatabaseDedupOptions = {},
  ) {
    this.#maxEntries = options.maxEntriesPerSession ?? 256;
  }

  async mark(sessionId: string, key: string, now: number, limits: DedupLimits): Promise<SentEntry | undefined> {
    const { rows } = await this.db.query<{ sent_ms: number }>(
      'SELECT sent_ms FROM mcp_session_dedup_mark($1, $2, $3, NULL, $4, $5, $6)',
      [sessionId, key, now, limits.entryTtlMs, limits.sessionTimeoutMs, this.#maxEntries],
    );
    const row = rows[0];
    return row && { sentAt: Math.round(row.sent_ms) };
  }

  async renew(sessionId: string, keys: readonly string[], now: number, limits: DedupLimits): Promise<void> {
    // Only for a session that still exists (the row's foreign key); then the same bounds as a mark.
    // Rows are taken in key order: two calls of one session listing shared tables in opposite
    // orders would otherwise each hold a row the other waits for (a deadlock).
    await this.db.query(
      `INSERT INTO mcp_session_dedup AS d (session_id, table_key, sent_at, used_at)
       SELECT $1, k, to_timestamp($3::double precision / 1000), to_timestamp($3::double precision / 1000)
         FROM unnest($2::text[]) AS k
        WHERE EXISTS (SELECT 1 FROM mcp_sessions s WHERE s.id = $1)
       ON CONFLICT (session_id, table_key) DO UPDATE
          SET sent_at = EXCLUDED.sent_at, used_at = greatest(d.used_at, EXCLUDED.used_at)`,
      [sessionId, [...new Set(keys)].sort(), now],
    );
    await this.db.query(
      `DELETE FROM mcp_session_dedup d
        WHERE d.session_id = $1
          AND (d.sent_at <= to_timestamp(($2::double precision - $3::double precision) / 1000)
               OR d.table_key IN (SELECT k.table_key FROM mcp_session_dedup k WHERE k.session_id = $1
                                   ORDER BY k.sent_at DESC, k.table_key OFFSET $4))`,
      [sessionId, now, limits.entryTtlMs, this.#maxEntries],
    );
  }

  async forget(sessionId: string): Promise<void> {
    await this.db.query('DELETE FROM mcp_session_dedup WHERE session_id = $1', [sessionId]);
  }
}
