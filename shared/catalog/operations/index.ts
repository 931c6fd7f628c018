/** Every GraphQL operation the catalog client sends, by family; `allOperations` for the schema test. */
import { Kind, parse, type DefinitionNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Operation } from './operation.js';
import * as browse from './browse.js';
import * as dataProducts from './data-products.js';
import * as editable from './editable.js';
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
export * from './editable.js';
export * from './entity.js';
export * from './glossary.js';
export * from './lineage.js';
export * from './mutations.js';
export * from './queries.js';
export * from './schema.js';
export * from './search.js';

const isOperation = (v: unknown): v is Operation => typeof v === 'object' && v !== null && 'document' in v && 'name' in v;

export const allOperations: readonly Operation[] = [browse, dataProducts, editable, entity, glossary, lineage, mutations, queries, schema, search].flatMap((family) =>
  Object.values(family).filter(isOperation),
);

/**
 * The Query fields the catalog tools read (the top-level fields of every query operation above):
 * what a graphql_export to a catalog may ask for. DataHub's schema has more (secrets, access
 * tokens, users) that no catalog tool reads and the platform's token must not hand out.
 */
export const catalogQueryFields: ReadonlySet<string> = new Set(
  // Introspection (a capability probe's __type) is the client's business, not an export's.
  allOperations.flatMap((op) => {
    const document = parse(op.document);
    return document.definitions.flatMap((d) =>
      d.kind === Kind.OPERATION_DEFINITION && d.operation === 'query' ? rootFieldNames(d.selectionSet, document.definitions).filter((name) => !name.startsWith('__')) : [],
    );
  }),
);

/** The names of the top-level fields a selection asks for, through fragment spreads and inline fragments (`...name` for a spread of an unknown fragment). */
export function rootFieldNames(selectionSet: SelectionSetNode, definitions: readonly DefinitionNode[], seen = new Set<string>()): string[] {
  const names: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) names.push(...rootFieldNames(selection.selectionSet, definitions, seen));
    else {
      const name = selection.name.value;
      if (seen.has(name)) continue;
      seen.add(name);
      const fragment = definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
      // An unknown fragment: a name no catalog tool reads, so the document is refused.
      names.push(...(fragment ? rootFieldNames(fragment.selectionSet, definitions, seen) : [`...${name}`]));
    }
  }
  return names;
}
