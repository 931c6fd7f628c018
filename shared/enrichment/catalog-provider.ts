/**
 * The semantic provider over the catalog client (`semantic.provider: catalog`, `semantic.instance`).
 * One `getSchema` per dataset answers both the table's context and its columns; answers (a dataset
 * the catalog does not know included) are cached when `semantic.cache.enabled`. Every text that
 * leaves here is sanitised (sanitize.ts).
 */
import { isCatalogError, type CatalogClient, type DatasetSchema, type HealthCheck } from '../catalog/index.js';
import { LookupCache } from './cache.js';
import { columnName } from './lineage/index.js';
import { sanitizeTags, sanitizeTerms, sanitizeText } from './sanitize.js';
import type { GlossaryTermContext, SemanticProvider } from './semantic-provider.js';
import type { ColumnContext, DatasetHit, TableContext } from './types.js';
import { parseDatasetUrn, tableUrn, type SemanticUrnMapping } from './urn.js';

/** Entries of each provider cache at most: enough for a working set, bounded against endless distinct names. */
export const PROVIDER_CACHE_ENTRIES = 2000;

const statusScore: Record<HealthCheck['status'], number> = { PASS: 1, WARN: 0.5, FAIL: 0 };

/**
 * A dataset's quality score, 0..1: the mean of its health checks (assertions, incidents), a pass
 * counting 1, a warning 0.5 and a failure 0; null when the catalog reports none (docs/enrichment.md).
 */
export function qualityScore(health: readonly HealthCheck[] | undefined): number | null {
  if (!health?.length) return null;
  const mean = health.reduce((sum, h) => sum + (statusScore[h.status] ?? 0), 0) / health.length;
  return Math.round(mean * 100) / 100;
}

export function tableContext(answer: DatasetSchema): TableContext {
  const d = answer.dataset;
  const columns: ColumnContext[] = (answer.schema?.fields ?? []).map((f) => ({
    name: columnName(f.field_path),
    type: f.native_type ?? f.type,
    ...(f.description ? { description: sanitizeText(f.description) } : {}),
    tags: sanitizeTags((f.tags ?? []).map((t) => t.name)),
    glossary_terms: sanitizeTerms(f.glossary_terms),
  }));
  const deprecation = d.deprecation
    ? {
        deprecated: d.deprecation.deprecated,
        ...(d.deprecation.note ? { note: sanitizeText(d.deprecation.note) } : {}),
        ...(d.deprecation.actor ? { actor: d.deprecation.actor } : {}),
        ...(d.deprecation.decommission_time ? { decommission_date: new Date(d.deprecation.decommission_time).toISOString() } : {}),
      }
    : null;
  return {
    urn: d.urn,
    description: sanitizeText(d.description ?? ''),
    owners: (d.owners ?? []).map((o) => ({ urn: o.urn, type: o.type, ...(o.name ? { name: sanitizeText(o.name) } : {}), ...(o.email ? { email: o.email } : {}) })),
    tags: sanitizeTags((d.tags ?? []).map((t) => t.name)),
    glossary_terms: sanitizeTerms(d.glossary_terms),
    domain: d.domain ? { urn: d.domain.urn, name: sanitizeText(d.domain.name), ...(d.domain.description ? { description: sanitizeText(d.domain.description) } : {}) } : null,
    deprecation,
    quality_score: qualityScore(d.health),
    columns,
  };
}

const notFound = (error: unknown) => isCatalogError(error) && error.kind === 'not_found';

export function catalogSemanticProvider(opts: {
  client: CatalogClient;
  mapping: SemanticUrnMapping;
  /** `semantic.cache`: ttl in ms. */
  cache: { enabled: boolean; ttl: number };
  now?: () => number;
}): SemanticProvider {
  const { client, mapping } = opts;
  const cacheOf = <V>() =>
    opts.cache.enabled ? new LookupCache<V>({ ttlMs: opts.cache.ttl, maxEntries: PROVIDER_CACHE_ENTRIES, ...(opts.now ? { now: opts.now } : {}) }) : undefined;
  const contexts = cacheOf<TableContext | undefined>();
  const searches = cacheOf<DatasetHit[]>();
  const glossary = cacheOf<GlossaryTermContext | undefined>();
  /** `load` gets the signal to run under: the shared lookup's when cached, else the caller's. */
  const cached = <V>(cache: LookupCache<V> | undefined, key: string, signal: AbortSignal, load: (signal: AbortSignal) => Promise<V>) =>
    cache ? cache.get(key, load, signal) : load(signal);

  const datasetContext = (urn: string, signal: AbortSignal) =>
    cached(contexts, urn, signal, async (lookup) => {
      try {
        return tableContext(await client.getSchema(urn, { signal: lookup }));
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    });

  return {
    platform: mapping.platform,
    urnOf: (table) => tableUrn(table, mapping),
    tableContext: (table, signal) => datasetContext(tableUrn(table, mapping), signal),
    datasetContext,
    searchDatasets: (query, { platform, limit }, signal) =>
      cached(searches, `${platform}\n${limit}\n${query}`, signal, async (lookup) => {
        const found = await client.search({ query, entityType: 'DATASET', limit, offset: 0 }, { signal: lookup });
        return found.entities.filter((e) => parseDatasetUrn(e.urn)?.platform === platform).map((e) => ({ urn: e.urn, name: e.name }));
      }),
    glossaryTerm: (urn, signal) =>
      cached(glossary, urn, signal, async (lookup) => {
        try {
          const t = await client.getGlossaryTerm(urn, { signal: lookup });
          return {
            urn: t.urn,
            name: sanitizeText(t.name),
            ...(t.description ? { description: sanitizeText(t.description) } : {}),
            ...(t.parent_node ? { parent_node: t.parent_node } : {}),
            ...(t.related_terms?.length ? { related_terms: t.related_terms.map((r) => ({ ...r, name: sanitizeText(r.name) })) } : {}),
          };
        } catch (error) {
          if (notFound(error)) return undefined;
          throw error;
        }
      }),
  };
}
