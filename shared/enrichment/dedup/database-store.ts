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
 * skew between real replicas only shifts entry_ttl by as much.
 */
export class DatabaseDedupStore implements DedupStore {
  readonly #maxEntries: number;

  constructor(
    private readonly db: Db,
    options: DatabaseDedupOptions = {},
  ) {
    this.#maxEntries = options.maxEntriesPerSession ?? 256;
  }

  async mark(sessionId: string, key: string, now: number, reference: string | null, limits: DedupLimits): Promise<SentEntry | undefined> {
    const { rows } = await this.db.query<{ sent_ms: number; sent_reference: string | null }>(
      'SELECT sent_ms, sent_reference FROM mcp_session_dedup_mark($1, $2, $3, $4, $5, $6, $7)',
      [sessionId, key, now, reference, limits.entryTtlMs, limits.sessionTimeoutMs, this.#maxEntries],
    );
    const row = rows[0];
    return row && { sentAt: Math.round(row.sent_ms), reference: row.sent_reference };
  }

  async renew(sessionId: string, keys: readonly string[], now: number, reference: string | null): Promise<void> {
    await this.db.query(
      `UPDATE mcp_session_dedup SET sent_at = to_timestamp($3::double precision / 1000), used_at = greatest(used_at, to_timestamp($3::double precision / 1000)), reference = $4
        WHERE session_id = $1 AND table_key = ANY($2::text[])`,
      [sessionId, keys, now, reference],
    );
  }

  async forget(sessionId: string): Promise<void> {
    await this.db.query('DELETE FROM mcp_session_dedup WHERE session_id = $1', [sessionId]);
  }
}
