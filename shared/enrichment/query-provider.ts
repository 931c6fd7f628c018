/**
 * The query provider (`query.provider: sql`, `query.instance`; toolkits.md 5.5): whether a catalog
 * dataset can be queried, on which connection, and a preview of its columns. A dataset of another
 * platform than the one SQL tables are catalogued under is not ours to answer for; one we can name
 * is proven to exist by describing it on the connection.
 */
import type { SqlConnection } from '../sql/index.js';
import { LookupCache } from './cache.js';
import type { Availability } from './types.js';
import { parseDatasetUrn, qualifiedName, queryTableOf } from './urn.js';

export interface QueryProvider {
  availability(urn: string, signal: AbortSignal): Promise<Availability>;
}

export interface SqlQueryProviderOptions {
  connection: SqlConnection;
  /** The platform SQL tables are catalogued under (`semantic.urn_mapping.platform`). */
  platform: string;
  /** `query.urn_mapping.catalog_mapping`: catalog-service catalog to query-engine catalog. */
  reverseMapping: Readonly<Record<string, string>>;
  /** Columns in `schema_preview`; 0 leaves the preview out (`injection.search_schema_preview` off). */
  previewColumns: number;
  cache?: LookupCache<Availability>;
}

export function sqlQueryProvider(opts: SqlQueryProviderOptions): QueryProvider {
  const { connection } = opts;
  const answer = async (urn: string, signal: AbortSignal): Promise<Availability> => {
    const parsed = parseDatasetUrn(urn);
    if (!parsed) return { available: false, error: 'not a dataset URN' };
    if (parsed.platform !== opts.platform) return { available: false, error: `datasets of platform ${parsed.platform} are not queried through SQL here` };
    const table = queryTableOf(urn, opts.reverseMapping, connection.engine.defaults.catalog);
    if (!table) return { available: false, error: `dataset name ${parsed.name} is not catalog.schema.table` };
    try {
      const columns = await connection.engine.describeTable(table, signal);
      return {
        available: true,
        query_table: qualifiedName(table),
        connection: connection.name,
        ...(opts.previewColumns > 0
          ? { schema_preview: columns.slice(0, opts.previewColumns).map((c) => ({ name: c.name, type: c.type })), total_columns: columns.length }
          : {}),
      };
    } catch (error) {
      if (signal.aborted) throw error;
      return { available: false, query_table: qualifiedName(table), connection: connection.name, error: error instanceof Error ? error.message : String(error) };
    }
  };
  return {
    availability: (urn, signal) => (opts.cache ? opts.cache.get(urn, (lookup) => answer(urn, lookup), signal) : answer(urn, signal)),
  };
}
