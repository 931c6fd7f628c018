import { withTransaction, type Db } from '../../../shared/db/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StreamArchive, StreamEvent } from './outbound-stream.js';

/**
 * Dropped streams of database sessions, in the platform database (migration 0006): written by
 * the replica that runs the request, read by whichever replica the client resumes on.
 */
export class DatabaseStreamArchive implements StreamArchive {
  constructor(private readonly db: Db) {}

  async save(sessionId: string, streamId: string, events: readonly StreamEvent[], final: boolean): Promise<void> {
    await withTransaction(this.db, async (client) => {
      // The session may have ended meanwhile (DELETE, expiry): then there is nothing to resume.
      const { rowCount } = await client.query(
        `INSERT INTO mcp_streams (session_id, stream_id, finished)
         SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM mcp_sessions WHERE id = $1)
         ON CONFLICT (session_id, stream_id) DO UPDATE SET finished = mcp_streams.finished OR $3, updated_at = now()`,
        [sessionId, streamId, final],
      );
      if (rowCount === 0 || events.length === 0) return;
      await client.query(
        `INSERT INTO mcp_stream_events (session_id, stream_id, seq, message)
         SELECT $1, $2, e.seq, e.message FROM jsonb_to_recordset($3::jsonb) AS e(seq integer, message jsonb)
         ON CONFLICT DO NOTHING`,
        [sessionId, streamId, JSON.stringify(events)],
      );
    });
  }

  async replay(sessionId: string, streamId: string, afterSeq: number): Promise<{ events: StreamEvent[]; final: boolean } | undefined> {
    const stream = await this.db.query<{ finished: boolean }>('SELECT finished FROM mcp_streams WHERE session_id = $1 AND stream_id = $2', [
      sessionId,
      streamId,
    ]);
    const row = stream.rows[0];
    if (!row) return undefined;
    const { rows } = await this.db.query<{ seq: number; message: JSONRPCMessage }>(
      'SELECT seq, message FROM mcp_stream_events WHERE session_id = $1 AND stream_id = $2 AND seq > $3 ORDER BY seq',
      [sessionId, streamId, afterSeq],
    );
    return { events: rows, final: row.finished };
  }

  /** Forgets streams last written more than `ttlMs` ago (their events go with them). */
  async prune(ttlMs: number): Promise<number> {
    const { rowCount } = await this.db.query(`DELETE FROM mcp_streams WHERE updated_at < now() - $1::bigint * interval '1 millisecond'`, [ttlMs]);
    return rowCount ?? 0;
  }
}
