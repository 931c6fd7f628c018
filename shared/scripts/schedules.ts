/**
 * Script schedules in Postgres (migrations/0017_script_schedules.sql): set (create or replace),
 * remove, pause and resume, by the script's owner and administrators, each change audited
 * (`script_change`) on its own transaction. The row is the truth; `sync` pushes it to Temporal
 * inside that transaction, so a spec Temporal refuses rolls the change back (400), while a
 * Temporal that cannot be reached leaves the committed row to the reconcile pass.
 */
import type pg from 'pg';
import type { PlatformConfig } from '../config/index.js';
import { withTransaction, type Db } from '../db/index.js';
import { requireChange } from './authority.js';
import { recordScriptChange, type ScriptChangeAction } from './events.js';
import { scheduleSpec, type ScheduleInput, type ScheduleSpec } from './schedule-rules.js';
import { UUID_PATTERN } from './source.js';
import { ScriptError, type ScriptActor, type ScriptKind, type ScriptState } from './types.js';

/** A script's schedule as the sync reads it. */
export interface ScheduledScript extends ScheduleSpec {
  scriptId: string;
  name: string;
  paused: boolean;
}

/** Makes Temporal match a schedule row (`removed`: there is none). Throws `invalid` when Temporal refuses the spec. */
export interface ScheduleSync {
  apply(change: ScheduledScript | { scriptId: string; removed: true }): Promise<void>;
}

export interface ScheduleView {
  script: { id: string; name: string };
  cron?: string;
  interval_ms?: number;
  time_zone: string;
  paused: boolean;
  created_by: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
}

export interface ScriptSchedulesOptions {
  db: Db;
  config: PlatformConfig;
  /** Absent where no Temporal client is configured: the worker's reconcile pushes the rows. */
  sync?: ScheduleSync;
  clock?: () => number;
}

interface TargetRow {
  id: string;
  name: string;
  kind: ScriptKind;
  state: ScriptState;
  owner_subject: string;
}

interface ScheduleRow {
  script_id: string;
  name: string;
  cron: string | null;
  interval_ms: string | null;
  time_zone: string;
  paused: boolean;
  created_by: string;
  created_at: Date;
  updated_by: string;
  updated_at: Date;
}

const selectSchedule = `SELECT c.script_id, s.name, c.cron, c.interval_ms, c.time_zone, c.paused, c.created_by, c.created_at, c.updated_by, c.updated_at
  FROM script_schedules c JOIN scripts s ON s.id = c.script_id`;

function scheduled(row: ScheduleRow): ScheduledScript {
  return {
    scriptId: row.script_id,
    name: row.name,
    ...(row.cron !== null ? { cron: row.cron } : { intervalMs: Number(row.interval_ms) }),
    timeZone: row.time_zone,
    paused: row.paused,
  };
}

function view(row: ScheduleRow): ScheduleView {
  return {
    script: { id: row.script_id, name: row.name },
    ...(row.cron !== null ? { cron: row.cron } : { interval_ms: Number(row.interval_ms) }),
    time_zone: row.time_zone,
    paused: row.paused,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_by: row.updated_by,
    updated_at: row.updated_at.toISOString(),
  };
}

export class ScriptSchedules {
  private readonly clock: () => number;

  constructor(private readonly opts: ScriptSchedulesOptions) {
    this.clock = opts.clock ?? Date.now;
  }

  /** Creates or replaces the schedule of the script `ref` (not a library: a library has no main()). */
  async set(actor: ScriptActor, ref: string, input: ScheduleInput): Promise<ScheduleView> {
    const spec = scheduleSpec(input);
    return this.change(actor, ref, 'schedule', async (client, target, now) => {
      if (target.kind === 'library') throw new ScriptError('invalid', `"${target.name}" is a library: only scripts (with main()) are scheduled`);
      await client.query(
        `INSERT INTO script_schedules (script_id, cron, interval_ms, time_zone, paused, created_by, created_at, updated_by, updated_at)
         VALUES ($1, $2, $3, $4, false, $5, $6, $5, $6)
         ON CONFLICT (script_id) DO UPDATE SET cron = $2, interval_ms = $3, time_zone = $4, updated_by = $5, updated_at = $6`,
        [target.id, spec.cron ?? null, spec.intervalMs ?? null, spec.timeZone, actor.subject, now],
      );
      return { cron: spec.cron, interval_ms: spec.intervalMs, time_zone: spec.timeZone };
    });
  }

  /** Pauses (`paused`) or resumes the script's schedule: its runs stop (or start again) without losing it. */
  async setPaused(actor: ScriptActor, ref: string, paused: boolean): Promise<ScheduleView> {
    return this.change(actor, ref, paused ? 'pause' : 'resume', async (client, target, now) => {
      const { rowCount } = await client.query('UPDATE script_schedules SET paused = $2, updated_by = $3, updated_at = $4 WHERE script_id = $1', [
        target.id,
        paused,
        actor.subject,
        now,
      ]);
      if (rowCount === 0) throw new ScriptError('not_found', `"${target.name}" has no schedule`);
      return undefined;
    });
  }

  /** Removes the script's schedule; `removed` false when it had none. */
  async remove(actor: ScriptActor, ref: string): Promise<{ removed: boolean; script: { id: string; name: string } }> {
    return withTransaction(this.opts.db, async (client) => {
      const target = await this.target(client, ref);
      requireChange(actor, { name: target.name, kind: target.kind, ownerSubject: target.owner_subject }, 'unschedule');
      const { rowCount } = await client.query('DELETE FROM script_schedules WHERE script_id = $1', [target.id]);
      const script = { id: target.id, name: target.name };
      if (rowCount === 0) return { removed: false, script };
      await recordScriptChange(client, this.opts.config, actor, { scriptId: target.id, name: target.name, action: 'unschedule' }, new Date(this.clock()));
      await this.opts.sync?.apply({ scriptId: target.id, removed: true });
      return { removed: true, script };
    });
  }

  /** The schedule of the script `ref`, or undefined. */
  async get(ref: string): Promise<ScheduleView | undefined> {
    const target = await this.target(this.opts.db, ref);
    const { rows } = await this.opts.db.query<ScheduleRow>(`${selectSchedule} WHERE c.script_id = $1`, [target.id]);
    return rows[0] ? view(rows[0]) : undefined;
  }

  /**
   * A failed scheduled run an administrator may retry: of the script `ref`, trigger schedule, not ok.
   * Only administrators retry (a retry runs as the script, outside its schedule).
   */
  async failedRun(actor: ScriptActor, ref: string, runId: string): Promise<{ scriptId: string; scriptName: string; runId: string; scheduledAt: Date }> {
    if (!actor.platformAdmin) throw new ScriptError('forbidden', 'only administrators retry a scheduled run');
    const target = await this.target(this.opts.db, ref);
    const { rows } = await this.opts.db.query<{ id: string; trigger: string; status: string; scheduled_at: Date | null }>(
      'SELECT id, trigger, status, scheduled_at FROM script_runs WHERE id = $1 AND script_id = $2',
      [runId, target.id],
    );
    const run = rows[0];
    if (!run) throw new ScriptError('not_found', `"${target.name}" has no run "${runId}"`);
    if (run.trigger !== 'schedule' || run.status === 'ok') {
      throw new ScriptError('state', `run "${runId}" is a ${run.trigger} run with status ${run.status}: only a failed scheduled run is retried`, { status: run.status });
    }
    return { scriptId: target.id, scriptName: target.name, runId: run.id, scheduledAt: run.scheduled_at! };
  }

  /** Every schedule, for the reconcile pass. */
  async all(): Promise<ScheduledScript[]> {
    const { rows } = await this.opts.db.query<ScheduleRow>(`${selectSchedule} ORDER BY c.script_id`);
    return rows.map(scheduled);
  }

  /** One change on its transaction: the script locked, authority checked, the row written, audited and pushed to Temporal. */
  private async change(
    actor: ScriptActor,
    ref: string,
    action: ScriptChangeAction,
    write: (client: pg.PoolClient, target: TargetRow, now: Date) => Promise<Record<string, unknown> | undefined>,
  ): Promise<ScheduleView> {
    return withTransaction(this.opts.db, async (client) => {
      const target = await this.target(client, ref);
      requireChange(actor, { name: target.name, kind: target.kind, ownerSubject: target.owner_subject }, action);
      const now = new Date(this.clock());
      const schedule = await write(client, target, now);
      await recordScriptChange(client, this.opts.config, actor, { scriptId: target.id, name: target.name, action, ...(schedule ? { schedule } : {}) }, now);
      const { rows } = await client.query<ScheduleRow>(`${selectSchedule} WHERE c.script_id = $1`, [target.id]);
      await this.opts.sync?.apply(scheduled(rows[0]!));
      return view(rows[0]!);
    });
  }

  /** The script `ref` names, locked against a concurrent change or deletion. */
  private async target(q: Db | pg.PoolClient, ref: string): Promise<TargetRow> {
    const byId = UUID_PATTERN.test(ref);
    const { rows } = await q.query<TargetRow>(`SELECT id, name, kind, state, owner_subject FROM scripts WHERE ${byId ? 'id' : 'name'} = $1${'release' in q ? ' FOR UPDATE' : ''}`, [
      byId ? ref.toLowerCase() : ref,
    ]);
    if (!rows[0]) throw new ScriptError('not_found', `no script ${byId ? 'with the id' : 'named'} "${ref}"`);
    return rows[0];
  }
}
