/**
 * The activities of search indexing (workflows/search.ts): index one resource's latest state, embed
 * it for semantic search (when an embedding provider is configured), and the sweep's pass (rebuild
 * the folder entries; ask for indexing of resources whose record or vector lags, through the
 * resource job outbox like every write, so the dispatcher starts them).
 */
import { recordJobs } from '../shared/resources/index.js';
import { progress } from './heartbeat.js';
import { retryWhenPdfBusy } from './pdf-busy.js';
import {
  embedResource,
  indexResource,
  laggingResources,
  rulesFingerprint,
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
  /** Resources whose indexing was asked for (outbox rows) because their record (or their vector) lagged their head. */
  requested: number;
}

export interface SearchActivities {
  indexSearchResource(resourceId: string): Promise<SearchIndexOutcome>;
  /** After indexing: the resource's vector (status `off` without an embedder). */
  embedSearchResource(resourceId: string): Promise<SearchEmbedOutcome>;
  sweepSearchIndex(input: { batch: number }): Promise<IndexSweepOutcome>;
}

export function createSearchActivities(deps: SearchWorkerDeps): SearchActivities {
  const clock = deps.clock ?? (() => new Date());
  return {
    indexSearchResource: (resourceId) => retryWhenPdfBusy(() => indexResource(deps, resourceId)),
    embedSearchResource: (resourceId) => embedResource({ db: deps.db, embedder: deps.embedder }, resourceId, clock()),
    // Each step reports its progress (and a cancelled pass stops between two); the worker's beats cover a long one.
    async sweepSearchIndex({ batch }) {
      const unembedded = deps.embedder ? await unembeddedResources(deps.db, deps.embedder.model, batch) : [];
      progress({ step: 'unembedded found', unembedded: unembedded.length });
      const lagging = [...new Set([...(await laggingResources(deps.db, batch, rulesFingerprint(deps.config.resources.index))), ...unembedded])];
      progress({ step: 'lagging found', lagging: lagging.length });
      await recordJobs(deps.db, lagging.map((resourceId) => ({ kind: 'index' as const, resourceId, params: {} })), clock());
      progress({ step: 'indexing requested', lagging: lagging.length });
      const { entries } = await refreshFolderEntries(deps.db, clock());
      return { entries, requested: lagging.length };
    },
  };
}
