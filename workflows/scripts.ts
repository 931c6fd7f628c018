/**
 * Scheduled runs of managed scripts (docs/scripts.md, "Schedules"): each script's Temporal Schedule
 * `script-schedule:{scriptId}` starts `runScript` with the workflow id prefix `script-run:{scriptId}`,
 * to which Temporal appends `-{scheduled time}` (so a run's id is fixed by its script and scheduled
 * time), the search attribute `ScriptName` and the script id in its memo. The run itself is one
 * activity on the scripts' own task queue (polled only by workers with a ScriptRunner). A run
 * whose script failed fails the workflow (not retried: the run is recorded once), so the Temporal
 * UI lists it failed and an administrator retries it from the admin API. Deterministic: only
 * @temporalio/workflow, @temporalio/common and activity types are imported.
 */
import { ApplicationFailure, SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ScheduledRunOutcome, ScriptActivities } from '../activities/scripts.js';

/** The script's name on each of its runs (registered on the namespace by the worker). */
export const scriptNameAttribute = defineSearchAttributeKey('ScriptName', SearchAttributeType.KEYWORD);
/** Set by Temporal on a workflow a Schedule started. */
const scheduledStartTime = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

export interface ScriptRunSettings {
  /** `{temporal.task_queue}-scripts`. */
  activityQueue: string;
  /** The activity's start-to-close timeout: `scripts.run_deadline` and room to record the run. */
  timeoutMs: number;
}

export interface RunScriptInput {
  scriptId: string;
  settings: ScriptRunSettings;
  /** An administrator's retry: the failed run it repeats (and that run's scheduled time). */
  retryOf?: { runId: string; scheduledAt: string };
}

/** Runs the script once, as its schedule (or a retry) asked; a skipped run (script not active, or deleted) succeeds with the reason. */
export async function runScript(input: RunScriptInput): Promise<ScheduledRunOutcome> {
  const { runScheduledScript } = proxyActivities<ScriptActivities>({
    taskQueue: input.settings.activityQueue,
    startToCloseTimeout: input.settings.timeoutMs,
    // A worker lost mid-run is noticed within this (the activity beats every 10 s), not after the script's timeout.
    heartbeatTimeout: '30 seconds',
    // Only a try that failed before recording its run is retried (the activity records last).
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 3 },
  });
  const info = workflowInfo();
  const scheduledAt = input.retryOf?.scheduledAt ?? (info.typedSearchAttributes.get(scheduledStartTime) ?? new Date(info.runStartTime)).toISOString();
  const outcome = await runScheduledScript({ scriptId: input.scriptId, scheduledAt, ...(input.retryOf ? { retryOf: input.retryOf.runId } : {}) });
  if (outcome.status !== 'ok' && outcome.status !== 'skipped') {
    throw ApplicationFailure.create({ message: `run ${outcome.run_id} ${outcome.status}: ${outcome.error ?? ''}`, type: 'ScriptRunFailed', nonRetryable: true, details: [outcome] });
  }
  return outcome;
}

export interface ReconcileScriptSchedulesInput {
  activityQueue: string;
}

/** The reconcile Schedule's pass: Temporal's script Schedules made to match the rows (worker/script-schedules.ts). */
export async function reconcileScriptSchedules(input: ReconcileScriptSchedulesInput): Promise<{ applied: number; deleted: number }> {
  const { reconcileScriptSchedules: reconcile } = proxyActivities<ScriptActivities>({
    taskQueue: input.activityQueue,
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: '30 seconds',
    retry: { maximumAttempts: 3 },
  });
  return reconcile();
}
