/**
 * The activities of search indexing (workflows/search.ts): index one resource's latest state, and
 * the sweep's pass (rebuild the folder entries; ask for indexing of resources whose record lags,
 * through the resource job outbox like every write, so the dispatcher starts them).
 */
import { recordJobs } from '../shared/resources/index.js';
import { indexResource, laggingResources, refreshFolderEntries, type IndexerDeps, type IndexOutcome } from '../shared/search/index.js';

export type SearchIndexOutcome = IndexOutcome;

export interface IndexSweepOutcome {
  /** Folder entries after the pass. */
  entries: number;
  /** Resources whose indexing was asked for (outbox rows) because their record lagged their head. */
  requested: number;
}

export interface SearchActivities {
  indexSearchResource(resourceId: string): Promise<SearchIndexOutcome>;
  sweepSearchIndex(input: { batch: number }): Promise<IndexSweepOutcome>;
}

export function createSearchActivities(deps: IndexerDeps): SearchActivities {
  const clock = deps.clock ?? (() => new Date());
  return {
    indexSearchResource: (resourceId) => indexResource(deps, resourceId),
    async sweepSearchIndex({ batch }) {
      const lagging = await laggingResources(deps.db, batch);
      await recordJobs(deps.db, lagging.map((resourceId) => ({ kind: 'index' as const, resourceId, params: {} })), clock());
      const { entries } = await refreshFolderEntries(deps.db, clock());
      return { entries, requested: lagging.length };
    },
  };
}
