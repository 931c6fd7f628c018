import type { HousekeepingTask } from '../activities/index.js';
import { auditActive, type PlatformConfig } from '../shared/config/index.js';
import { oauthRetention } from '../shared/oauth/index.js';
import type { HousekeepingInput } from '../workflows/index.js';
import type { WorkerConfig } from './config.js';
import type { PlatformSchedule } from './schedules.js';

/** Fixed ids: one housekeeping schedule per namespace, however many workers register it. */
export const housekeepingScheduleId = 'housekeeping';
export const housekeepingWorkflowType = 'housekeeping';

/**
 * What housekeeping reads: the worker's slice plus, optionally, the keys that switch audit and OAuth
 * retention on. They are optional so a worker config without them (as in older tests) simply has no
 * such task; the CLI passes the full PlatformConfig.
 */
export type HousekeepingConfig = Pick<WorkerConfig, 'sessions'> & Partial<Pick<PlatformConfig, 'audit' | 'database' | 'oauth'>>;

/**
 * The retention tasks a housekeeping run performs, from config. A new retention job adds its entry
 * here (plus its activity in activities/housekeeping.ts).
 */
export function housekeepingTasks(config: HousekeepingConfig): HousekeepingTask[] {
  const tasks: HousekeepingTask[] = [
    // Run whatever sessions.store says: with `memory` the table is simply empty, and rows left from
    // an earlier `database` setup still age out.
    { name: 'purgeExpiredSessions', ttlMs: config.sessions.ttl, idleTimeoutMs: config.sessions.idle_timeout },
  ];
  // auditActive only reads audit.enabled and database.dsn. Retention follows audit.enabled, not
  // log_tool_calls: rows written before log_tool_calls was switched off still age out.
  if (config.audit && config.database && auditActive({ audit: config.audit, database: config.database } as PlatformConfig)) {
    tasks.push({ name: 'purgeAuditLog', retentionDays: config.audit.retention_days });
  }
  // Without a database the OAuth server keeps its records in memory and the api sweeps them itself.
  if (config.oauth?.enabled && config.database?.dsn !== undefined) {
    tasks.push({ name: 'purgeOAuthRecords', ...oauthRetention });
  }
  // The bot check records the answers it accepted in the platform database (docs/botcheck.md).
  // So do scripted endpoints their failed requests, kept seven days (docs/endpoints.md).
  if (config.database?.dsn !== undefined) tasks.push({ name: 'purgeBotCheckAnswers' }, { name: 'purgeEndpointFailures' });
  return tasks;
}

export function housekeepingSchedule(config: HousekeepingConfig & Pick<WorkerConfig, 'temporal'>): PlatformSchedule {
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
