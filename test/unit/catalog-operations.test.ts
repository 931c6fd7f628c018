/**
 * Issue 21, Build 1: every GraphQL operation the catalog client sends validates against DataHub's
 * real schema (test/fixtures/datahub-graphql/), so a query or field DataHub does not have
 * fails here. The one operation of a newer server (semantic search) validates against the schema
 * with that field added, and is refused by the snapshot.
 */
import { describe, expect, it } from 'vitest';
import { parse, validate } from 'graphql';
import { catalogOperations } from '../../shared/catalog/index.js';
import { loadDatahubSchema } from '../support/datahub-server.js';

const { allOperations } = catalogOperations;

describe('catalog operations against DataHub\'s schema', () => {
  it('covers every family (search, entity, schema, lineage, queries, glossary, browse, data products, mutations)', () => {
    const names = allOperations.map((o) => o.name);
    for (const n of ['Search', 'GetEntity', 'GetSchema', 'GetSchemas', 'SearchAcrossLineage', 'ColumnLineage', 'ListQueries', 'TopQueries', 'GetGlossaryTerm', 'ListTags', 'ListDomains', 'ListDataProducts', 'GetDataProduct', 'CreateTag', 'UpdateDescription', 'DeleteTag']) {
      expect(names).toContain(n);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(allOperations.map((o) => [o.name, o] as const))('%s validates', (_name, op) => {
    const doc = parse(op.document);
    const definition = doc.definitions.find((d) => d.kind === 'OperationDefinition');
    expect(definition && 'name' in definition ? definition.name?.value : undefined).toBe(op.name);
    const schema = loadDatahubSchema({ semanticSearch: op.requires !== undefined });
    expect(validate(schema, doc).map((e) => e.message)).toEqual([]);
    if (op.requires) expect(validate(loadDatahubSchema(), doc).map((e) => e.message).join('\n')).toContain(op.requires);
  });
});
