/**
 * The webhook workflows the admin API and the removal start or stop on Temporal (implemented over
 * a Temporal client in worker/webhooks.ts). Postgres stays the durable hand-off: a retried window
 * is due and a deleted source marked before any start is asked, so the sweep finds what a failed
 * start left.
 */
import type { RemovingSource } from './sources.js';
import type { WindowKey } from './window-rules.js';
import type { DueWindow } from './windows.js';

/**
 * `running`: a workflow of that id was already running, and is left alone; `retried`: it was
 * running and was told to try again now.
 */
export type JobStart = 'started' | 'running' | 'retried';

export interface WebhookJobs {
  /**
   * Starts the window's `compactWindow` now, with the input the sweep would give it; one running
   * (failing, waiting for its next try) is told to try again now instead.
   */
  compact(window: DueWindow): Promise<'started' | 'retried'>;
  /** Starts the source's `webhookSourceRemoval`. */
  remove(source: RemovingSource): Promise<JobStart>;
  /** Terminates the running `compactWindow` of each window (none running: nothing to do); answers how many were. */
  stopCompactions(source: string, windows: readonly WindowKey[]): Promise<number>;
}
