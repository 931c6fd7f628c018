/**
 * Every change to a script is an audit row (tool `script_change`), written on the change's own
 * transaction so the change and its record commit together, whichever surface made it (an MCP
 * tool call is audited as a call too). Written whenever audit runs (`audit.enabled` with a database).
 */
import { auditRow, insertAuditRows, type AuditEntry } from '../audit/index.js';
import type pg from 'pg';
import { auditActive, type PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import type { ScriptActor, ScriptState } from './types.js';

export const SCRIPT_AUDIT_TOOL = 'script_change';

export type ScriptChangeAction =
  | 'create'
  | 'update'
  | 'disable'
  | 'enable'
  | 'deprecate'
  | 'supersede'
  | 'delete'
  | 'schedule'
  | 'unschedule'
  | 'pause'
  | 'resume'
  | 'endpoint_set'
  | 'endpoint_enable'
  | 'endpoint_disable'
  | 'endpoint_remove';

export interface ScriptChange {
  scriptId: string;
  name: string;
  action: ScriptChangeAction;
  /** The version a create or update wrote. */
  version?: number;
  from?: ScriptState;
  to?: ScriptState;
  supersededBy?: string;
  /** The schedule a schedule action set (cron or interval_ms, time_zone). */
  schedule?: Record<string, unknown>;
  /** The endpoint an endpoint_* action changed (shared/endpoints). */
  endpoint?: string;
  /** The settings an endpoint_set wrote (field names as the surfaces take them). */
  binding?: Record<string, unknown>;
}

export function scriptChangeEntry(actor: ScriptActor, change: ScriptChange, at: Date): AuditEntry {
  return {
    occurredAt: at,
    subject: actor.subject,
    ...(actor.email ? { email: actor.email } : {}),
    authType: actor.authType,
    ...(actor.persona ? { persona: actor.persona } : {}),
    tool: SCRIPT_AUDIT_TOOL,
    parameters: {
      script_id: change.scriptId,
      name: change.name,
      action: change.action,
      ...(change.version !== undefined ? { version: change.version } : {}),
      ...(change.from ? { from: change.from } : {}),
      ...(change.to ? { to: change.to } : {}),
      ...(change.supersededBy ? { superseded_by: change.supersededBy } : {}),
      ...(change.schedule ? { schedule: change.schedule } : {}),
      ...(change.endpoint ? { endpoint: change.endpoint } : {}),
      ...(change.binding ? { binding: change.binding } : {}),
    },
    durationMs: 0,
    outcome: 'ok',
    ...(actor.sessionId ? { sessionId: actor.sessionId } : {}),
  };
}

export async function recordScriptChange(
  q: Db | pg.PoolClient,
  config: PlatformConfig,
  actor: ScriptActor,
  change: ScriptChange,
  at: Date,
): Promise<void> {
  if (!auditActive(config)) return;
  await insertAuditRows(q, [auditRow(scriptChangeEntry(actor, change, at), at.getTime())]);
}
