/**
 * Failed-request records (spec document 3, "Failed-request record"): a request that failed
 * (500, 503, 504) is kept seven days with its status, the script's error and the duration,
 * listed by endpoint_list and the portal; housekeeping purges older ones.
 */
import { uuidv7 } from '../crypto/index.js';
import type { Db } from '../db/index.js';
import { BINDING_LIMITS, type EndpointFailureView } from './types.js';

export interface EndpointFailure {
  endpoint: string;
  scriptId?: string;
  version?: number;
  method: string;
  status: number;
  error: string;
  durationMs: number;
  sessionId: string;
  occurredAt: Date;
}

export async function recordEndpointFailure(db: Db, failure: EndpointFailure): Promise<void> {
  await db.query(
    `INSERT INTO endpoint_failures (id, endpoint, script_id, version, method, status, error, duration_ms, session_id, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      uuidv7(),
      failure.endpoint,
      failure.scriptId ?? null,
      failure.version ?? null,
      failure.method,
      failure.status,
      failure.error,
      Math.round(failure.durationMs),
      failure.sessionId,
      failure.occurredAt,
    ],
  );
}

/** The endpoint's failed requests of the retention window, newest first. */
export async function listEndpointFailures(db: Db, endpoint: string, opts: { limit: number; now: Date }): Promise<EndpointFailureView[]> {
  const { rows } = await db.query<Omit<EndpointFailureView, 'occurred_at'> & { occurred_at: Date }>(
    `SELECT id, endpoint, script_id, version, method, status, error, duration_ms, session_id, occurred_at
       FROM endpoint_failures
      WHERE endpoint = $1 AND occurred_at > $2
      ORDER BY occurred_at DESC, id DESC
      LIMIT $3`,
    [endpoint, retentionCutoff(opts.now), opts.limit],
  );
  return rows.map((r) => ({ ...r, occurred_at: r.occurred_at.toISOString() }));
}

export function retentionCutoff(now: Date): Date {
  return new Date(now.getTime() - BINDING_LIMITS.failureRetentionDays * 24 * 60 * 60 * 1000);
}

/** Housekeeping: removes failed requests older than the retention; answers how many. */
export async function purgeEndpointFailures(db: Db, now: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM endpoint_failures WHERE occurred_at <= $1', [retentionCutoff(now)]);
  return rowCount ?? 0;
}
