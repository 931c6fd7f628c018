/**
 * Every tool the platform can offer, configured or not: a description must not name one of these
 * unless the reader is offered it (descriptions.ts). A toolkit adding a tool adds its name here;
 * test/integration/mcp-descriptions.test.ts checks the list against the real toolkits.
 */
/**
 * The catalog's read tools that answer from the catalog's data (catalog_list_connections answers
 * from configuration). Another way into the catalog's GraphQL API (graphql_export to
 * `catalog:<name>`) is open only to a caller allowed every one of them: one query can read what any
 * of them reads. Here, beside every name, since the catalog toolkit imports this module.
 */
export const catalogDataReadTools = [
  'catalog_search',
  'catalog_get_entity',
  'catalog_get_schema',
  'catalog_get_lineage',
  'catalog_get_queries',
  'catalog_get_glossary_term',
  'catalog_browse',
  'catalog_get_data_product',
] as const;

export const platformToolNames: readonly string[] = [
  'platform_info',
  'platform_export',
  'platform_publish_data',
  'sql_query',
  'sql_execute',
  'sql_explain',
  'sql_browse',
  'sql_describe_table',
  'sql_list_connections',
  'sql_export',
  ...catalogDataReadTools,
  'catalog_list_connections',
  'catalog_create',
  'catalog_update',
  'catalog_delete',
  'objstore_list_buckets',
  'objstore_list_objects',
  'objstore_get_object',
  'objstore_get_object_metadata',
  'objstore_put_object',
  'objstore_delete_object',
  'objstore_copy_object',
  'objstore_presign_url',
  'objstore_list_connections',
  'api_export',
  'graphql_export',
  'manage_resource',
  'manage_table',
  'manage_script',
  'save_artifact',
  'manage_asset',
  'search',
  'fetch',
];
