/**
 * Retention steps run by the `housekeeping` workflow. Each task kind is one activity whose name is
 * the task's `name`, taking the task itself as its argument: a new retention job is one more member
 * of `HousekeepingTask`, one more activity here, and one more entry in `housekeepingTasks(config)`.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { purgeAuditLog } from '../shared/audit/index.js';
import { purgeUsedAnswers } from '../shared/botcheck/index.js';
import type { Db } from '../shared/db/index.js';
import { purgeEndpointFailures } from '../shared/endpoints/index.js';
import type { Logger } from '../shared/logging/index.js';
import { databaseOAuthStore, type RetentionPolicy } from '../shared/oauth/index.js';

/** Remove MCP sessions past their lifetime (`sessions.ttl`) or idle too long (`sessions.idle_timeout`). */
export interface PurgeExpiredSessionsTask {
  name: 'purgeExpiredSessions';
  ttlMs: number;
  idleTimeoutMs: number;
}

/** Remove audit rows older than `audit.retention_days`, oldest first, in batches. */
export interface PurgeAuditLogTask {
  name: 'purgeAuditLog';
  retentionDays: number;
  /** Rows per DELETE (default 10,000). */
  batchSize?: number;
  /** DELETE statements per run (default 100); a bigger backlog continues at the next run. */
  maxBatches?: number;
}

/**
 * Remove the OAuth server's expired records (authorization states, codes, refresh families) and
 * Dynamic Client Registrations past their retention (oauth.enabled with a database).
 */
export interface PurgeOAuthRecordsTask extends RetentionPolicy {
  name: 'purgeOAuthRecords';
}

/**
 * Remove the bot check's used answers once expired (plus USED_ANSWER_GRACE_SECONDS, for replicas'
 * clocks): an expired answer is refused for its expiry, so its row is no longer needed.
 */
export interface PurgeBotCheckAnswersTask {
  name: 'purgeBotCheckAnswers';
}

/** Remove scripted endpoints' failed-request records past their seven days (docs/endpoints.md). */
export interface PurgeEndpointFailuresTask {
  name: 'purgeEndpointFailures';
}

/** Every retention task the workflow knows; discriminated by `name` (= activity name). */
export type HousekeepingTask = PurgeExpiredSessionsTask | PurgeAuditLogTask | PurgeOAuthRecordsTask | PurgeBotCheckAnswersTask | PurgeEndpointFailuresTask;

export interface TaskOutcome {
  /** Rows (or objects) removed by this pass. */
  removed: number;
}

/** One activity per task kind, keyed by the task's name. */
export type HousekeepingActivities = {
  [T in HousekeepingTask as T['name']]: (task: T) => Promise<TaskOutcome>;
};

export interface ActivityDeps {
  db: Db;
  log: Pick<Logger, 'info' | 'warn'>;
}

/** A retention window must be a positive number of ms: 0 or garbage would delete live rows, so fail closed. */
function windowMs(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw ApplicationFailure.nonRetryable(`${what} must be a positive number of milliseconds, got ${String(value)}`, 'InvalidHousekeepingTask');
  }
  return Math.round(value);
}

export function createHousekeepingActivities({ db, log }: ActivityDeps): HousekeepingActivities {
  return {
    async purgeExpiredSessions(task) {
      const ttl = windowMs(task.ttlMs, 'sessions.ttl');
      const idle = windowMs(task.idleTimeoutMs, 'sessions.idle_timeout');
      // The database clock decides, so every replica and worker agrees on what has expired.
      const res = await db.query(
        `DELETE FROM mcp_sessions
          WHERE created_at < now() - $1::bigint * interval '1 millisecond'
             OR last_seen_at < now() - $2::bigint * interval '1 millisecond'`,
        [ttl, idle],
      );
      const removed = res.rowCount ?? 0;
      if (removed > 0) log.info({ task: task.name, removed }, 'housekeeping removed expired sessions');
      return { removed };
    },
    async purgeAuditLog(task) {
      let result;
      try {
        result = await purgeAuditLog(db, {
          retentionDays: task.retentionDays,
          ...(task.batchSize !== undefined ? { batchSize: task.batchSize } : {}),
          ...(task.maxBatches !== undefined ? { maxBatches: task.maxBatches } : {}),
        });
      } catch (err) {
        // A bad window is a config bug: retrying cannot fix it, and guessing could delete live rows.
        if (err instanceof RangeError) throw ApplicationFailure.nonRetryable(err.message, 'InvalidHousekeepingTask');
        throw err;
      }
      if (result.removed > 0) log.info({ task: task.name, removed: result.removed, more: result.more }, 'housekeeping removed old audit rows');
      return { removed: result.removed };
    },
    async purgeOAuthRecords(task) {
      const retention = {
        unusedClientMs: windowMs(task.unusedClientMs, 'unusedClientMs'),
        idleClientMs: windowMs(task.idleClientMs, 'idleClientMs'),
      };
      // The records carry their own expiry; this worker's clock decides, as the api's does.
      const removed = await databaseOAuthStore(db).purgeExpired(Date.now(), retention);
      if (removed > 0) log.info({ task: task.name, removed }, 'housekeeping removed expired OAuth records');
      return { removed };
    },
    async purgeBotCheckAnswers(task) {
      const removed = await purgeUsedAnswers(db);
      if (removed > 0) log.info({ task: task.name, removed }, 'housekeeping removed expired bot-check answers');
      return { removed };
    },
    async purgeEndpointFailures(task) {
      const removed = await purgeEndpointFailures(db, new Date());
      if (removed > 0) log.info({ task: task.name, removed }, 'housekeeping removed endpoint failed-request records past seven days');
      return { removed };
    },
  };
}
