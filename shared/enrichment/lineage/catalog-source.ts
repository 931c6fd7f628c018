/**
 * LineageSource over the DataHub client: schemas and fine-grained column lineage are read in
 * batches (every dataset asked for in the same tick — one hop of an inheritance run, or several
 * runs at once — goes in one `entities(urns:)` request), table-level upstreams through
 * searchAcrossLineage at depth 1. Text is passed on as the catalog holds it: whoever puts
 * inherited columns into a block sanitises them (sanitize.ts `sanitizeColumn`).
 */
import type { CatalogClient, ColumnLineage, DatasetSchema, SchemaField } from '../../catalog/index.js';
import { CachedLineageSource } from './cache.js';
import type { ColumnContext, ColumnEdge, LineageSettings, LineageSource, UpstreamLineage } from './types.js';

/** Datasets one batched request names at most. */
export const maxBatchUrns = 50;

/** The column name of a field path: its last dot segment (`[version=2.0].[type=string].email` → `email`; toolkits.md 5.9). */
export function columnName(fieldPath: string): string {
  return fieldPath.slice(fieldPath.lastIndexOf('.') + 1);
}

function columnContextOf(field: SchemaField): ColumnContext {
  return {
    name: columnName(field.field_path),
    ...(field.description ? { description: field.description } : {}),
    glossary_terms: field.glossary_terms ?? [],
    tags: (field.tags ?? []).map((t) => t.name),
  };
}

function edgesOf(lineage: ColumnLineage): ColumnEdge[] {
  return lineage.mappings
    .filter((m) => m.upstream_dataset.startsWith('urn:li:dataset:'))
    .map((m) => ({ downstream: columnName(m.downstream_column), upstream: { urn: m.upstream_dataset, column: columnName(m.upstream_column) } }));
}

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
}

/**
 * Collects the URNs asked for within one tick and loads them together (in chunks of
 * `maxBatchUrns`). The request carries the callers' abort signal when they all share one.
 */
class UrnBatcher<V> {
  #pending = new Map<string, Waiter<V>[]>();

  constructor(private readonly load: (urns: string[], signal: AbortSignal | undefined) => Promise<Map<string, V>>) {}

  get(urn: string, signal: AbortSignal | undefined): Promise<V | undefined> {
    if (this.#pending.size === 0) queueMicrotask(() => this.#flush());
    return new Promise((resolve, reject) => {
      const waiters = this.#pending.get(urn) ?? [];
      waiters.push({ resolve, reject, signal });
      this.#pending.set(urn, waiters);
    });
  }

  #flush(): void {
    const pending = [...this.#pending];
    this.#pending = new Map();
    for (let i = 0; i < pending.length; i += maxBatchUrns) {
      const chunk = pending.slice(i, i + maxBatchUrns);
      const signals = new Set(chunk.flatMap(([, waiters]) => waiters.map((w) => w.signal)));
      const signal = signals.size === 1 ? [...signals][0] : undefined;
      this.load(
        chunk.map(([urn]) => urn),
        signal,
      ).then(
        (found) => chunk.forEach(([urn, waiters]) => waiters.forEach((w) => w.resolve(found.get(urn)))),
        (error: unknown) => chunk.forEach(([, waiters]) => waiters.forEach((w) => w.reject(error))),
      );
    }
  }
}

export interface CatalogLineageOptions {
  /** `semantic.lineage.prefer_column_lineage`: without it fine-grained lineage is never read. */
  columnLineage: boolean;
}

export class CatalogLineageSource implements LineageSource {
  readonly #schemas: UrnBatcher<DatasetSchema>;
  readonly #columnLineage: UrnBatcher<ColumnLineage>;

  constructor(
    private readonly client: CatalogClient,
    private readonly options: CatalogLineageOptions,
  ) {
    this.#schemas = new UrnBatcher((urns, signal) => client.getSchemas(urns, { signal }));
    this.#columnLineage = new UrnBatcher((urns, signal) => client.getColumnLineages(urns, { signal }));
  }

  async datasetColumns(urn: string, signal?: AbortSignal): Promise<ColumnContext[] | null> {
    const found = await this.#schemas.get(urn, signal);
    return found ? (found.schema?.fields ?? []).map(columnContextOf) : null;
  }

  async upstreams(urn: string, signal?: AbortSignal): Promise<UpstreamLineage> {
    const [graph, columns] = await Promise.all([
      this.client.getLineage(urn, { direction: 'UPSTREAM', depth: 1 }, { signal }),
      this.options.columnLineage ? this.#columnLineage.get(urn, signal) : undefined,
    ]);
    const datasets = graph.nodes.filter((n) => n.level === 1 && n.urn.startsWith('urn:li:dataset:')).map((n) => n.urn);
    return { datasets, columns: columns ? edgesOf(columns) : [] };
  }
}

/** The lineage source enrichment uses: the catalog behind a cache of `cache_ttl`. */
export function catalogLineageSource(client: CatalogClient, settings: LineageSettings, clock?: () => number): LineageSource {
  return new CachedLineageSource(new CatalogLineageSource(client, { columnLineage: settings.prefer_column_lineage }), { ttlMs: settings.cache_ttl, clock });
}
