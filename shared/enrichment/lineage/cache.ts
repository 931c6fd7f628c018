import type { ColumnContext, LineageSource, UpstreamLineage } from './types.js';

export interface LineageCacheOptions {
  /** `semantic.lineage.cache_ttl` (ms). */
  ttlMs: number;
  /** Answers kept at most (schemas and lineage together); past that the least recently used goes. Default 2,000. */
  maxEntries?: number;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

const defaultMaxEntries = 2_000;

interface Entry {
  answer: Promise<unknown>;
  expiresAt: number;
}

/**
 * A LineageSource that remembers answers for `cache_ttl`, so that the lineage around a table is
 * read once for many queries. Lookups of the same dataset in flight at once share one request.
 * Failures are not remembered. The shared request runs without any one caller's abort signal:
 * a caller that stops waiting (its timeout) does not fail the others, and the answer still
 * arrives for the next query.
 */
export class CachedLineageSource implements LineageSource {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;

  constructor(
    private readonly source: LineageSource,
    options: LineageCacheOptions,
  ) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? defaultMaxEntries;
    this.#clock = options.clock ?? Date.now;
  }

  datasetColumns(urn: string): Promise<ColumnContext[] | null> {
    return this.#get(`columns\n${urn}`, () => this.source.datasetColumns(urn));
  }

  upstreams(urn: string): Promise<UpstreamLineage> {
    return this.#get(`upstreams\n${urn}`, () => this.source.upstreams(urn));
  }

  #get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const now = this.#clock();
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      if (now < entry.expiresAt) {
        this.#entries.set(key, entry);
        return entry.answer as Promise<T>;
      }
    }
    const answer = read();
    const fresh: Entry = { answer, expiresAt: now + this.#ttlMs };
    this.#entries.set(key, fresh);
    if (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    answer.catch(() => {
      if (this.#entries.get(key) === fresh) this.#entries.delete(key);
    });
    return answer;
  }
}
