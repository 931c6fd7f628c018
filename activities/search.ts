/**
 * The activities of search indexing (workflows/search.ts): index one resource's latest state, embed
 * it for semantic search (when an embedding provider is configured), and the sweep's pass (rebuild
 * the folder entries, start indexing of resources whose record or vector lags).
 */
import {
  embedResource,
  indexResource,
  laggingResources,
  refreshFolderEntries,
  unembeddedResources,
  type Embedder,
  type EmbedOutcome,
  type IndexerDeps,
  type IndexOutcome,
} from '../shared/search/index.js';

export type SearchIndexOutcome = IndexOutcome;
export type SearchEmbedOutcome = EmbedOutcome;

/** What a worker that indexes needs: the indexer's dependencies, and the embedder when semantic search is on. */
export type SearchWorkerDeps = IndexerDeps & { embedder?: Embedder };

export interface IndexSweepOutcome {
  /** Folder entries after the pass. */
  entries: number;
  /** Resources whose indexing was started (or signalled) because their record (or their vector) lagged their head. */
  started: number;
}

export interface SearchActivities {
  indexSearchResource(resourceId: string): Promise<SearchIndexOutcome>;
  /** After indexing: the resource's vector (status `off` without an embedder). */
  embedSearchResource(resourceId: string): Promise<SearchEmbedOutcome>;
  sweepSearchIndex(input: { batch: number }): Promise<IndexSweepOutcome>;
}

export interface SearchActivityDeps extends IndexerDeps {
  embedder?: Embedder;
  /** Starts (or signals) the resource's `index:{id}` workflow. */
  startIndexing(resourceId: string): Promise<void>;
}

export function createSearchActivities(deps: SearchActivityDeps): SearchActivities {
  const clock = deps.clock ?? (() => new Date());
  return {
    indexSearchResource: (resourceId) => indexResource(deps, resourceId),
    embedSearchResource: (resourceId) => embedResource({ db: deps.db, embedder: deps.embedder }, resourceId, clock()),
    async sweepSearchIndex({ batch }) {
      const unembedded = deps.embedder ? await unembeddedResources(deps.db, deps.embedder.model, batch) : [];
      const lagging = [...new Set([...(await laggingResources(deps.db, batch)), ...unembedded])];
      for (const id of lagging) await deps.startIndexing(id);
      const { entries } = await refreshFolderEntries(deps.db, clock());
      return { entries, started: lagging.length };
    },
  };
}
