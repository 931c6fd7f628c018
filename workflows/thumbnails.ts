/**
 * `drawThumbnail` (docs/resources.md, "Thumbnails"): draws the tile of one file version, started
 * by the resource job `thumbnail` as `thumb:{resourceId}:v{n}` (`:r{k}` for the k-th Recapture).
 * Three activities on `{task_queue}-thumbnails`: begin (the version still the head and drawable:
 * state drawing), draw (bytes → variants → objects), finish (drawn or failed, under the resource's
 * row lock). A file that cannot be drawn is an answer, not an error: recorded failed and never
 * retried. Storage or database errors are retried a few times (transient); when those run out the
 * draw is recorded failed too, so no resource stays `drawing`. Deterministic: only
 * @temporalio/workflow and activity types are imported.
 */
import { ActivityFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ThumbnailActivities } from '../activities/thumbnails.js';
import type { DrawOutcome } from '../shared/resources/thumbnails/drawer.js';

export interface DrawThumbnailInput {
  resourceId: string;
  version: number;
  /** Which Recapture of the version (0: its first draw). */
  recapture: number;
}

export type DrawThumbnailResult = { outcome: 'drawn' | 'failed' | 'gone' | 'superseded' } | { outcome: 'skipped'; why: 'gone' | 'superseded' | 'icon' };

/** The thumbnails' activity queue beside the platform queue the workflow runs on. */
export function thumbnailActivityQueue(taskQueue: string): string {
  return `${taskQueue}-thumbnails`;
}

export async function drawThumbnail(input: DrawThumbnailInput): Promise<DrawThumbnailResult> {
  const taskQueue = thumbnailActivityQueue(workflowInfo().taskQueue);
  // Transient failures only (storage, database): a few attempts, then the draw is recorded failed.
  const retry = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 };
  const steps = proxyActivities<ThumbnailActivities>({ taskQueue, startToCloseTimeout: '30 seconds', retry });
  // A draw on a lost or stalled worker is retried after the heartbeat timeout (the activity beats every 10 s).
  const { drawThumbnailTile } = proxyActivities<ThumbnailActivities>({ taskQueue, startToCloseTimeout: '2 minutes', heartbeatTimeout: '30 seconds', retry });
  const target = { resourceId: input.resourceId, version: input.version, recapture: input.recapture };

  const begun = await steps.beginThumbnail(target);
  if (!begun.draw) return { outcome: 'skipped', why: begun.why };
  let outcome: DrawOutcome;
  try {
    outcome = await drawThumbnailTile({ ...target, family: begun.family });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const variant = begun.family === 'svg' || begun.family === 'raster' || begun.family === 'pdf' ? 'image' : 'light';
    outcome = { ok: false, reason: `drawing failed after retries: ${err.cause?.message ?? err.message}`, variant };
  }
  return { outcome: await steps.finishThumbnail({ ...target, outcome }) };
}
