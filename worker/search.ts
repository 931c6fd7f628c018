/**
 * The Temporal side of search indexing (workflows/search.ts): the activities' task queue and the
 * `index-sweep` Schedule (every 5 minutes: the spec's bound for a folder description to reach
 * search). indexResource itself is started by the resource job dispatcher (kind `index`).
 */
import type { IndexSweepInput } from '../workflows/search.js';
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
