/**
 * Reading the audit trail (the administrators' audit view and its CSV export): rows of
 * `audit_log` filtered by who, tool, outcome and time, newest first, paged by a cursor over
 * (occurred_at, id). Parameters were redacted when written; they are redacted again on the way
 * out, so a row written before a rule was added never shows what the rule now hides.
 */
import type { Db } from '../db/index.js';
import { redactParameters } from './redact.js';

export const AUDIT_OUTCOMES = ['ok', 'error', 'denied'] as const;
export type AuditQueryOutcome = (typeof AUDIT_OUTCOMES)[number];

export interface AuditFilters {
  /** A subject or an email: rows whose subject or email contains it (case-insensitive). */
  user?: string;
  /** A tool (or route event) name; a trailing `*` matches every name starting with the rest. */
  tool?: string;
  outcome?: AuditQueryOutcome;
  /** Inclusive lower bound of occurred_at. */
  from?: Date;
  /** Exclusive upper bound of occurred_at. */
  to?: Date;
}

export interface AuditRecordView {
  id: string;
  occurred_at: string;
  subject: string;
  email: string | null;
  auth_type: string;
  persona: string | null;
  tool: string;
  outcome: string;
  duration_ms: number;
  error_text: string | null;
  session_id: string | null;
  resource_id: string | null;
  parameters: unknown;
}

/** A row as read: the view's fields with the time as a Date, and the time's exact text for the cursor. */
interface AuditQueryRow extends Omit<AuditRecordView, 'occurred_at'> {
  at_text: string;
  occurred_at: Date;
}

export class AuditCursorError extends Error {
  override readonly name = 'AuditCursorError';
}

/** Where a page ends: its last row's time to the microsecond (as Postgres keeps it) and id. */
interface Cursor {
  at: string;
  id: string;
}

function cursorText(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`).toString('base64url');
}

function parseCursor(text: string): Cursor {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const bar = decoded.indexOf('|');
  const at = decoded.slice(0, bar);
  const id = decoded.slice(bar + 1);
  if (bar < 0 || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(at) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw new AuditCursorError('cursor: not a cursor this route gave');
  }
  return { at, id };
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function whereOf(filters: AuditFilters, cursor: Cursor | undefined): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (n: number) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(params.length));
  };
  if (filters.user) add((n) => `(subject ILIKE $${n} OR email ILIKE $${n})`, `%${likeLiteral(filters.user)}%`);
  if (filters.tool) {
    if (filters.tool.endsWith('*')) add((n) => `tool LIKE $${n}`, `${likeLiteral(filters.tool.slice(0, -1))}%`);
    else add((n) => `tool = $${n}`, filters.tool);
  }
  if (filters.outcome) add((n) => `outcome = $${n}`, filters.outcome);
  if (filters.from) add((n) => `occurred_at >= $${n}`, filters.from);
  if (filters.to) add((n) => `occurred_at < $${n}`, filters.to);
  if (cursor) {
    params.push(cursor.at, cursor.id);
    clauses.push(`(occurred_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function view(row: AuditQueryRow): AuditRecordView {
  const { at_text: _cursorText, ...fields } = row;
  return { ...fields, occurred_at: row.occurred_at.toISOString(), parameters: redactParameters(row.parameters) };
}

const columns = `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_text, id, occurred_at, subject, email, auth_type, persona, tool, outcome, duration_ms, error_text, session_id, resource_id, parameters`;

/** One page of rows matching `filters`, newest first; `cursor` continues after the previous page's last row. */
export async function queryAudit(db: Db, filters: AuditFilters, page: { limit: number; cursor?: string }): Promise<{ items: AuditRecordView[]; next_cursor: string | null }> {
  const where = whereOf(filters, page.cursor === undefined ? undefined : parseCursor(page.cursor));
  const { rows } = await db.query<AuditQueryRow>(
    `SELECT ${columns} FROM audit_log ${where.sql} ORDER BY occurred_at DESC, id DESC LIMIT $${where.params.length + 1}`,
    [...where.params, page.limit + 1],
  );
  const kept = rows.slice(0, page.limit);
  const last = kept[kept.length - 1];
  return { items: kept.map(view), next_cursor: rows.length > page.limit && last ? cursorText({ at: last.at_text, id: last.id }) : null };
}

/** Every row matching `filters`, newest first, in pages of `batch`, at most `max` rows. */
export async function* auditRows(db: Db, filters: AuditFilters, opts: { max: number; batch?: number }): AsyncGenerator<AuditRecordView> {
  const batch = opts.batch ?? 1000;
  let cursor: string | undefined;
  let sent = 0;
  while (sent < opts.max) {
    const page = await queryAudit(db, filters, { limit: Math.min(batch, opts.max - sent), ...(cursor ? { cursor } : {}) });
    for (const item of page.items) yield item;
    sent += page.items.length;
    if (!page.next_cursor) return;
    cursor = page.next_cursor;
  }
}

export const AUDIT_CSV_COLUMNS = ['occurred_at', 'subject', 'email', 'auth_type', 'persona', 'tool', 'outcome', 'duration_ms', 'error_text', 'session_id', 'resource_id', 'parameters', 'id'] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a text starting with
 * `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'` so a spreadsheet does not run it.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A row of the export, CRLF-terminated. */
export function auditCsvLine(row: AuditRecordView): string {
  return `${AUDIT_CSV_COLUMNS.map((c) => csvField(row[c])).join(',')}\r\n`;
}

export const AUDIT_CSV_HEADER = `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
