/**
 * Cross-enrichment (toolkits.md 5; document 1 "Providers, semantic enrichment and URN mapping",
 * `injection.*`, `tuning.rules.*`, `resources.enabled`): the semantic, query and storage providers,
 * the tool middleware that appends each family's context to the others' results, the PII consent
 * trigger's tag source, and the schema/availability/glossary resources. docs/enrichment.md.
 * Lineage inheritance (lineage/) and session de-duplication (dedup/) are called from the middleware.
 */
export type { Family } from './access.js';
export { familyReach } from './access.js';
export { buildEnrichment, semanticProviderFor, type EnrichmentParts } from './compose.js';
export { catalogPiiTags, type SemanticProvider, type GlossaryTermContext } from './semantic-provider.js';
export type { QueryProvider } from './query-provider.js';
export type { StorageProvider } from './storage-provider.js';
export { enrichmentMiddleware, type EnrichmentOptions } from './middleware.js';
export type { Availability, ColumnContext, QualifiedTable, StorageInfo, TableContext } from './types.js';
export { datasetUrn, parseDatasetUrn, tableUrn } from './urn.js';
