// Lineage inheritance (semantic.lineage.*): columns lacking metadata inherit it from upstream
// datasets through the catalog's column and table lineage (docs/enrichment.md "Lineage inheritance").
export { inheritColumnContext, type InheritOptions } from './inherit.js';
export { CachedLineageSource, type LineageCacheOptions } from './cache.js';
export { CatalogLineageSource, catalogLineageSource, columnName, type CatalogLineageOptions } from './catalog-source.js';
export { inheritanceSources, maxDatasetsPerHop, maxHopsLimit } from './rules.js';
export type {
  ColumnContext,
  ColumnEdge,
  GlossaryTermRef,
  InheritableField,
  InheritedFrom,
  LineageSettings,
  LineageSource,
  Provenance,
  TableRef,
  UpstreamLineage,
} from './types.js';
