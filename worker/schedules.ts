/**
 * Temporal Schedules the worker owns, registered idempotently at every worker start: created when
 * missing, otherwise updated in place so a changed interval or workflow argument takes effect.
 */
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Logger } from '../shared/logging/index.js';
import type { WorkerConfig } from './config.js';
import { housekeepingSchedule } from './housekeeping.js';
import { webhookRetentionSchedule, webhookSweepSchedule } from './webhooks.js';

export interface PlatformSchedule {
  /** Schedule id (fixed, so re-registration finds it). */
  id: string;
  /** Interval between runs, in ms. */
  everyMs: number;
  workflowType: string;
  /** Prefix of each run's workflow id; Temporal appends the scheduled time. */
  workflowId: string;
  args: unknown[];
  taskQueue: string;
  /** Default SKIP: a run still going when the next is due makes the next one skip. */
  overlap?: ScheduleOverlapPolicy;
}

/**
 * Every schedule the platform worker registers, from config; the webhook sweep when the worker
 * compacts (`webhooks.compactor.enabled` and the webhook activities given).
 */
export function platformSchedules(config: Pick<WorkerConfig, 'sessions' | 'temporal' | 'webhooks'>, opts: { webhooks?: boolean } = {}): PlatformSchedule[] {
  const schedules = [housekeepingSchedule(config)];
  if (opts.webhooks && config.webhooks?.compactor.enabled) {
    const webhooks = { temporal: config.temporal, webhooks: config.webhooks };
    schedules.push(webhookSweepSchedule(webhooks), webhookRetentionSchedule(webhooks));
  }
  return schedules;
}

function checkInterval(s: PlatformSchedule): void {
  if (!Number.isFinite(s.everyMs) || s.everyMs < 1000) {
    // Temporal schedules run at most once a second; a 0 interval is a config mistake, not "as fast as possible".
    throw new Error(`schedule ${s.id}: interval must be at least 1000 ms, got ${s.everyMs}`);
  }
}

function actionOf(s: PlatformSchedule): ScheduleOptionsStartWorkflowAction<Workflow> {
  return { type: 'startWorkflow', workflowType: s.workflowType, workflowId: s.workflowId, args: s.args, taskQueue: s.taskQueue };
}

export async function registerSchedules(
  client: Client,
  schedules: PlatformSchedule[],
  log?: Pick<Logger, 'info'>,
): Promise<void> {
  for (const s of schedules) {
    checkInterval(s);
    const spec = { intervals: [{ every: s.everyMs }] };
    const overlap = s.overlap ?? ScheduleOverlapPolicy.SKIP;
    try {
      await client.schedule.create({ scheduleId: s.id, spec, action: actionOf(s), policies: { overlap } });
      log?.info({ schedule: s.id, everyMs: s.everyMs }, 'schedule created');
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      // Keep what an operator controls (paused state, notes); replace what config defines.
      await client.schedule.getHandle(s.id).update((prev) => ({
        ...prev,
        spec,
        action: actionOf(s),
        policies: { ...prev.policies, overlap },
      }));
      log?.info({ schedule: s.id, everyMs: s.everyMs }, 'schedule updated');
    }
  }
}
