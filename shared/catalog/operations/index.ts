/** Every GraphQL operation the catalog client sends, by family; `allOperations` for the schema test. */
import type { Operation } from './operation.js';
import * as browse from './browse.js';
import * as dataProducts from './data-products.js';
import * as entity from './entity.js';
import * as glossary from './glossary.js';
import * as lineage from './lineage.js';
import * as mutations from './mutations.js';
import * as queries from './queries.js';
import * as schema from './schema.js';
import * as search from './search.js';

export type { Operation } from './operation.js';
export * from './browse.js';
export * from './data-products.js';
export * from './entity.js';
export * from './glossary.js';
export * from './lineage.js';
export * from './mutations.js';
export * from './queries.js';
export * from './schema.js';
export * from './search.js';

const isOperation = (v: unknown): v is Operation => typeof v === 'object' && v !== null && 'document' in v && 'name' in v;

export const allOperations: readonly Operation[] = [browse, dataProducts, entity, glossary, lineage, mutations, queries, schema, search].flatMap((family) =>
  Object.values(family).filter(isOperation),
);
