/**
 * Enrichment from configuration: the providers document 1 names (`semantic.*`, `query.*`,
 * `storage.*`), the middleware with the `injection.*` and `tuning.rules.*` switches, and the
 * resources of `resources.enabled`. A provider naming an instance that does not exist fails startup.
 */
import type { PlatformConfig } from '../config/index.js';
import type { CatalogClient } from '../catalog/index.js';
import type { CallerContext } from '../identity/index.js';
import type { ToolMiddleware } from '../mcp-tools/index.js';
import type { TemplatedResourceSource } from '../mcp-content/index.js';
import type { ToolConnection } from '../objstore/index.js';
import type { SqlConnection } from '../sql/index.js';
import type { Family } from './access.js';
import { LookupCache } from './cache.js';
import { catalogSemanticProvider, PROVIDER_CACHE_ENTRIES } from './catalog-provider.js';
import { enrichmentMiddleware } from './middleware.js';
import { sqlQueryProvider, type QueryProvider } from './query-provider.js';
import { enrichmentResources } from './resources.js';
import type { SemanticProvider } from './semantic-provider.js';
import type { InheritColumns } from './sql-family.js';
import type { SessionDedup } from './dedup/index.js';
import { catalogLineageSource, inheritColumnContext } from './lineage/index.js';
import { objstoreStorageProvider, type StorageProvider } from './storage-provider.js';
import type { Availability } from './types.js';

type Config = Pick<PlatformConfig, 'semantic' | 'query' | 'storage' | 'injection' | 'tuning' | 'resources' | 'workflow'>;

function named<T>(key: string, lookup: () => T): T {
  try {
    return lookup();
  } catch (error) {
    throw new Error(`${key}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `semantic.provider: catalog` over the `semantic.instance` catalog (the default instance when unset). */
export function semanticProviderFor(config: Config, catalogClient: ((instance?: string) => CatalogClient) | undefined, opts: { now?: () => number } = {}): SemanticProvider | undefined {
  const { semantic } = config;
  if (semantic.provider !== 'catalog') return undefined;
  if (!catalogClient) throw new Error('semantic.provider: catalog needs a toolkits.catalog instance');
  const client = named('semantic.instance', () => catalogClient(semantic.instance));
  return catalogSemanticProvider({ client, mapping: semantic.urn_mapping, cache: semantic.cache, ...(opts.now ? { now: opts.now } : {}) });
}

export interface EnrichmentParts {
  /** The tool middleware; absent when nothing is switched on. */
  middleware?: ToolMiddleware;
  /** The `resources.enabled` resources; absent without it or without a semantic provider. */
  resources?: TemplatedResourceSource;
  query?: QueryProvider;
  storage?: StorageProvider;
}

export function buildEnrichment(opts: {
  config: Config;
  semantic?: SemanticProvider;
  sqlConnection?: (name?: string) => SqlConnection;
  objstoreConnection?: (name?: string) => ToolConnection;
  reach: (family: Family, caller: CallerContext) => boolean;
  /** The catalog lineage is read from (`semantic.instance`), for `semantic.lineage.enabled`. */
  catalogClient?: (instance?: string) => CatalogClient;
  /** Session de-duplication (createSessionDedup), for `injection.session_dedup`. */
  dedup?: SessionDedup;
  log?: { warn(obj: object, msg: string): void };
  now?: () => number;
}): EnrichmentParts {
  const { config, semantic } = opts;
  let query: QueryProvider | undefined;
  if (config.query.provider === 'sql') {
    if (!opts.sqlConnection) throw new Error('query.provider: sql needs a toolkits.sql instance');
    const connection = named('query.instance', () => opts.sqlConnection!(config.query.instance));
    const cache = config.semantic.cache.enabled
      ? new LookupCache<Availability>({ ttlMs: config.semantic.cache.ttl, maxEntries: PROVIDER_CACHE_ENTRIES, ...(opts.now ? { now: opts.now } : {}) })
      : undefined;
    query = sqlQueryProvider({
      connection,
      platform: config.semantic.urn_mapping.platform,
      reverseMapping: config.query.urn_mapping.catalog_mapping,
      previewColumns: config.injection.search_schema_preview ? config.injection.schema_preview_max_columns : 0,
      ...(cache ? { cache } : {}),
    });
  }
  let storage: StorageProvider | undefined;
  if (config.storage.provider === 'objstore') {
    if (!opts.objstoreConnection) throw new Error('storage.provider: objstore needs a toolkits.objstore instance');
    const instance = config.storage.instance;
    named('storage.instance', () => opts.objstoreConnection!(instance));
    storage = objstoreStorageProvider(() => opts.objstoreConnection!(instance));
  }
  let inherit: InheritColumns | undefined;
  if (config.semantic.lineage.enabled && semantic && opts.catalogClient) {
    const settings = config.semantic.lineage;
    const source = catalogLineageSource(opts.catalogClient(config.semantic.instance), settings, opts.now);
    inherit = (table, columns, signal) => inheritColumnContext(source, table, columns, settings, { signal });
  }
  const { injection, tuning } = config;
  const anything =
    injection.trino_semantic_enrichment ||
    injection.datahub_query_enrichment ||
    injection.s3_semantic_enrichment ||
    injection.datahub_storage_enrichment ||
    tuning.rules.warn_on_deprecated ||
    tuning.rules.require_datahub_check ||
    config.resources.enabled;
  const middleware = anything
    ? enrichmentMiddleware({
        config,
        reach: opts.reach,
        ...(semantic ? { semantic } : {}),
        ...(query ? { query } : {}),
        ...(storage ? { storage } : {}),
        ...(opts.sqlConnection ? { sqlConnection: opts.sqlConnection } : {}),
        ...(inherit ? { inherit } : {}),
        ...(opts.dedup && injection.session_dedup.enabled ? { dedup: opts.dedup } : {}),
        ...(opts.log ? { log: opts.log } : {}),
        ...(opts.now ? { now: opts.now } : {}),
      })
    : undefined;
  const resources = config.resources.enabled && semantic ? enrichmentResources({ semantic, ...(query ? { query } : {}), reach: opts.reach }) : undefined;
  return { ...(middleware ? { middleware } : {}), ...(resources ? { resources } : {}), ...(query ? { query } : {}), ...(storage ? { storage } : {}) };
}
