/**
 * Webhook windows on Temporal (spec document 3, "Webhook window"): the sweep, run by a Schedule
 * every `webhooks.compactor.poll`, starts a `compactWindow` workflow for each window due (ended
 * more than `grace` ago and not compacted, or owed another compaction), at most `batch` per pass.
 * Each window's workflow id is `webhook-compact:{source}:{dt}T{HH}:{MM}`, so one runs at a time per
 * window by construction and an operator finds a window's history by id or by its search
 * attributes. A deleted source is removed by `webhookSourceRemoval` (id `webhook-remove:{source}`),
 * started by the admin API and again by any sweep pass while the source is marked and its removal
 * not running. Deterministic: only @temporalio/workflow and activity types are imported.
 */
import { SearchAttributeType, WorkflowExecutionAlreadyStartedError, defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';
import {
  ActivityCancellationType,
  CancellationScope,
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  condition,
  defineSignal,
  isCancellation,
  proxyActivities,
  setHandler,
  startChild,
} from '@temporalio/workflow';
import type { WebhookActivities, WebhookWindowRef, CompactedWindow } from '../activities/webhooks.js';
import type { RetentionResult, RetentionSource } from '../shared/webhooks/retention.js';
import type { SourceRemovalResult } from '../shared/webhooks/removal.js';
import type { RemovingSource } from '../shared/webhooks/sources.js';
// Pure rules, safe in the workflow sandbox: the same cap the source page's next try is computed with.
import { MAX_RETRY_DELAY_MS, windowName } from '../shared/webhooks/window-rules.js';

/** Custom search attributes of webhook workflows (registered on the namespace by the worker). */
export const webhookSourceAttribute = defineSearchAttributeKey('WebhookSource', SearchAttributeType.KEYWORD);
export const webhookWindowAttribute = defineSearchAttributeKey('WebhookWindow', SearchAttributeType.KEYWORD);

export interface CompactorSettings {
  graceMs: number;
  batch: number;
  /** `webhooks.compactor.lease`: the activity's start-to-close timeout. */
  leaseMs: number;
  /** `webhooks.compactor.retry_backoff`: the first retry delay, doubling after each failure. */
  retryBackoffMs: number;
  /**
   * The task queue of the webhook activities, polled only by workers that compact
   * (`{temporal.task_queue}-webhooks`): a replica with the compactor off never takes their tasks.
   */
  activityQueue: string;
}

/** `webhook-compact:{source}:{dt}T{HH}:{MM}`. */
export function compactWorkflowId(w: Pick<WebhookWindowRef, 'source' | 'dt' | 'hour' | 'minute'>): string {
  return `webhook-compact:${w.source}:${windowName(w)}`;
}

/**
 * The long webhook activities: `lease` to finish, a heartbeat per step (a silent worker is presumed
 * dead well before the lease ends), retried from `retry_backoff`, doubling, at most an hour apart.
 */
function leasedActivities(settings: CompactorSettings, maximumAttempts?: number) {
  return proxyActivities<WebhookActivities>({
    taskQueue: settings.activityQueue,
    // A cancelled try (an administrator's retry) is over before the next one starts: never two at once.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    startToCloseTimeout: settings.leaseMs,
    heartbeatTimeout: Math.min(settings.leaseMs, 60_000),
    retry: {
      initialInterval: settings.retryBackoffMs,
      backoffCoefficient: 2,
      maximumInterval: Math.max(MAX_RETRY_DELAY_MS, settings.retryBackoffMs),
      ...(maximumAttempts !== undefined ? { maximumAttempts } : {}),
    },
  });
}

export interface CompactWindowInput {
  window: WebhookWindowRef;
  settings: CompactorSettings;
}

/**
 * How a window's compaction is started, by the sweep (as its child) or by an administrator's
 * retry (through a client): its id, search attributes and input.
 */
export function compactWindowStart(window: WebhookWindowRef, settings: CompactorSettings) {
  return {
    workflowId: compactWorkflowId(window),
    typedSearchAttributes: [
      { key: webhookSourceAttribute, value: window.source },
      { key: webhookWindowAttribute, value: windowName(window) },
    ] as SearchAttributePair[],
    args: [{ window, settings }] as [CompactWindowInput],
  };
}

/** An administrator's retry of a window whose compaction is running: its next try starts now. */
export const retryCompactionSignal = defineSignal('retryCompaction');

/**
 * Compacts one window: one activity, retried with a growing delay (from retry_backoff, doubling,
 * at most an hour apart) until it succeeds; each failed try records itself on the window (reason,
 * attempts, next try) so the source page shows it failing. `retryCompaction` cuts the wait short:
 * the activity (waiting for its next try, or at its next heartbeat) is cancelled and started
 * afresh, its attempts counted from 1 again.
 */
export async function compactWindow(input: CompactWindowInput): Promise<CompactedWindow> {
  const { settings } = input;
  const { compactWebhookWindow } = leasedActivities(settings);
  let retries = 0;
  setHandler(retryCompactionSignal, () => void retries++);
  for (;;) {
    const asked = retries;
    const scope = new CancellationScope();
    const compaction = scope.run(() => compactWebhookWindow(input.window, settings.retryBackoffMs));
    const retried = await Promise.race([compaction.then(() => false), condition(() => retries > asked).then(() => true)]);
    if (!retried) return compaction;
    scope.cancel();
    try {
      // The try under way may still finish: then that is the result.
      return await compaction;
    } catch (error) {
      if (!isCancellation(error)) throw error;
    }
  }
}

export interface WebhookSweepInput {
  settings: CompactorSettings;
}

export interface WebhookSweepResult {
  /** Workflows started: compactions, and removals of deleted sources. */
  started: string[];
  /** Workflows still running (a compaction or its retries, a removal). */
  running: string[];
}

/** The sweeps' one short activity (find what is due), on the webhook activities' queue. */
function sweepActivities(settings: CompactorSettings) {
  return proxyActivities<WebhookActivities>({
    taskQueue: settings.activityQueue,
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
  });
}

/** Child options of a pass's workflows: detached (they outlive the pass), their id reused once its last run closed. */
function detached(workflowId: string, typedSearchAttributes: SearchAttributePair[]) {
  return { workflowId, parentClosePolicy: ParentClosePolicy.ABANDON, workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE, typedSearchAttributes };
}

/** Notes a child as started, or as still running from before (its id taken): that one is left alone. */
async function noteStart(workflowId: string, start: Promise<unknown>, result: WebhookSweepResult): Promise<void> {
  try {
    await start;
    result.started.push(workflowId);
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    result.running.push(workflowId);
  }
}

/**
 * One pass: finds the windows due and starts their compactions, then starts the removal of every
 * deleted source whose removal is not running — the mark in Postgres is the durable hand-off, so
 * a removal the admin API could not start (or that stopped) is started here.
 */
export async function webhookSweep(input: WebhookSweepInput): Promise<WebhookSweepResult> {
  const activities = sweepActivities(input.settings);
  const due = await activities.dueWebhookWindows(input.settings.graceMs, input.settings.batch);
  const result: WebhookSweepResult = { started: [], running: [] };
  for (const window of due) {
    // A window compacted before may be owed another compaction: its id is reused.
    const start = compactWindowStart(window, input.settings);
    await noteStart(start.workflowId, startChild(compactWindow, { ...detached(start.workflowId, start.typedSearchAttributes), args: start.args }), result);
  }
  for (const source of await activities.webhookSourcesRemoving()) {
    const start = sourceRemovalStart(source, input.settings);
    await noteStart(start.workflowId, startChild(webhookSourceRemoval, { ...detached(start.workflowId, start.typedSearchAttributes), args: start.args }), result);
  }
  return result;
}

/** `webhook-retention:{source}`. */
export function retentionWorkflowId(source: string): string {
  return `webhook-retention:${source}`;
}

export interface WebhookRetentionSweepInput {
  settings: CompactorSettings;
}

/**
 * The retention Schedule's pass (every `webhooks.compactor.retention_every`): one detached
 * `webhookRetention` per source, id `webhook-retention:{source}` (one at a time per source).
 */
export async function webhookRetentionSweep(input: WebhookRetentionSweepInput): Promise<WebhookSweepResult> {
  const sources = await sweepActivities(input.settings).webhookRetentionSources();
  const result: WebhookSweepResult = { started: [], running: [] };
  for (const source of sources) {
    const workflowId = retentionWorkflowId(source.name);
    const attributes = [{ key: webhookSourceAttribute, value: source.name }];
    await noteStart(workflowId, startChild(webhookRetention, { ...detached(workflowId, attributes), args: [{ source, settings: input.settings }] }), result);
  }
  return result;
}

export interface WebhookRetentionInput {
  source: RetentionSource;
  settings: CompactorSettings;
}

/**
 * One source's retention pass. Each step is recorded as it is done, so a pass that fails (after
 * its retries) or is stopped leaves nothing half-way that the next pass does not finish.
 */
export async function webhookRetention(input: WebhookRetentionInput): Promise<RetentionResult> {
  // Five tries: whatever is left, the next scheduled pass finishes.
  const { applyWebhookRetention } = leasedActivities(input.settings, 5);
  return applyWebhookRetention(input.source);
}

/** `webhook-remove:{source}`. */
export function removalWorkflowId(source: string): string {
  return `webhook-remove:${source}`;
}

export interface WebhookSourceRemovalInput {
  source: RemovingSource;
  settings: CompactorSettings;
}

/** How a source's removal is started, by the admin API (through a client) or by the sweep (as its child). */
export function sourceRemovalStart(source: RemovingSource, settings: CompactorSettings) {
  return {
    workflowId: removalWorkflowId(source.name),
    typedSearchAttributes: [{ key: webhookSourceAttribute, value: source.name }] as SearchAttributePair[],
    args: [{ source, settings }] as [WebhookSourceRemovalInput],
  };
}

/**
 * Removes a deleted source (shared/webhooks/removal.ts): its running compactions terminated (and
 * any later try refused by the activity), then its windows, tables, leftover segments and row,
 * each step recorded or repeatable. Retried without end like a compaction: a source marked for
 * removal is removed.
 */
export async function webhookSourceRemoval(input: WebhookSourceRemovalInput): Promise<SourceRemovalResult> {
  const { stopWebhookCompactions, removeWebhookSource } = leasedActivities(input.settings);
  await stopWebhookCompactions(input.source);
  return removeWebhookSource(input.source);
}
