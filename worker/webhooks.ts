/**
 * The webhook compactor's Schedules (spec document 3, `webhooks.compactor.*`): a sweep every
 * `poll` and a retention pass every `retention_every`, on a worker whose `webhooks.compactor.enabled` is on. The settings travel as the sweep's argument,
 * so a changed key takes effect when the worker re-registers the schedule at its next start. Also
 * the client side of the webhook workflows (`webhookJobs`): the admin API's starts and the
 * removal's termination of a source's compactions.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { JobStart, WebhookJobs } from '../shared/webhooks/index.js';
import {
  compactWindow,
  compactWindowStart,
  compactWorkflowId,
  retryCompactionSignal,
  sourceRemovalStart,
  webhookSourceRemoval,
  type CompactorSettings,
  type WebhookRetentionSweepInput,
  type WebhookSweepInput,
} from '../workflows/webhooks.js';
import type { WorkerConfig } from './config.js';
import type { PlatformSchedule } from './schedules.js';

export const webhookSweepScheduleId = 'webhook-sweep';
export const webhookSweepWorkflowType = 'webhookSweep';
export const webhookRetentionScheduleId = 'webhook-retention';
export const webhookRetentionWorkflowType = 'webhookRetentionSweep';

/** `webhooks.compactor` (durations already parsed to ms). */
export interface CompactorConfig {
  enabled: boolean;
  grace: number;
  poll: number;
  lease: number;
  batch: number;
  retry_backoff: number;
  retention_every: number;
}

/** The task queue of the webhook activities: polled only by workers that compact. */
export function webhookActivityQueue(taskQueue: string): string {
  return `${taskQueue}-webhooks`;
}

export function compactorSettings(config: CompactorWorkerConfig): CompactorSettings {
  const { compactor } = config.webhooks;
  return {
    graceMs: compactor.grace,
    batch: compactor.batch,
    leaseMs: compactor.lease,
    retryBackoffMs: compactor.retry_backoff,
    activityQueue: webhookActivityQueue(config.temporal.task_queue),
  };
}

export type CompactorWorkerConfig = Pick<WorkerConfig, 'temporal'> & { webhooks: { compactor: CompactorConfig } };

/** A compactor Schedule: a fixed id, its interval, and the compactor settings as the pass's argument. */
function compactorSchedule(config: CompactorWorkerConfig, id: string, workflowType: string, everyMs: number): PlatformSchedule {
  const input: WebhookSweepInput & WebhookRetentionSweepInput = { settings: compactorSettings(config) };
  return { id, everyMs, workflowType, workflowId: id, args: [input], taskQueue: config.temporal.task_queue };
}

/** The compaction sweep, every `poll`. */
export function webhookSweepSchedule(config: CompactorWorkerConfig): PlatformSchedule {
  return compactorSchedule(config, webhookSweepScheduleId, webhookSweepWorkflowType, config.webhooks.compactor.poll);
}

/** The retention pass of every source, every `retention_every`. */
export function webhookRetentionSchedule(config: CompactorWorkerConfig): PlatformSchedule {
  return compactorSchedule(config, webhookRetentionScheduleId, webhookRetentionWorkflowType, config.webhooks.compactor.retention_every);
}

/** The custom search attributes webhook workflows carry (workflows/webhooks.ts), as Keyword. */
export const webhookSearchAttributes = ['WebhookSource', 'WebhookWindow'] as const;
/**
 * The webhook workflows started and stopped through a Temporal client (the admin API's retries
 * and deletions, the removal's first step), with the same ids, search attributes and inputs the
 * sweep gives them.
 */
export function webhookJobs(client: Pick<Client, 'workflow'>, config: CompactorWorkerConfig): WebhookJobs {
  const settings = compactorSettings(config);
  const taskQueue = config.temporal.task_queue;
  const started = async (start: Promise<unknown>): Promise<JobStart> => {
    try {
      await start;
      return 'started';
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return 'running';
      throw error;
    }
  };
  return {
    async compact(window) {
      const start = compactWindowStart(window, settings);
      // Running (failing, waiting for its next try): told to try again now. Closed meanwhile: started again.
      for (;;) {
        if ((await started(client.workflow.start(compactWindow, { taskQueue, ...start }))) === 'started') return 'started';
        try {
          await client.workflow.getHandle(start.workflowId).signal(retryCompactionSignal);
          return 'retried';
        } catch (error) {
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        }
      }
    },
    remove: (source) => started(client.workflow.start(webhookSourceRemoval, { taskQueue, ...sourceRemovalStart(source, settings) })),
    async stopCompactions(source, windows) {
      let stopped = 0;
      for (const window of windows) {
        try {
          await client.workflow.getHandle(compactWorkflowId({ source, ...window })).terminate('its webhook source is being removed');
          stopped++;
        } catch (error) {
          // Never started, or already closed.
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        }
      }
      return stopped;
    },
  };
}
