/**
 * The activities of search indexing (workflows/search.ts): index one resource's latest state, and
 * the sweep's pass (rebuild the folder entries, start indexing of resources whose record lags).
 */
import { indexResource, laggingResources, refreshFolderEntries, type IndexerDeps, type IndexOutcome } from '../shared/search/index.js';

export type SearchIndexOutcome = IndexOutcome;

export interface IndexSweepOutcome {
  /** Folder entries after the pass. */
  entries: number;
  /** Resources whose indexing was started (or signalled) because their record lagged their head. */
  started: number;
}

export interface SearchActivities {
  indexSearchResource(resourceId: string): Promise<SearchIndexOutcome>;
  sweepSearchIndex(input: { batch: number }): Promise<IndexSweepOutcome>;
}

export interface SearchActivityDeps extends IndexerDeps {
  /** Starts (or signals) the resource's `index:{id}` workflow. */
  startIndexing(resourceId: string): Promise<void>;
}

export function createSearchActivities(deps: SearchActivityDeps): SearchActivities {
  const clock = deps.clock ?? (() => new Date());
  return {
    indexSearchResource: (resourceId) => indexResource(deps, resourceId),
    async sweepSearchIndex({ batch }) {
      const lagging = await laggingResources(deps.db, batch);
      for (const id of lagging) await deps.startIndexing(id);
      const { entries } = await refreshFolderEntries(deps.db, clock());
      return { entries, started: lagging.length };
    },
  };
}
