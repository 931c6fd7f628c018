import type { HousekeepingTask } from '../activities/index.js';
import type { HousekeepingInput } from '../workflows/index.js';
import type { WorkerConfig } from './config.js';
import type { PlatformSchedule } from './schedules.js';

/** Fixed ids: one housekeeping schedule per namespace, however many workers register it. */
export const housekeepingScheduleId = 'housekeeping';
export const housekeepingWorkflowType = 'housekeeping';

/**
 * The retention tasks a housekeeping run performs, from config. A new retention job adds its entry
 * here (plus its activity in activities/housekeeping.ts).
 */
export function housekeepingTasks(config: Pick<WorkerConfig, 'sessions'>): HousekeepingTask[] {
  return [
    // Run whatever sessions.store says: with `memory` the table is simply empty, and rows left from
    // an earlier `database` setup still age out.
    { name: 'purgeExpiredSessions', ttlMs: config.sessions.ttl, idleTimeoutMs: config.sessions.idle_timeout },
  ];
}

export function housekeepingSchedule(config: Pick<WorkerConfig, 'sessions' | 'temporal'>): PlatformSchedule {
  const input: HousekeepingInput = { tasks: housekeepingTasks(config) };
  return {
    id: housekeepingScheduleId,
    everyMs: config.sessions.cleanup_interval,
    workflowType: housekeepingWorkflowType,
    workflowId: housekeepingScheduleId,
    args: [input],
    taskQueue: config.temporal.task_queue,
  };
}
