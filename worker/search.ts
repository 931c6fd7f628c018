/**
 * The Temporal side of search indexing (workflows/search.ts): the activities' task queue, the
 * `index-sweep` Schedule (every 5 minutes: the spec's bound for a folder description to reach
 * search) and the client call that starts or signals one resource's indexing.
 */
import type { Client } from '@temporalio/client';
import { indexResource, indexWorkflowId, reindexSignal, type IndexResourceInput, type IndexSweepInput } from '../workflows/search.js';
import type { PlatformSchedule } from './schedules.js';

export const indexSweepScheduleId = 'index-sweep';
const sweepEveryMs = 5 * 60_000;
/** Lagging resources one sweep starts; a backlog larger than this drains over several passes. */
const sweepBatch = 500;

/** The task queue of the search activities: polled only by workers that index. */
export function searchActivityQueue(taskQueue: string): string {
  return `${taskQueue}-search`;
}

export function indexSweepSchedule(taskQueue: string): PlatformSchedule {
  const input: IndexSweepInput = { batch: sweepBatch };
  return { id: indexSweepScheduleId, everyMs: sweepEveryMs, workflowType: 'indexSweep', workflowId: indexSweepScheduleId, args: [input], taskQueue };
}

/**
 * Starts the resource's `index:{id}` run, or signals the one running (signal-with-start of
 * `reindex`): a burst of requests coalesces into one run that indexes the latest state.
 */
export function searchJobs(client: Pick<Client, 'workflow'>, taskQueue: string): { startIndexing(resourceId: string): Promise<void> } {
  return {
    async startIndexing(resourceId) {
      await client.workflow.signalWithStart(indexResource, {
        workflowId: indexWorkflowId(resourceId),
        taskQueue,
        args: [{ resourceId }] as [IndexResourceInput],
        signal: reindexSignal,
        signalArgs: [],
      });
    },
  };
}
