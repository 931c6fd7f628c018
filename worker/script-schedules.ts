/**
 * The Temporal side of script schedules (docs/scripts.md, "Schedules"): the sync that makes one
 * script's Schedule `script-schedule:{scriptId}` match its row (create, update, pause, delete), the
 * reconcile that does so for every row and deletes Schedules whose row is gone (run at worker
 * start and by its own Schedule), the admin retry of a failed run, and the `ScriptName` search
 * attribute's registration.
 */
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import {
  SCRIPT_SCHEDULE_PREFIX,
  ScriptError,
  scriptRunWorkflowPrefix,
  scriptScheduleId,
  type ScheduledScript,
  type ScheduleSync,
} from '../shared/scripts/index.js';
import type { Logger } from '../shared/logging/index.js';
import { runScript, scriptNameAttribute, type RunScriptInput, type ScriptRunSettings } from '../workflows/scripts.js';
import type { PlatformSchedule } from './schedules.js';

export const scriptReconcileScheduleId = 'script-schedule-reconcile';

/** The task queue of the script activities: polled only by workers with a ScriptRunner. */
export function scriptActivityQueue(taskQueue: string): string {
  return `${taskQueue}-scripts`;
}

export interface ScriptScheduleConfig {
  taskQueue: string;
  /** `scripts.run_deadline` (ms). */
  runDeadlineMs: number;
}

export function scriptRunSettings(config: ScriptScheduleConfig): ScriptRunSettings {
  // The deadline bounds the sandbox; the rest is the MCP session and the run's record.
  return { activityQueue: scriptActivityQueue(config.taskQueue), timeoutMs: config.runDeadlineMs + 60_000 };
}

/** The reconcile pass, every 5 minutes (a change pushed at once needs no pass; a lost push waits at most this). */
export function scriptReconcileSchedule(taskQueue: string): PlatformSchedule {
  return {
    id: scriptReconcileScheduleId,
    everyMs: 300_000,
    workflowType: 'reconcileScriptSchedules',
    workflowId: scriptReconcileScheduleId,
    args: [{ activityQueue: scriptActivityQueue(taskQueue) }],
    taskQueue,
  };
}

export interface ScriptScheduleClient extends ScheduleSync {
  /** Every row pushed; Schedules without a row deleted. */
  reconcile(rows: ScheduledScript[]): Promise<{ applied: number; deleted: number }>;
  /** Starts a failed scheduled run again: workflow `script-run:{scriptId}-retry-{runId}` (one retry at a time per run). */
  retry(run: { scriptId: string; scriptName: string; runId: string; scheduledAt: Date }): Promise<{ workflowId: string }>;
}

export function scriptScheduleClient(client: Pick<Client, 'schedule' | 'workflow'>, config: ScriptScheduleConfig, log: Pick<Logger, 'warn'>): ScriptScheduleClient {
  const settings = scriptRunSettings(config);
  const action = (s: ScheduledScript) => ({
    type: 'startWorkflow' as const,
    workflowType: runScript,
    workflowId: scriptRunWorkflowPrefix(s.scriptId),
    taskQueue: config.taskQueue,
    args: [{ scriptId: s.scriptId, settings }] as [RunScriptInput],
    memo: { scriptId: s.scriptId },
    typedSearchAttributes: [{ key: scriptNameAttribute, value: s.name }],
  });
  const spec = (s: ScheduledScript) =>
    s.cron !== undefined ? { cronExpressions: [s.cron], timezone: s.timeZone } : { intervals: [{ every: s.intervalMs! }], timezone: s.timeZone };

  async function upsert(s: ScheduledScript): Promise<void> {
    const scheduleId = scriptScheduleId(s.scriptId);
    try {
      await client.schedule.create({ scheduleId, spec: spec(s), action: action(s), policies: { overlap: ScheduleOverlapPolicy.SKIP }, state: { paused: s.paused } });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec: spec(s), action: action(s), state: { ...prev.state, paused: s.paused } }));
    }
  }

  async function remove(scriptId: string): Promise<boolean> {
    try {
      await client.schedule.getHandle(scriptScheduleId(scriptId)).delete();
      return true;
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) return false;
      throw error;
    }
  }

  return {
    async apply(change) {
      try {
        if ('removed' in change) await remove(change.scriptId);
        else await upsert(change);
      } catch (error) {
        // The schedule client answers Temporal's "Invalid schedule spec" (a cron it does not read) as a TypeError.
        if (error instanceof TypeError) throw new ScriptError('invalid', `Temporal refused the schedule: ${error.message}`);
        // The row commits; the reconcile pass pushes it when Temporal answers again.
        log.warn({ err: error, scriptId: change.scriptId }, 'script schedule not pushed to Temporal; the reconcile pass will');
      }
    },
    async reconcile(rows) {
      for (const row of rows) {
        // One row Temporal refuses (written before a rule tightened) does not hold up the others.
        await upsert(row).catch((error: unknown) => {
          if (!(error instanceof TypeError)) throw error;
          log.warn({ err: error, scriptId: row.scriptId }, 'Temporal refuses this script schedule');
        });
      }
      const wanted = new Set(rows.map((r) => scriptScheduleId(r.scriptId)));
      let deleted = 0;
      for await (const summary of client.schedule.list()) {
        if (!summary.scheduleId.startsWith(SCRIPT_SCHEDULE_PREFIX) || wanted.has(summary.scheduleId)) continue;
        if (await remove(summary.scheduleId.slice(SCRIPT_SCHEDULE_PREFIX.length))) deleted++;
      }
      return { applied: rows.length, deleted };
    },
    async retry(run) {
      const workflowId = `${scriptRunWorkflowPrefix(run.scriptId)}-retry-${run.runId}`;
      await client.workflow.start(runScript, {
        workflowId,
        taskQueue: config.taskQueue,
        args: [{ scriptId: run.scriptId, settings, retryOf: { runId: run.runId, scheduledAt: run.scheduledAt.toISOString() } }],
        memo: { scriptId: run.scriptId },
        typedSearchAttributes: [{ key: scriptNameAttribute, value: run.scriptName }],
      });
      return { workflowId };
    },
  };
}
