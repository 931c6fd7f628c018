/**
 * Resource events in the audit log (spec document 2, "Events", "Usage"): content reads by door,
 * image-tile reads and moves are `audit_log` rows naming their resource (`resource_id`), and
 * usage is counted from those rows, so audit retention bounds it. Rows are written synchronously
 * on the caller's connection — inside a move's transaction, before a read's bytes are served — so
 * usage never misses a read the caller got, and a move and its row commit together. They are
 * written whenever audit runs (`audit.enabled` with a database); `audit.log_tool_calls` governs
 * tool calls only.
 */
import { auditRow, insertAuditRows, type AuditEntry } from '../audit/index.js';
import { auditActive, type PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import type { Client } from './context.js';
import type { ReadDoor, ResourceActor, UsageView } from './types.js';

/** The tool name a read is audited under (spec: content reads are recorded by door). */
export const auditToolOfDoor: Record<ReadDoor, string> = {
  resources_read: 'resources/read',
  search_fetch: 'search_fetch',
  portal_download: 'portal_download',
  portal_preview: 'portal_preview',
};

/** The tool name of a move's audit row (a change of library, folder or both). */
export const MOVE_AUDIT_TOOL = 'resource_move';

const doorOfTool = new Map(Object.entries(auditToolOfDoor).map(([door, tool]) => [tool, door as ReadDoor]));
/** Doors whose reads stamp last read: every one but the image tile. */
const contentReadTools = Object.entries(auditToolOfDoor)
  .filter(([door]) => door !== 'portal_preview')
  .map(([, tool]) => tool);

const dayMs = 86_400_000;
/** Spec limits: usage windows of 30 and 90 days; the never-read flag after 30 days. */
export const USAGE_WINDOW_DAYS = [30, 90] as const;
export const NEVER_READ_AFTER_DAYS = 30;

/** What a resource event says, beyond who did it (the actor) and when. */
export interface ResourceEvent {
  /** The resource the row names (absent for a person's action on something else: an asset, a prompt). */
  resourceId?: string;
  tool: string;
  parameters: Record<string, unknown>;
}

/** The audit entry of a resource event by this actor at this time. */
export function resourceEventEntry(actor: ResourceActor, event: ResourceEvent, at: Date): AuditEntry {
  return {
    occurredAt: at,
    subject: actor.subject,
    ...(actor.email ? { email: actor.email } : {}),
    authType: actor.authType ?? 'unknown',
    ...(actor.activePersona ? { persona: actor.activePersona } : {}),
    tool: event.tool,
    parameters: event.parameters,
    durationMs: 0,
    outcome: 'ok',
    ...(actor.writer.kind === 'agent_session' ? { sessionId: actor.writer.sessionId } : {}),
    ...(event.resourceId !== undefined ? { resourceId: event.resourceId } : {}),
  };
}

/** Writes a resource event's audit row on `q` (a move's transaction, or the pool); nothing while audit is off. */
export async function recordResourceEvent(q: Db | Client, config: PlatformConfig, actor: ResourceActor, event: ResourceEvent, at: Date): Promise<void> {
  if (!auditActive(config)) return;
  await insertAuditRows(q, [auditRow(resourceEventEntry(actor, event, at), at.getTime())]);
}

/**
 * Writes the audit row of a person's action at the portal (on assets, stored prompts) on `q`; none
 * for agents and scripts, whose tool call is already their row, and none while audit is off.
 */
export async function recordPersonEvent(q: Db | Client, config: PlatformConfig, actor: ResourceActor, event: Omit<ResourceEvent, 'resourceId'>, at: Date): Promise<void> {
  if (actor.writer.kind !== 'person') return;
  await recordResourceEvent(q, config, actor, event, at);
}

/** Where each usage window starts: its length back from now, but never before the retention cutoff. */
export function usageWindows(now: Date, retentionDays: number): { since30: Date; since90: Date; retained: Date } {
  const retained = now.getTime() - retentionDays * dayMs;
  const since = (days: number) => new Date(Math.max(now.getTime() - days * dayMs, retained));
  return { since30: since(USAGE_WINDOW_DAYS[0]), since90: since(USAGE_WINDOW_DAYS[1]), retained: new Date(retained) };
}

/** True when a file at least 30 days old has no content read on record (bounded by retention). */
export function neverRead(createdAt: Date, lastReadAt: Date | null, now: Date): boolean {
  return lastReadAt === null && now.getTime() - createdAt.getTime() >= NEVER_READ_AFTER_DAYS * dayMs;
}

/**
 * A resource's usage from its audit rows: reads per door over 30 and 90 days, the last content
 * read, and the never-read flag. Rows older than `audit.retention_days` do not count even before
 * housekeeping deleted them. With audit off: not recorded (no zeros that would read as "unread").
 */
export async function usageFromAuditTrail(db: Db, config: PlatformConfig, resource: { id: string; createdAt: Date }, now: Date): Promise<UsageView> {
  if (!auditActive(config)) {
    return { recorded: false, message: 'usage is not recorded: audit is off (audit.enabled is false), so reads are not recorded' };
  }
  const retentionDays = config.audit.retention_days;
  const { since30, since90, retained } = usageWindows(now, retentionDays);
  // Both use audit_log_resource_occurred_at (migrations/0009): a range scan of this resource's rows.
  const [counts, last] = await Promise.all([
    db.query<{ tool: string; n30: number; n90: number }>(
      `SELECT tool, count(*) FILTER (WHERE occurred_at > $3)::int AS n30, count(*)::int AS n90
         FROM audit_log
        WHERE resource_id = $1 AND tool = ANY($2::text[]) AND occurred_at > $4
        GROUP BY tool`,
      [resource.id, [...doorOfTool.keys()], since30, since90],
    ),
    db.query<{ occurred_at: Date }>(
      `SELECT occurred_at FROM audit_log
        WHERE resource_id = $1 AND tool = ANY($2::text[]) AND occurred_at > $3
        ORDER BY occurred_at DESC LIMIT 1`,
      [resource.id, contentReadTools, retained],
    ),
  ]);
  const zero = (): Record<ReadDoor, number> => ({ resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 });
  const last30 = zero();
  const last90 = zero();
  for (const r of counts.rows) {
    const door = doorOfTool.get(r.tool)!;
    last30[door] = r.n30;
    last90[door] = r.n90;
  }
  const lastReadAt = last.rows[0]?.occurred_at ?? null;
  return {
    recorded: true,
    last_read_at: lastReadAt ? lastReadAt.toISOString() : null,
    never_read: neverRead(resource.createdAt, lastReadAt, now),
    last_30_days: last30,
    last_90_days: last90,
    retention_days: retentionDays,
  };
}
