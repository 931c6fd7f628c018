/**
 * Dataset URNs and the two catalog mappings (spec document 1, "Providers, semantic enrichment and URN
 * mapping"): `urn:li:dataset:(urn:li:dataPlatform:<platform>,<catalog>.<schema>.<table>,<env>)`.
 * A lookup from the query engine translates its catalog through `semantic.urn_mapping.catalog_mapping`;
 * a catalog dataset is found in the query engine through the reverse map, `query.urn_mapping.catalog_mapping`.
 */
import type { QualifiedTable } from './types.js';

export const DEFAULT_ENV = 'PROD';

export interface DatasetUrn {
  platform: string;
  /** The dataset name: `catalog.schema.table` for SQL platforms, `bucket/prefix` for s3. */
  name: string;
  env: string;
}

const datasetUrnPattern = /^urn:li:dataset:\(urn:li:dataPlatform:([^,()]+),(.+),([A-Za-z0-9_]+)\)$/;

export function isDatasetUrn(value: string): boolean {
  return datasetUrnPattern.test(value);
}

export function parseDatasetUrn(urn: string): DatasetUrn | undefined {
  const m = datasetUrnPattern.exec(urn);
  return m ? { platform: m[1]!, name: m[2]!, env: m[3]! } : undefined;
}

export function datasetUrn(platform: string, name: string, env = DEFAULT_ENV): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;
}

export interface SemanticUrnMapping {
  platform: string;
  catalog_mapping: Readonly<Record<string, string>>;
}

/** The catalog dataset URN of a query-engine table (the engine's catalog mapped to the catalog service's). */
export function tableUrn(table: QualifiedTable, mapping: SemanticUrnMapping): string {
  const catalog = mapping.catalog_mapping[table.catalog] ?? table.catalog;
  return datasetUrn(mapping.platform, `${catalog}.${table.schema}.${table.table}`);
}

/** `catalog.schema.table` split into its parts; undefined for any other number of parts or an empty part. */
export function splitTableName(name: string): QualifiedTable | undefined {
  const parts = name.split('.');
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  return { catalog: parts[0]!, schema: parts[1]!, table: parts[2]! };
}

/**
 * The query-engine table a dataset URN names: 3 parts map their catalog through the reverse mapping;
 * 2 parts take `defaultCatalog`. Undefined when the URN is not a dataset URN or the name does not fit.
 */
export function queryTableOf(urn: string, reverse: Readonly<Record<string, string>>, defaultCatalog?: string): QualifiedTable | undefined {
  const parsed = parseDatasetUrn(urn);
  if (!parsed) return undefined;
  const parts = parsed.name.split('.');
  if (parts.some((p) => p === '')) return undefined;
  if (parts.length === 3) return { catalog: reverse[parts[0]!] ?? parts[0]!, schema: parts[1]!, table: parts[2]! };
  if (parts.length === 2 && defaultCatalog) return { catalog: defaultCatalog, schema: parts[0]!, table: parts[1]! };
  return undefined;
}

export const qualifiedName = (t: QualifiedTable): string => `${t.catalog}.${t.schema}.${t.table}`;
