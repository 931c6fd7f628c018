/**
 * Search indexing (docs/resources.md, "Search indexing"). `indexResource` (id `index:{resourceId}`)
 * is started by signal-with-start of `reindex`, so a burst of writes to one resource coalesces into
 * one run: it indexes the resource's latest state (and embeds it, when semantic search is on), and
 * once more if `reindex` arrived meanwhile, then ends. `indexSweep` (a Schedule, every 5 minutes) rebuilds the folder entries and starts
 * indexing for every resource whose record or vector lags its head (what a lost hand-off missed). The
 * activities run on the task queue `{queue}-search`, polled only by workers that index.
 * Deterministic: only @temporalio/workflow and activity types are imported.
 */
import { ActivityFailure, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { IndexSweepOutcome, SearchActivities, SearchIndexOutcome } from '../activities/search.js';

export const reindexSignal = defineSignal('reindex');

export function indexWorkflowId(resourceId: string): string {
  return `index:${resourceId}`;
}

export interface IndexResourceInput {
  resourceId: string;
}

export interface IndexSweepInput {
  /** Lagging resources started per pass (the rest wait for the next). */
  batch: number;
}

function activities(startToCloseTimeout: string, maximumAttempts = 5) {
  return proxyActivities<SearchActivities>({
    taskQueue: `${workflowInfo().taskQueue}-search`,
    startToCloseTimeout,
    // A pass on a lost or stalled worker is retried after this (the activities beat every 10 s), not after its
    // whole start-to-close timeout — which for the sweep also skipped the Schedule's next runs.
    heartbeatTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts },
  });
}

/** Indexes the resource's latest state until no `reindex` is pending; the last pass's outcome. */
export async function indexResource(input: IndexResourceInput): Promise<SearchIndexOutcome> {
  const { indexSearchResource } = activities('5 minutes');
  let pending = false;
  setHandler(reindexSignal, () => {
    pending = true;
  });
  // A pass that finds the same head indexed the same way records nothing, so a signal counted twice
  // (the start's own) costs one cheap pass at most.
  let outcome: SearchIndexOutcome;
  do {
    pending = false;
    outcome = await indexSearchResource(input.resourceId);
    if (outcome.status !== 'gone') await embedQuietly(input.resourceId);
  } while (pending && outcome.status !== 'gone');
  return outcome;
}

/**
 * Embeds the resource for semantic search, after indexing. A provider that stays down does not fail
 * the run (the lexical index is recorded): the sweep finds the missing vector and starts it again.
 */
async function embedQuietly(resourceId: string): Promise<void> {
  // Fewer attempts than indexing: an unembedded file is still found lexically, and the sweep retries it.
  const { embedSearchResource } = activities('2 minutes', 3);
  try {
    await embedSearchResource(resourceId);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
  }
}

export async function indexSweep(input: IndexSweepInput): Promise<IndexSweepOutcome> {
  const { sweepSearchIndex } = activities('10 minutes');
  return sweepSearchIndex({ batch: input.batch });
}
