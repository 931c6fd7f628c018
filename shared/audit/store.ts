/** SQL of the `audit_log` table (migrations/0003_audit_log.sql, 0009): batched insert and batched retention. */
import type { Pool } from 'pg';
import type { AuditRow } from './entry.js';

export type Queryable = Pick<Pool, 'query'>;

const columns = [
  'id',
  'occurred_at',
  'subject',
  'email',
  'auth_type',
  'persona',
  'tool',
  'parameters',
  'duration_ms',
  'outcome',
  'error_text',
  'session_id',
  'resource_id',
] as const;
const types: Record<(typeof columns)[number], string> = {
  id: 'uuid',
  occurred_at: 'timestamptz',
  subject: 'text',
  email: 'text',
  auth_type: 'text',
  persona: 'text',
  tool: 'text',
  parameters: 'jsonb',
  duration_ms: 'integer',
  outcome: 'text',
  error_text: 'text',
  session_id: 'text',
  resource_id: 'text',
};

/** Rows per statement: a batch is one JSON document, kept to a size the writer's memory bound expects. */
export const MAX_ROWS_PER_INSERT = 1000;

/** A text column's JSON: the string quoted and escaped, or null. */
const text = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));

/**
 * The batch as one JSON array of row objects. `parameters` is already JSON text (parametersJson)
 * and goes in as the value it is; every other field is a string, number or null. Each row is one
 * template (a map and join per field cost a third of building a row on the api's thread).
 */
function rowsDocument(rows: readonly AuditRow[]): string {
  let document = '[';
  for (let i = 0; i < rows.length; i++) {
    const [id, occurredAt, subject, email, authType, persona, tool, parameters, durationMs, outcome, errorText, sessionId, resourceId] = rows[i]!;
    if (i > 0) document += ',';
    // An ISO timestamp and an integer need no escaping.
    document +=
      `{"id":${text(id)},"occurred_at":"${occurredAt.toISOString()}","subject":${text(subject)},"email":${text(email)},"auth_type":${text(authType)},` +
      `"persona":${text(persona)},"tool":${text(tool)},"parameters":${parameters},"duration_ms":${JSON.stringify(durationMs)},"outcome":${text(outcome)},` +
      `"error_text":${text(errorText)},"session_id":${text(sessionId)},"resource_id":${text(resourceId)}}`;
  }
  return `${document}]`;
}

// One statement text for every batch size: each connection prepares it once, and the batch is a
// single parameter (building 13 bound values per row cost more than the rest of a row's shaping).
const insertStatement = `INSERT INTO audit_log (${columns.join(', ')})
  SELECT ${columns.join(', ')} FROM json_to_recordset($1::json) AS r(${columns.map((c) => `${c} ${types[c]}`).join(', ')})
  ON CONFLICT (id) DO NOTHING`;

/**
 * One INSERT of many rows. `ON CONFLICT (id) DO NOTHING` makes a retry safe when the first attempt
 * did commit but its answer was lost (the ids are fixed when the row is built).
 */
export async function insertAuditRows(db: Queryable, rows: readonly AuditRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  if (rows.length > MAX_ROWS_PER_INSERT) throw new Error(`at most ${MAX_ROWS_PER_INSERT} audit rows per insert, got ${rows.length}`);
  const res = await db.query({ name: 'audit-log-insert', text: insertStatement, values: [rowsDocument(rows)] });
  return res.rowCount ?? 0;
}

export interface PurgeAuditLogOptions {
  /** `audit.retention_days`: rows whose occurred_at is older than this many days go. */
  retentionDays: number;
  /** Rows per DELETE statement (default 10,000): short statements, short locks, small WAL bursts. */
  batchSize?: number;
  /**
   * Statements per call (default 100, i.e. up to a million rows): a huge backlog is worked off over
   * several housekeeping runs instead of one activity outliving its timeout.
   */
  maxBatches?: number;
}

export interface PurgeAuditLogResult {
  removed: number;
  /** True when maxBatches stopped the pass with old rows possibly left. */
  more: boolean;
}

/**
 * Deletes audit rows older than the retention window, oldest first, in batches until a batch
 * comes back short. The cutoff is read once from the database clock so every replica agrees and
 * rows written during the pass are never in scope.
 */
export async function purgeAuditLog(db: Queryable, opts: PurgeAuditLogOptions): Promise<PurgeAuditLogResult> {
  const { retentionDays } = opts;
  const batchSize = opts.batchSize ?? 10_000;
  const maxBatches = opts.maxBatches ?? 100;
  for (const [what, n] of [
    ['audit.retention_days', retentionDays],
    ['batchSize', batchSize],
    ['maxBatches', maxBatches],
  ] as const) {
    // Zero or garbage would delete live rows (or loop forever): fail closed.
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`${what} must be a positive integer, got ${String(n)}`);
  }
  // As text, so the microseconds survive the round trip (a JS Date keeps milliseconds only).
  const { rows } = await db.query<{ cutoff: string }>(`SELECT (now() - make_interval(days => $1::integer))::text AS cutoff`, [retentionDays]);
  const cutoff = rows[0]!.cutoff;
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const res = await db.query(
      `DELETE FROM audit_log
        WHERE id IN (SELECT id FROM audit_log WHERE occurred_at < $1::timestamptz ORDER BY occurred_at LIMIT $2)`,
      [cutoff, batchSize],
    );
    const n = res.rowCount ?? 0;
    removed += n;
    if (n < batchSize) return { removed, more: false };
  }
  return { removed, more: true };
}
