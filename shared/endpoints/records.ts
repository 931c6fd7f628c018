/**
 * The records of endpoint requests (spec document 3, "Audit row per endpoint request" and
 * "Failed-request record"). One audit row per request to an enabled endpoint, whatever its
 * status, written whenever audit runs (`audit.enabled` with a database; `log_tool_calls` governs
 * tool calls only) through a batched writer of its own, so a request never waits for it. The
 * audit_log table has no source or event-kind columns: the row's tool is `endpoint:<name>` and
 * its parameters say `source: endpoint`, `event_kind: endpoint_request`. A failed request (500,
 * 503, 504 the platform answered after the binding resolved) is also kept seven days in
 * endpoint_failures with the script's error. No script run row is written.
 */
import { createAuditLog, noopAuditLog, redactParameters, type AuditEntry, type AuditLog, type AuditOutcome } from '../audit/index.js';
import { auditActive, type PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import { anonymousCaller, type CallerContext } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import type { Metrics } from '../metrics/index.js';
import { recordEndpointFailure } from './failures.js';
import { callerView } from './request.js';
import type { AuthMode } from './types.js';

export const ENDPOINT_AUDIT_SOURCE = 'endpoint';
export const ENDPOINT_REQUEST_EVENT = 'endpoint_request';

export function endpointAuditTool(endpoint: string): string {
  return `endpoint:${endpoint}`;
}

export interface EndpointRequestRecord {
  endpoint: string;
  script: { id: string; name: string; version: number };
  method: string;
  status: number;
  authMode: AuthMode;
  /** The signed-in caller; null when none (public endpoints, refused requests). */
  caller: CallerContext | null;
  sessionId: string;
  /** Milliseconds since the epoch. */
  startedAt: number;
  durationMs: number;
  outcome: AuditOutcome;
  /** What failed (the script's error, or the platform's reason), for 5xx answers. */
  error?: string;
}

/**
 * What every request to one endpoint and script version records alike: the head of the
 * parameters' redacted JSON (cut before its closing brace), and the tails of anonymous requests
 * by method and status. Redaction treats each top-level key apart, so head and tail joined are
 * what redacting the whole would give.
 */
interface SharedParameters {
  endpoint: string;
  script: { id: string; name: string; version: number };
  head: string;
  anonymousTails: Map<string, string>;
}

/** By the record's script object (an endpoint hands in one per target); checked against the record before use. */
const sharedParameters = new WeakMap<object, SharedParameters>();
const maxAnonymousTails = 64;

/** The audit parameters of a request (docs/endpoints.md, "Identity and records") as redacted JSON. */
function endpointParametersJson(record: EndpointRequestRecord): string {
  const { script } = record;
  let shared = sharedParameters.get(script);
  if (!shared || shared.endpoint !== record.endpoint || shared.script.id !== script.id || shared.script.name !== script.name || shared.script.version !== script.version) {
    const head = JSON.stringify(redactParameters({ source: ENDPOINT_AUDIT_SOURCE, event_kind: ENDPOINT_REQUEST_EVENT, endpoint: record.endpoint, script: script.name, script_id: script.id, version: script.version }));
    shared = { endpoint: record.endpoint, script: { id: script.id, name: script.name, version: script.version }, head: head.slice(0, -1), anonymousTails: new Map() };
    sharedParameters.set(script, shared);
  }
  const key = record.caller ? undefined : `${record.method} ${record.status} ${record.authMode}`;
  let tail = key === undefined ? undefined : shared.anonymousTails.get(key);
  if (tail === undefined) {
    tail = JSON.stringify(redactParameters({ method: record.method, status: record.status, auth_mode: record.authMode, caller: record.caller ? callerView(record.caller) : null })).slice(1);
    if (key !== undefined && shared.anonymousTails.size < maxAnonymousTails) shared.anonymousTails.set(key, tail);
  }
  return tail === '}' ? `${shared.head}}` : `${shared.head},${tail}`;
}

export function endpointRequestEntry(record: EndpointRequestRecord): AuditEntry {
  const caller = record.caller ?? anonymousCaller;
  return {
    occurredAt: record.startedAt,
    subject: caller.subject,
    ...(caller.email !== undefined ? { email: caller.email } : {}),
    authType: caller.authType,
    tool: endpointAuditTool(record.endpoint),
    parametersJson: endpointParametersJson(record),
    durationMs: record.durationMs,
    outcome: record.outcome,
    ...(record.error !== undefined ? { errorText: record.error } : {}),
    sessionId: record.sessionId,
  };
}

/** The writer of endpoint rows: a batched audit log whenever audit runs, else the no-op one. */
export function endpointAuditLog(opts: { config: PlatformConfig; db?: Db; log: Logger; metrics?: Metrics }): AuditLog {
  if (!opts.db || !auditActive(opts.config)) return noopAuditLog();
  return createAuditLog({
    config: { audit: { ...opts.config.audit, log_tool_calls: true } },
    db: opts.db,
    log: opts.log.child({ component: 'endpoint-audit' }),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });
}

/** Writes a request's audit row and, for a failure, its failed-request record; never blocks the answer. */
export class EndpointRecords {
  readonly #writes = new Set<Promise<void>>();

  constructor(private readonly opts: { db: Db; audit: AuditLog; log: Logger }) {}

  /** `failed`: the platform answered 500, 503 or 504 itself (not a status the handler chose). */
  request(record: EndpointRequestRecord, failed: boolean): void {
    this.opts.audit.record(endpointRequestEntry(record));
    if (!failed) return;
    const write = recordEndpointFailure(this.opts.db, {
      endpoint: record.endpoint,
      scriptId: record.script.id,
      version: record.script.version,
      method: record.method,
      status: record.status,
      error: record.error ?? `answered ${record.status}`,
      durationMs: record.durationMs,
      sessionId: record.sessionId,
      occurredAt: new Date(record.startedAt),
    })
      .catch((error: unknown) => this.opts.log.warn({ err: { message: (error as Error).message }, endpoint: record.endpoint }, 'failed endpoint request not recorded'))
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  /** Writes everything recorded so far (tests, shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.#writes]);
    await this.opts.audit.flush();
  }

  /** Stops the audit writer after the last rows are written. */
  async close(): Promise<void> {
    await Promise.all([...this.#writes]);
    await this.opts.audit.close();
  }
}
