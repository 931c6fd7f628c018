/**
 * Housekeeping: runs a list of retention tasks, each as its own activity with retries, and reports
 * how much each removed. Deterministic: only @temporalio/workflow and activity types are imported.
 * Started by the `housekeeping` Schedule; the task list (with its retention windows) is the
 * schedule's workflow argument, so a config change takes effect when the worker re-registers it.
 */
import { ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { HousekeepingActivities, HousekeepingTask, TaskOutcome } from '../activities/housekeeping.js';

export interface HousekeepingInput {
  tasks: HousekeepingTask[];
}

export interface HousekeepingTaskResult {
  name: string;
  removed?: number;
  error?: string;
}

export interface HousekeepingResult {
  results: HousekeepingTaskResult[];
}

const activities = proxyActivities<HousekeepingActivities>({
  // A retention pass is a handful of DELETEs; a stuck one is retried rather than left hanging.
  startToCloseTimeout: '5 minutes',
  // A worker lost mid-pass is noticed within this (the activity beats every 10 s), not after 5 minutes.
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

function runTask(task: HousekeepingTask): Promise<TaskOutcome> {
  // Activity name = task name; the mapped type guarantees the argument matches.
  const run = activities[task.name] as (t: HousekeepingTask) => Promise<TaskOutcome>;
  return run(task);
}

export async function housekeeping(input: HousekeepingInput): Promise<HousekeepingResult> {
  const results: HousekeepingTaskResult[] = [];
  // Tasks are independent: one failing (after its retries) must not starve the others.
  for (const task of input.tasks) {
    try {
      const { removed } = await runTask(task);
      results.push({ name: task.name, removed });
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
      results.push({ name: task.name, error: cause instanceof Error ? cause.message : String(cause) });
    }
  }
  const failed = results.filter((r) => r.error !== undefined);
  if (failed.length > 0) {
    log.warn('housekeeping tasks failed', { failed: failed.map((f) => f.name) });
    // Fail the run so it shows in the Temporal UI; the next scheduled run tries again.
    throw ApplicationFailure.nonRetryable(
      `housekeeping: ${failed.length} of ${results.length} task(s) failed: ${failed.map((f) => `${f.name}: ${f.error}`).join('; ')}`,
      'HousekeepingTaskFailed',
      { results },
    );
  }
  return { results };
}
