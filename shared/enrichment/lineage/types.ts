import type { GlossaryTermRef } from '../../catalog/index.js';
import type { PlatformConfig } from '../../config/index.js';

export type { GlossaryTermRef };

/** `semantic.lineage.*` as parsed (durations in milliseconds). */
export type LineageSettings = PlatformConfig['semantic']['lineage'];

/** The metadata kinds `semantic.lineage.inherit` may name. */
export type InheritableField = LineageSettings['inherit'][number];

/**
 * Where one inherited kind of a column came from. `hops` counts lineage edges from the table
 * asked about (1 = a direct upstream). `match_method`: `column_lineage` (a fine-grained edge),
 * `name_exact` (table lineage, same column name) or `name_transformed` (table lineage, the name
 * after `column_transforms`).
 */
export interface Provenance {
  urn: string;
  column: string;
  hops: number;
  match_method: 'column_lineage' | 'name_exact' | 'name_transformed';
}

/**
 * Provenance per inherited kind. With `conflict_resolution: nearest` each list has one entry;
 * with `all` a kind merged from several upstream columns lists each one that added something.
 */
export type InheritedFrom = Partial<Record<InheritableField, Provenance[]>>;

/** A column's catalog metadata, as the semantic provider reads it and inheritance fills it. */
export interface ColumnContext {
  /** The column name: the last dot segment of the catalog's field path. */
  name: string;
  /** Empty or absent: undocumented. */
  description?: string;
  glossary_terms: GlossaryTermRef[];
  tags: string[];
  /** Set only when inheritance copied something into this column. */
  inherited_from?: InheritedFrom;
}

/** The table whose columns are being completed. */
export interface TableRef {
  /** Its dataset URN in the catalog. */
  urn: string;
  /** Its dataset name (`catalog.schema.table`): column paths for `column_transforms` are `<name>.<column>`. */
  name: string;
}

/** A fine-grained lineage edge into a column of the dataset asked about. */
export interface ColumnEdge {
  /** The column of the dataset asked about. */
  downstream: string;
  upstream: { urn: string; column: string };
}

/** One dataset's direct upstream lineage. */
export interface UpstreamLineage {
  /** Direct upstream datasets (table-level lineage), in the catalog's order. */
  datasets: string[];
  /** Fine-grained column edges into this dataset's columns. */
  columns: ColumnEdge[];
}

/**
 * What inheritance reads from the catalog. `signal` aborts when the caller stops waiting (the
 * enrichment deadline, `semantic.lineage.timeout`), so a request in flight can be dropped.
 */
export interface LineageSource {
  /** The dataset's columns, or null when the catalog does not know the dataset. */
  datasetColumns(urn: string, signal?: AbortSignal): Promise<ColumnContext[] | null>;
  /** The dataset's direct upstreams (empty when it has none or is unknown). */
  upstreams(urn: string, signal?: AbortSignal): Promise<UpstreamLineage>;
}
