import { LookupCache } from '../cache.js';
import type { ColumnContext, LineageSource, UpstreamLineage } from './types.js';

export interface LineageCacheOptions {
  /** `semantic.lineage.cache_ttl` (ms). */
  ttlMs: number;
  /** Answers kept at most of each kind (schemas, lineage); past that the oldest goes. Default 1,000. */
  maxEntries?: number;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

const defaultMaxEntries = 1_000;

/**
 * A LineageSource that remembers answers for `cache_ttl` (the enrichment room's LookupCache), so
 * that the lineage around a table is read once for many queries. Lookups of one dataset in flight
 * at once share one request; failures are not remembered. The shared request runs without any one
 * caller's abort signal: a caller that stops waiting (its deadline) does not fail the others, and
 * the answer still arrives for the next query.
 */
export class CachedLineageSource implements LineageSource {
  readonly #columns: LookupCache<ColumnContext[] | null>;
  readonly #upstreams: LookupCache<UpstreamLineage>;

  constructor(
    private readonly source: LineageSource,
    options: LineageCacheOptions,
  ) {
    const cache = { ttlMs: options.ttlMs, maxEntries: options.maxEntries ?? defaultMaxEntries, now: options.clock };
    this.#columns = new LookupCache(cache);
    this.#upstreams = new LookupCache(cache);
  }

  datasetColumns(urn: string): Promise<ColumnContext[] | null> {
    return this.#columns.get(urn, () => this.source.datasetColumns(urn));
  }

  upstreams(urn: string): Promise<UpstreamLineage> {
    return this.#upstreams.get(urn, () => this.source.upstreams(urn));
  }
}
