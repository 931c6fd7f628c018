/**
 * The catalog's objects as the catalog_* tools return them (spec toolkits.md 2.5: snake_case,
 * optional fields omitted when the catalog has no value). The client maps DataHub's GraphQL
 * answers into these; the enrichment and lineage code reads them too.
 */

export interface Owner {
  urn: string;
  /** `CORP_USER` or `CORP_GROUP`. */
  type: string;
  name?: string;
  email?: string;
  /** The ownership type, e.g. `urn:li:ownershipType:__system__technical_owner` or its legacy enum name. */
  ownership_type?: string;
}

export interface Tag {
  urn: string;
  name: string;
  description?: string;
  properties?: Record<string, string>;
}

export interface GlossaryTermRef {
  urn: string;
  name: string;
  description?: string;
}

export interface Domain {
  urn: string;
  name: string;
  description?: string;
  parent_domain?: string;
  owners?: Owner[];
  entity_count?: number;
}

export interface Deprecation {
  deprecated: boolean;
  note?: string;
  actor?: string;
  decommission_time?: number;
}

/** One of DataHub's health signals (assertions, incidents): the catalog's view of data quality. */
export interface HealthCheck {
  type: string;
  status: 'PASS' | 'WARN' | 'FAIL';
  message?: string;
}

export interface CatalogEntity {
  urn: string;
  type: string;
  name: string;
  description?: string;
  owners?: Owner[];
  tags?: Tag[];
  glossary_terms?: GlossaryTermRef[];
  domain?: Domain;
  platform?: string;
  sub_types?: string[];
  deprecation?: Deprecation;
  properties?: Record<string, string>;
  health?: HealthCheck[];
  created?: number;
  last_modified?: number;
}

export interface SearchEntity {
  urn: string;
  type: string;
  name: string;
  description?: string;
  platform?: string;
  owners?: Owner[];
  tags?: Tag[];
  domain?: Domain;
  matched_fields?: Array<{ name: string; value: string }>;
}

export interface SearchResult {
  entities: SearchEntity[];
  total: number;
  offset: number;
  limit: number;
}

export interface SchemaField {
  field_path: string;
  type: string;
  native_type?: string;
  /** The edited description when someone edited it in the catalog, else the ingested one. */
  description?: string;
  nullable: boolean;
  is_partition_key?: boolean;
  tags?: Tag[];
  glossary_terms?: GlossaryTermRef[];
  json_path?: string;
}

export interface ForeignKey {
  name?: string;
  source_fields: string[];
  foreign_dataset: string;
  foreign_fields: string[];
}

export interface SchemaMetadata {
  name?: string;
  platform_schema?: string;
  version?: number;
  fields: SchemaField[];
  primary_keys?: string[];
  foreign_keys?: ForeignKey[];
  hash?: string;
}

/** A dataset's own metadata around its schema: what enrichment attaches to a table. */
export interface DatasetContext {
  urn: string;
  name: string;
  platform?: string;
  description?: string;
  owners?: Owner[];
  tags?: Tag[];
  glossary_terms?: GlossaryTermRef[];
  domain?: Domain;
  deprecation?: Deprecation;
  health?: HealthCheck[];
}

/** getSchema's answer: the schema (absent when the catalog holds none) and the dataset's context. */
export interface DatasetSchema {
  schema?: SchemaMetadata;
  dataset: DatasetContext;
}

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

export interface LineageNode {
  urn: string;
  type: string;
  name: string;
  platform?: string;
  description?: string;
  /** Hops from the start. */
  level: number;
}

export interface LineageEdge {
  source: string;
  target: string;
}

export interface LineageGraph {
  start: string;
  nodes: LineageNode[];
  edges: LineageEdge[];
  direction: LineageDirection;
  depth: number;
}

/** One fine-grained edge: `downstream_column` of the dataset asked about comes from `upstream_column`. */
export interface ColumnLineageMapping {
  downstream_column: string;
  upstream_dataset: string;
  upstream_column: string;
  transform?: string;
  query?: string;
}

export interface ColumnLineage {
  dataset_urn: string;
  mappings: ColumnLineageMapping[];
}

export interface SavedQuery {
  urn?: string;
  name?: string;
  statement: string;
  description?: string;
  source?: string;
  created_by?: string;
  created?: number;
  last_run?: number;
}

export interface QueryList {
  queries: SavedQuery[];
  total: number;
}

export interface RelatedTerm {
  urn: string;
  name: string;
  relation_type: string;
}

export interface GlossaryTerm {
  urn: string;
  name: string;
  description?: string;
  parent_node?: string;
  owners?: Owner[];
  related_terms?: RelatedTerm[];
  properties?: Record<string, string>;
}

export interface DataProduct {
  urn: string;
  name: string;
  description?: string;
  domain?: Domain;
  owners?: Owner[];
  assets?: string[];
  properties?: Record<string, string>;
}

/** The catalog's own edits on a dataset or one of its columns: what a knowledge change may overwrite. */
export interface EditableState {
  /** The edited description (DataHub's editable properties); null when none was ever written. */
  description: string | null;
  tags: string[];
  glossary_terms: string[];
  /** Documentation links (institutional memory); the dataset's only, columns have none. */
  links: Array<{ url: string; label: string }>;
}
