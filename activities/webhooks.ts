/**
 * The activities of webhook windows (workflows/webhooks.ts): finding the windows due, and
 * compacting one (shared/webhooks/compaction.ts) with its bookkeeping — success and failures
 * recorded on the window (shared/webhooks/windows.ts) and counted in the compaction metrics.
 */
import { Context } from '@temporalio/activity';

/** A window as the workflows name it. */
export interface WebhookWindowRef {
  sourceId: string;
  source: string;
  dt: string;
  hour: string;
  minute: string;
}

export interface CompactedWindow {
  resourceId: string;
  version: number;
  events: number;
  duplicatesDropped: number;
  /** False when the file already held exactly this content (a retry after a crash). */
  created: boolean;
}

export interface WebhookActivities {
  /** Windows ended more than `graceMs` ago and not compacted, or owed another compaction; oldest first. */
  dueWebhookWindows(graceMs: number, limit: number): Promise<WebhookWindowRef[]>;
  /** Compacts a window; a failure is recorded (with the next try `retryBackoffMs` × 2^(attempt−1) away) and rethrown. */
  compactWebhookWindow(window: WebhookWindowRef, retryBackoffMs: number): Promise<CompactedWindow>;
}

/** The activity's attempt number (1 for the first try), or 1 outside an activity. */
export function currentAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}
