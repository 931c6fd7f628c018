/**
 * What the providers answer (spec document 1 "Providers, semantic enrichment and URN mapping";
 * toolkits.md 5.2, 5.5–5.7): a table's catalog context, a catalog table's SQL availability, a
 * dataset's storage. Field names are the blocks' own (snake_case), so builders copy them as they are.
 */
import type { ColumnContext as LineageColumn, GlossaryTermRef } from './lineage/index.js';

/** A fully qualified table as the query engine names it. */
export interface QualifiedTable {
  catalog: string;
  schema: string;
  table: string;
}

export interface Owner {
  urn: string;
  type: string;
  name?: string;
  email?: string;
}

export type { GlossaryTermRef };

export interface DomainRef {
  urn: string;
  name: string;
  description?: string;
}

export interface Deprecation {
  deprecated: boolean;
  note?: string;
  actor?: string;
  decommission_date?: string;
}

/**
 * One column's catalog metadata: lineage inheritance's column (its own fields plus `inherited_from`,
 * set when inheritance filled a field) with the catalog's type of it.
 */
export interface ColumnContext extends LineageColumn {
  type?: string;
}

/** A table's context in the catalog (toolkits.md 5.2 `semantic_context`, plus its columns). */
export interface TableContext {
  urn: string;
  /** Empty when the catalog has none. */
  description: string;
  owners: Owner[];
  tags: string[];
  glossary_terms: GlossaryTermRef[];
  domain: DomainRef | null;
  deprecation: Deprecation | null;
  /** From the custom property `quality_score` (0..1); null when the catalog has none (docs/enrichment.md). */
  quality_score: number | null;
  custom_properties?: Record<string, string>;
  columns: ColumnContext[];
}

/** Whether and where a catalog dataset can be queried (toolkits.md 5.5). */
export interface Availability {
  available: boolean;
  query_table?: string;
  connection?: string;
  error?: string;
  schema_preview?: Array<{ name: string; type: string }>;
  total_columns?: number;
}

/** What backs an `s3` dataset in object storage (toolkits.md 5.7). */
export interface StorageInfo {
  available: boolean;
  bucket?: string;
  prefix?: string;
  connection?: string;
  object_count?: number;
  total_size?: number;
  /** More than the listed 1,000 objects exist; count and size cover those listed. */
  truncated?: boolean;
  error?: string;
}

/** A catalog search hit, as the object-store direction reads it (toolkits.md 5.6). */
export interface DatasetHit {
  urn: string;
  name: string;
}
