/**
 * The record of a run (migrations/0016_script_runs.sql) and its audit row (tool `script_run`),
 * written together on one transaction: one row per run whatever started it. Draft runs are
 * recorded here; scheduled runs (trigger `schedule`, with the schedule's fire time) use the same record.
 */
import type pg from 'pg';
import { auditRow, insertAuditRows, type AuditEntry } from '../../audit/index.js';
import { auditActive, type PlatformConfig } from '../../config/index.js';
import { withTransaction, type Db } from '../../db/index.js';
import type { SandboxOutcome } from '../sandbox/index.js';

export const SCRIPT_RUN_AUDIT_TOOL = 'script_run';

/** Console output a run's row keeps; the answer of a draft run carries all the sandbox kept. */
export const CONSOLE_EXCERPT_BYTES = 8 * 1024;

export type RunTrigger = 'draft' | 'schedule';

/** Who started a run, as audit rows name callers. */
export interface RunStarter {
  subject: string;
  email?: string;
  authType: string;
  persona?: string;
}

export interface ScriptRunRecord {
  id: string;
  /** Absent for an unsaved source. */
  script?: { id: string; name: string; version: number };
  trigger: RunTrigger;
  /** When the schedule fired (trigger schedule). */
  scheduledAt?: Date;
  /** The failed scheduled run an administrator's retry repeats. */
  retryOf?: string;
  outcome: SandboxOutcome;
  startedAt: Date;
  finishedAt: Date;
  starter: RunStarter;
  /** The subject the run acted as: script:<name>, or the starter's for an unsaved source. */
  principal: string;
}

/** The first `max` bytes of `text`, never splitting a character. */
export function consoleExcerpt(text: string, max = CONSOLE_EXCERPT_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = max;
  // Back off continuation bytes (10xxxxxx) so the cut falls on a character boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

function errorOf(outcome: SandboxOutcome): string | undefined {
  return outcome.status === 'ok' ? undefined : outcome.error;
}

export function scriptRunEntry(record: ScriptRunRecord): AuditEntry {
  const error = errorOf(record.outcome);
  return {
    occurredAt: record.startedAt,
    subject: record.starter.subject,
    ...(record.starter.email ? { email: record.starter.email } : {}),
    authType: record.starter.authType,
    ...(record.starter.persona ? { persona: record.starter.persona } : {}),
    tool: SCRIPT_RUN_AUDIT_TOOL,
    parameters: {
      run_id: record.id,
      ...(record.script ? { script_id: record.script.id, name: record.script.name, version: record.script.version } : { unsaved: true }),
      trigger: record.trigger,
      ...(record.retryOf ? { retry_of: record.retryOf } : {}),
      principal: record.principal,
      status: record.outcome.status,
    },
    durationMs: record.outcome.durationMs,
    outcome: record.outcome.status === 'ok' ? 'ok' : 'error',
    ...(error ? { errorText: error } : {}),
  };
}

async function insertRun(client: pg.PoolClient, record: ScriptRunRecord): Promise<void> {
  await client.query(
    `INSERT INTO script_runs (id, script_id, script_name, version, trigger, scheduled_at, status, error, duration_ms, console_excerpt,
                              started_at, finished_at, caller_subject, principal, retry_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      record.id,
      record.script?.id ?? null,
      record.script?.name ?? null,
      record.script?.version ?? null,
      record.trigger,
      record.scheduledAt ?? null,
      record.outcome.status,
      errorOf(record.outcome) ?? null,
      Math.max(0, Math.round(record.outcome.durationMs)),
      consoleExcerpt(record.outcome.console),
      record.startedAt,
      record.finishedAt,
      record.starter.subject,
      record.principal,
      record.retryOf ?? null,
    ],
  );
}

/** Writes the run's row and, when audit runs, its audit row, together. */
export async function recordScriptRun(db: Db, config: PlatformConfig, record: ScriptRunRecord): Promise<void> {
  await withTransaction(db, async (client) => {
    await insertRun(client, record);
    if (auditActive(config)) await insertAuditRows(client, [auditRow(scriptRunEntry(record), record.startedAt.getTime())]);
  });
}
