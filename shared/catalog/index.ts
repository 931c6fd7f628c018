/**
 * The metadata catalog (DataHub over GraphQL): the client with its typed API and errors, the
 * catalog object shapes, and every operation document it sends (docs/catalog.md).
 */
export { CatalogClient, entityTypeEnum, graphqlEndpoint, graphqlErrorText, introspectionRefusalMs, redactVariables } from './client.js';
export type { BrowseResult, BrowseWhat, CallOptions, CatalogClientOptions } from './client.js';
export { CatalogError, isCatalogError, type CatalogErrorKind } from './errors.js';
export type * from './types.js';
export * as catalogOperations from './operations/index.js';
export type { Operation } from './operations/index.js';
export { catalogQueryFields, rootFieldNames } from './operations/index.js';
export { type CatalogConnection, type CatalogConnections } from './connections.js';
export { createPlan, updatePlan, deletePlan, type WriteArgs, type WritePlan } from './writes.js';
export { createCatalogToolkit, type CatalogToolkit } from './toolkit.js';
export { catalogDataReadTools, type PlatformConnectionSummary } from './tools.js';
