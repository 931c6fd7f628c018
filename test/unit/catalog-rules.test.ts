/**
 * Issue 21, Build 1–2: the catalog client's pure rules — the GraphQL endpoint from `url`, entity
 * type names, what a debug line shows of variables, lineage depth clamping, lineage graph edges,
 * and the write plans' refusals.
 */
import { describe, expect, it } from 'vitest';
import { catalogDataReadTools, createCatalogToolkit, createPlan, deletePlan, entityTypeEnum, graphqlEndpoint, graphqlErrorText, redactVariables, updatePlan } from '../../shared/catalog/index.js';
import { parseConfig } from '../../shared/config/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { lineageGraph } from '../../shared/catalog/mapping.js';
import { clampDepth } from '../../shared/catalog/tools.js';

describe('catalog rules', () => {
  it('a GraphQL error reads as its message, else its JSON, at most 500 characters (an answer may be megabytes)', () => {
    expect(graphqlErrorText({ message: 'not found' })).toBe('not found');
    expect(graphqlErrorText({ code: 7 })).toBe('{"code":7}');
    expect(graphqlErrorText({ extensions: 'x'.repeat(100_000) })).toHaveLength(501);
    expect(graphqlErrorText(null)).toBe('null');
  });

  it('graphql_export to a catalog is held to every catalog read tool that answers from catalog data (each registered read tool but catalog_list_connections)', () => {
    const yaml = 'toolkits:\n  catalog:\n    hub: { url: "http://127.0.0.1:1", read_only: true }\n';
    const reads = createCatalogToolkit(parseConfig(yaml, {}).config, { log: silentLogger() }).tools.map((t) => t.name);
    expect([...catalogDataReadTools].sort()).toEqual(reads.filter((name) => name !== 'catalog_list_connections').sort());
  });

  it('url → GMS GraphQL endpoint; an endpoint URL is kept', () => {
    expect(graphqlEndpoint('https://datahub.example.com')).toBe('https://datahub.example.com/api/graphql');
    expect(graphqlEndpoint('https://datahub.example.com/gms/')).toBe('https://datahub.example.com/gms/api/graphql');
    expect(graphqlEndpoint('https://datahub.example.com/api/graphql')).toBe('https://datahub.example.com/api/graphql');
    expect(graphqlEndpoint('https://datahub.example.com/api/v2/graphql/')).toBe('https://datahub.example.com/api/v2/graphql');
  });

  it('entity_type → EntityType enum (dataProduct → DATA_PRODUCT)', () => {
    expect(entityTypeEnum('dataProduct')).toBe('DATA_PRODUCT');
    expect(entityTypeEnum('glossary_term')).toBe('GLOSSARY_TERM');
    expect(entityTypeEnum('DATASET')).toBe('DATASET');
    expect(entityTypeEnum('dataset')).toBe('DATASET');
  });

  it('debug variables: secret-looking keys and URL secrets hidden, the rest kept', () => {
    expect(
      redactVariables({ input: { name: 'Gold', token: 'abc', nested: [{ password: 'p' }], link: 'https://x.test/?access_token=zzz&a=1' } }),
    ).toEqual({ input: { name: 'Gold', token: '[redacted]', nested: [{ password: '[redacted]' }], link: 'https://x.test/?access_token=[redacted]&a=1' } });
  });

  it('lineage depth: default 1, at least 1, at most max_lineage_depth', () => {
    expect(clampDepth(undefined, 5)).toBe(1);
    expect(clampDepth(0, 5)).toBe(1);
    expect(clampDepth(3, 5)).toBe(3);
    expect(clampDepth(50, 5)).toBe(5);
  });

  it('lineage graph: drops results beyond depth, orients edges upstream → downstream, paths with or without the start', () => {
    const e = (urn: string) => ({ urn, type: 'DATASET' });
    const results = [
      { degree: 1, entity: e('b'), paths: [{ path: [e('b')] }] },
      { degree: 2, entity: e('c'), paths: [{ path: [e('a'), e('b'), e('c')] }] },
      { degree: 3, entity: e('d'), paths: [{ path: [e('a'), e('b'), e('c'), e('d')] }] },
    ];
    const g = lineageGraph('a', 'UPSTREAM', 2, results);
    expect(g.nodes.map((n) => [n.urn, n.level])).toEqual([
      ['b', 1],
      ['c', 2],
    ]);
    expect(g.edges).toEqual([
      { source: 'b', target: 'a' },
      { source: 'c', target: 'b' },
    ]);
  });

  it('write plans: required fields, unknown what, actions', () => {
    expect(() => createPlan({ what: 'tag' })).toThrow('name parameter is required');
    expect(() => createPlan({ what: 'widget', name: 'x' })).toThrow('invalid what value: widget');
    expect(() => updatePlan({ what: 'tag', action: 'add', target_urn: 't' })).toThrow('urn parameter is required');
    expect(() => updatePlan({ what: 'link', urn: 'u', action: 'add' })).toThrow('url parameter is required');
    expect(() => updatePlan({ what: 'description', urn: 'u', value: ' ', description: '' })).toThrow('value parameter is required');
    expect(updatePlan({ what: 'domain', urn: 'u', target_urn: 'd' })).toMatchObject({ action: 'set', variables: { entityUrn: 'u', domainUrn: 'd' } });
    expect(updatePlan({ what: 'owner', urn: 'u', action: 'add', target_urn: 'urn:li:corpGroup:g', ownership_type: 'DATA_STEWARD' }).variables).toEqual({
      input: { ownerUrn: 'urn:li:corpGroup:g', ownerEntityType: 'CORP_GROUP', ownershipTypeUrn: 'urn:li:ownershipType:__system__data_steward', resourceUrn: 'u' },
    });
    expect(() => deletePlan({ what: 'dataset', urn: 'u' })).toThrow('invalid what value: dataset');
  });
});
