/** The shape of one audit record, and the pure mapping from a tool call to it and from it to a row. */
import { uuidv7 } from '../crypto/index.js';
import type { CallToolResult, ToolCallContext } from '../mcp-tools/index.js';
import { MAX_STRING_CHARS, redactParameters, storableString, truncateString } from './redact.js';

export type AuditOutcome = 'ok' | 'error' | 'denied';

/** One tool call or resource event, as the middleware (or any other caller) hands it to `AuditLog.record` or `insertAuditRows`. */
export interface AuditEntry {
  /** When the call started; defaults to the audit log's clock at `record` time. */
  occurredAt?: Date | number;
  /** caller.subject: OIDC `sub`, or the API key's name. */
  subject: string;
  email?: string;
  authType: string;
  persona?: string;
  tool: string;
  /** The call's arguments as received. The writer redacts them; callers need not. */
  parameters?: unknown;
  /**
   * Instead of `parameters`: their JSON as redactParameters made it (a caller recording many
   * alike keeps the parts they share); held to the same size limit.
   */
  parametersJson?: string;
  /** The tool's content arguments (ToolDefinition.contentArguments): stored as size and SHA-256 only. */
  contentArguments?: readonly string[];
  durationMs: number;
  outcome: AuditOutcome;
  errorText?: string;
  sessionId?: string;
  /** The managed resource a resource event (a content read by door, a move) is about; tool calls have none. */
  resourceId?: string;
}

/** Serialised parameters above this size are replaced by a note: one call must not write megabytes. */
export const MAX_PARAMETERS_BYTES = 64 * 1024;

/** Column order of the INSERT in store.ts. */
export type AuditRow = [
  id: string,
  occurredAt: Date,
  subject: string,
  email: string | null,
  authType: string,
  persona: string | null,
  tool: string,
  parametersJson: string,
  durationMs: number,
  outcome: AuditOutcome,
  errorText: string | null,
  sessionId: string | null,
  resourceId: string | null,
];

function text(s: string | undefined, max = 1024): string | null {
  return s === undefined ? null : truncateString(storableString(s), max);
}

/** Redacted, size-capped JSON of the parameters; always a JSON object or array or scalar, never empty. */
export function parametersJson(parameters: unknown, contentArguments?: readonly string[]): string {
  return withinParametersLimit(JSON.stringify(redactParameters(parameters, contentArguments ? { contentArguments } : {}) ?? {}));
}

function withinParametersLimit(json: string): string {
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= MAX_PARAMETERS_BYTES) return json;
  return JSON.stringify({ '[truncated]': `parameters were ${bytes} bytes, over the ${MAX_PARAMETERS_BYTES}-byte limit` });
}

/** The row written for an entry: redaction, truncation and clamping happen here, off the caller's path. */
export function auditRow(entry: AuditEntry, fallbackTime: number): AuditRow {
  const at = entry.occurredAt === undefined ? new Date(fallbackTime) : new Date(entry.occurredAt);
  // Postgres takes years 1 to 9999 (toISOString writes others as ±YYYYYY, which it refuses).
  const year = at.getUTCFullYear();
  const occurredAt = Number.isNaN(at.getTime()) || year < 1 || year > 9999 ? new Date(fallbackTime) : at;
  const duration = Number.isFinite(entry.durationMs) ? Math.min(Math.max(0, Math.round(entry.durationMs)), 2_147_483_647) : 0;
  return [
    // Time-ordered id from the call's own time, so id order and occurred_at order agree.
    uuidv7(occurredAt.getTime()),
    occurredAt,
    text(entry.subject) ?? '',
    text(entry.email),
    text(entry.authType) ?? '',
    text(entry.persona),
    text(entry.tool) ?? '',
    entry.parametersJson !== undefined ? withinParametersLimit(entry.parametersJson) : parametersJson(entry.parameters, entry.contentArguments),
    duration,
    entry.outcome,
    text(entry.errorText, MAX_STRING_CHARS),
    text(entry.sessionId),
    text(entry.resourceId),
  ];
}

/** The text an error result carries (its text content blocks), for the `error_text` column. */
export function resultText(result: CallToolResult): string | undefined {
  const parts = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * The audit entry for one tools/call. Pass `result`, or `error` (the key present) with what the handler threw; outcome is
 * `error` for an `isError` result or a throw, `ok` otherwise, unless given (e.g. `denied` where an
 * access check refused the call before it ran).
 */
export function toolCallEntry(opts: {
  tool: string;
  args: unknown;
  contentArguments?: readonly string[];
  ctx: Pick<ToolCallContext, 'caller' | 'persona' | 'sessionId'>;
  startedAt: number;
  durationMs: number;
  result?: CallToolResult;
  error?: unknown;
  outcome?: AuditOutcome;
  errorText?: string;
}): AuditEntry {
  const { ctx } = opts;
  // `'error' in opts`, not `opts.error !== undefined`: a handler may throw anything, even undefined.
  const thrown = 'error' in opts;
  const failed = thrown || opts.result?.isError === true;
  const errorText =
    opts.errorText ??
    (thrown
      ? opts.error instanceof Error
        ? opts.error.message
        : String(opts.error)
      : failed && opts.result
        ? resultText(opts.result)
        : undefined);
  return {
    occurredAt: opts.startedAt,
    subject: ctx.caller.subject,
    ...(ctx.caller.email !== undefined ? { email: ctx.caller.email } : {}),
    authType: ctx.caller.authType,
    ...(ctx.persona !== undefined ? { persona: ctx.persona } : {}),
    tool: opts.tool,
    parameters: opts.args,
    ...(opts.contentArguments?.length ? { contentArguments: opts.contentArguments } : {}),
    durationMs: opts.durationMs,
    outcome: opts.outcome ?? (failed ? 'error' : 'ok'),
    ...(errorText !== undefined ? { errorText } : {}),
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
  };
}
