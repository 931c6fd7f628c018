/**
 * The activities of webhook windows (workflows/webhooks.ts): finding the windows due, compacting
 * one with its bookkeeping, the retention pass of a source (shared/webhooks/retention.ts) — success and each failed try recorded on the window (so the
 * source page shows it failing, with its next try) and counted in the compaction metrics — and
 * the removal of a deleted source (shared/webhooks/removal.ts).
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { progress } from './heartbeat.js';
import { retryDelayMs, type RemovingSource, type RetentionResult, type RetentionSource, type SourceRemovalResult, type WebhookMetrics } from '../shared/webhooks/index.js';

/** A window as the workflows carry it (shared/webhooks/windows.ts DueWindow); `landedSeq` is the landing seen when it was found due. */
export interface WebhookWindowRef {
  sourceId: string;
  source: string;
  connection: string;
  persona: string;
  dt: string;
  hour: string;
  minute: string;
  landedSeq: number;
  /** Duplicates its last compaction dropped: a compaction counts only the increase. */
  duplicatesDropped: number;
}

export interface CompactedWindow {
  resourceId: string;
  version: number;
  /** SHA-256 of the file: the same events give the same file, whichever try wrote it. */
  sha256: string;
  events: number;
  duplicatesDropped: number;
  /** False when the file already held exactly this content (a retry after a crash). */
  created: boolean;
}

export interface WebhookActivities {
  /** Every source with its retention settings. */
  webhookRetentionSources(): Promise<RetentionSource[]>;
  /** One retention pass over a source's windows (shared/webhooks/retention.ts); every step recorded. */
  applyWebhookRetention(source: RetentionSource): Promise<RetentionResult>;
  /** Windows ended more than `graceMs` ago and not compacted, or owed another compaction; oldest first. */
  dueWebhookWindows(graceMs: number, limit: number): Promise<WebhookWindowRef[]>;
  /**
   * Compacts a window; a failure is recorded (with its next try) and rethrown for Temporal to
   * retry. A window of a source being removed is refused at once, for good (not retried).
   */
  compactWebhookWindow(window: WebhookWindowRef, retryBackoffMs: number): Promise<CompactedWindow>;
  /** Sources marked for removal (the sweep starts the removal of each not running). */
  webhookSourcesRemoving(): Promise<RemovingSource[]>;
  /** Terminates the running compactions of a source being removed; answers how many ran. */
  stopWebhookCompactions(source: RemovingSource): Promise<number>;
  /** Removes a source being removed (shared/webhooks/removal.ts); every step recorded or repeatable. */
  removeWebhookSource(source: RemovingSource): Promise<SourceRemovalResult>;
}

/** What the webhook activities work with, composed by the worker's caller (cli/). */
export interface WebhookActivityDeps {
  retentionSources(): Promise<RetentionSource[]>;
  retention(source: RetentionSource, nowMs: number, heartbeat: (detail: unknown) => void): Promise<RetentionResult>;
  due(opts: { nowMs: number; graceMs: number; limit: number }): Promise<WebhookWindowRef[]>;
  /** Compacts the window: the file as a resource version and its partition registered (idempotent). */
  compact(window: WebhookWindowRef, heartbeat: (detail: unknown) => void): Promise<CompactedWindow>;
  /** Records a success: the window is compacted through `window.landedSeq`. */
  compacted(window: WebhookWindowRef, result: CompactedWindow, atMs: number): Promise<void>;
  /** Records a failed try and when the next one is due. */
  failed(window: WebhookWindowRef, failure: { error: string; attempt: number; nextTryAtMs: number; atMs: number }): Promise<void>;
  /** Whether the source is being removed (or gone). */
  isRemoving(sourceId: string): Promise<boolean>;
  removingSources(): Promise<RemovingSource[]>;
  stopCompactions(source: RemovingSource): Promise<number>;
  removeSource(source: RemovingSource, heartbeat: (detail: unknown) => void): Promise<SourceRemovalResult>;
  metrics: WebhookMetrics;
  now?: () => number;
}

export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const now = deps.now ?? Date.now;
  return {
    webhookRetentionSources: () => deps.retentionSources(),
    applyWebhookRetention: (source) => deps.retention(source, now(), progress),
    dueWebhookWindows: (graceMs, limit) => deps.due({ nowMs: now(), graceMs, limit }),
    async compactWebhookWindow(window, retryBackoffMs) {
      const context = Context.current();
      if (await deps.isRemoving(window.sourceId)) {
        throw ApplicationFailure.nonRetryable(`the webhook source ${window.source} is being removed: its windows are not compacted`, 'WebhookSourceRemoving');
      }
      try {
        // A compaction whose workflow was terminated (the source's removal) stops at its next progress.
        const result = await deps.compact(window, progress);
        await deps.compacted(window, result, now());
        deps.metrics.compactions.inc({ source: window.source, result: 'compacted' });
        // A recompaction drops the window's earlier duplicates again: only new ones are counted.
        deps.metrics.duplicatesDropped.inc({ source: window.source }, Math.max(0, result.duplicatesDropped - window.duplicatesDropped));
        return result;
      } catch (error) {
        // Stopped (its workflow terminated or timed out), not failed: nothing to record.
        if (context.cancellationSignal.aborted) throw error;
        const attempt = context.info.attempt;
        const at = now();
        deps.metrics.compactions.inc({ source: window.source, result: 'failed' });
        await deps.failed(window, { error: error instanceof Error ? error.message : String(error), attempt, nextTryAtMs: at + retryDelayMs(attempt, retryBackoffMs), atMs: at });
        throw error;
      }
    },
    webhookSourcesRemoving: () => deps.removingSources(),
    stopWebhookCompactions: (source) => deps.stopCompactions(source),
    removeWebhookSource: (source) => deps.removeSource(source, progress),
  };
}
