/**
 * Issue 21 acceptance, "each `what` of create/update/delete producing the mutation the schema
 * accepts": every `what` sent to the schema-validated DataHub test server, which validates and
 * records the mutation; refusals before any request (missing fields, read-only instance,
 * custom_properties), and the errors of the tools (HTTP 500, GraphQL errors, timeout, bad token)
 * as tool errors that never show the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createCatalogToolkit } from '../../shared/catalog/index.js';
import type { ToolDefinition } from '../../shared/mcp-tools/index.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import { callTool, toolText } from '../support/sql-tools.js';

const token = 'catalog-t0ken-never-shown';
let server: DatahubServer;
let tools: ToolDefinition[];

function toolsFor(keys: string[]): ToolDefinition[] {
  const yaml = `toolkits:\n  catalog:\n    hub:\n      url: ${server.url}\n${keys.map((k) => `      ${k}`).join('\n')}\n`;
  return createCatalogToolkit(parseConfig(yaml, {}).config, { log: silentLogger() }).tools;
}

beforeAll(async () => {
  server = await startDatahubServer({ token });
  tools = toolsFor([`token: ${token}`]);
});
afterAll(async () => {
  await server.close();
});

/** Calls a write tool; expects success and exactly one recorded mutation, validated and executed. */
async function write(name: string, args: Record<string, unknown>) {
  const before = server.mutations().length;
  const r = await callTool(tools, name, args);
  expect(r.isError, toolText(r)).toBeFalsy();
  const sent = server.mutations().slice(before);
  expect(sent).toHaveLength(1);
  return { result: r.structuredContent as Record<string, unknown>, sent: sent[0]! };
}

const createCases: Array<[string, Record<string, unknown>, string]> = [
  ['tag', { name: 'Gold', description: 'Top tier' }, 'CreateTag'],
  ['domain', { name: 'Marketing' }, 'CreateDomain'],
  ['glossary_term', { name: 'Churn', parent_node: U.glossaryNode }, 'CreateGlossaryTerm'],
  ['data_product', { name: 'Revenue pack', domain_urn: U.domainSales }, 'CreateDataProduct'],
  ['document', { name: 'Runbook', description: 'How to reload orders', related_assets: [U.orders] }, 'CreateDocument'],
  ['application', { name: 'Shop' }, 'CreateApplication'],
  ['query', { value: 'SELECT 1', name: 'one', dataset_urns: [U.orders] }, 'CreateQuery'],
  ['incident', { name: 'Late load', incident_type: 'operational', entity_urns: [U.orders], priority: 'high' }, 'RaiseIncident'],
  ['structured_property', { qualified_name: 'io.example.tier', value_type: 'string', entity_types: ['dataset'], cardinality: 'single' }, 'CreateStructuredProperty'],
  ['data_contract', { dataset_urns: [U.orders], freshness_assertions: ['urn:li:assertion:fresh'] }, 'UpsertDataContract'],
];

describe('catalog_create by what', () => {
  it.each(createCases)('%s sends a schema-valid mutation', async (what, args, operation) => {
    const { result, sent } = await write('catalog_create', { what, ...args });
    expect(sent.operationName).toBe(operation);
    expect(result).toMatchObject({ what, action: 'created', urn: expect.stringMatching(/^urn:li:/) });
  });

  it('created tags are seen by later reads', async () => {
    await write('catalog_create', { what: 'tag', name: 'Seen' });
    const r = await callTool(tools, 'catalog_browse', { what: 'tags', filter: 'seen' });
    expect(r.structuredContent).toEqual({ tags: [{ urn: 'urn:li:tag:Seen', name: 'Seen' }] });
  });

  it('a missing required field is refused before any request', async () => {
    const before = server.requests.length;
    const r = await callTool(tools, 'catalog_create', { what: 'data_product', name: 'x' });
    expect(r.isError).toBe(true);
    expect(toolText(r)).toBe('domain_urn parameter is required');
    expect(r.structuredContent).toMatchObject({ error: { code: 'missing_required_parameter' } });
    expect(server.requests.length).toBe(before);
  });
});

const updateCases: Array<[string, Record<string, unknown>, string, Record<string, unknown>]> = [
  ['description', { urn: U.orders, value: 'New text' }, 'UpdateDescription', { action: 'updated' }],
  ['column_description', { urn: U.orders, field_path: 'status', description: 'Order status' }, 'UpdateDescription', { action: 'updated' }],
  ['tag', { urn: U.orders, action: 'add', target_urn: U.tagFinance }, 'AddTag', { action: 'add', target_urn: U.tagFinance }],
  ['tag', { urn: U.orders, action: 'remove', value: U.tagCertified, field_path: 'amount' }, 'RemoveTag', { action: 'remove' }],
  ['glossary_term', { urn: U.orders, action: 'add', target_urn: U.termRevenue }, 'AddTerm', { action: 'add' }],
  ['glossary_term', { urn: U.orders, action: 'remove', target_urn: U.termOrder }, 'RemoveTerm', { action: 'remove' }],
  ['link', { urn: U.orders, action: 'add', url: 'https://wiki.example.com/orders', value: 'Wiki' }, 'AddLink', { action: 'add' }],
  ['link', { urn: U.orders, action: 'remove', url: 'https://wiki.example.com/orders' }, 'RemoveLink', { action: 'remove' }],
  ['owner', { urn: U.orders, action: 'add', target_urn: U.dataEng }, 'AddOwner', { action: 'add', target_urn: U.dataEng }],
  ['owner', { urn: U.orders, action: 'remove', target_urn: U.alice }, 'RemoveOwner', { action: 'remove' }],
  ['domain', { urn: U.orders, target_urn: U.domainAnalytics }, 'SetDomain', { action: 'set' }],
  ['domain', { urn: U.orders, action: 'remove' }, 'UnsetDomain', { action: 'remove' }],
  ['structured_properties', { urn: U.orders, properties: [{ PropertyURN: 'urn:li:structuredProperty:tier', Values: ['gold', 3] }] }, 'UpsertStructuredProperties', { action: 'set' }],
  ['structured_properties', { urn: U.orders, action: 'remove', property_urns: ['urn:li:structuredProperty:tier'] }, 'RemoveStructuredProperties', { action: 'remove' }],
  ['structured_property', { urn: 'urn:li:structuredProperty:tier', name: 'Tier', description: 'Service tier' }, 'UpdateStructuredProperty', { action: 'updated' }],
  ['incident_status', { urn: 'urn:li:incident:1', state: 'resolved', value: 'Reloaded' }, 'UpdateIncidentStatus', { action: 'updated to RESOLVED' }],
  ['incident', { urn: 'urn:li:incident:1', name: 'Late load (again)', priority: 'low' }, 'UpdateIncident', { action: 'updated' }],
  ['query', { urn: U.queryTopCustomers, value: 'SELECT 2', dataset_urns: [U.orders] }, 'UpdateQuery', { action: 'updated' }],
  ['document_contents', { urn: 'urn:li:document:runbook', title: 'Runbook v2', text: 'Steps' }, 'UpdateDocumentContents', { action: 'updated' }],
  ['document_status', { urn: 'urn:li:document:runbook', value: 'unpublished' }, 'UpdateDocumentStatus', { action: 'updated' }],
  ['document_related_entities', { urn: 'urn:li:document:runbook', entity_urns: [U.orders] }, 'UpdateDocumentRelatedEntities', { action: 'updated' }],
  ['document_sub_type', { urn: 'urn:li:document:runbook', value: 'Runbook' }, 'UpdateDocumentSubType', { action: 'updated' }],
  ['data_contract', { urn: U.orders, schema_assertions: ['urn:li:assertion:schema'] }, 'UpsertDataContract', { action: 'updated' }],
];

describe('catalog_update by what', () => {
  it.each(updateCases)('%s sends a schema-valid mutation (%#)', async (what, args, operation, expected) => {
    const { result, sent } = await write('catalog_update', { what, ...args });
    expect(sent.operationName).toBe(operation);
    expect(result).toMatchObject({ what, ...expected });
  });

  it('column tags and descriptions target the column (DATASET_FIELD sub-resource)', async () => {
    const { sent } = await write('catalog_update', { what: 'column_description', urn: U.orders, field_path: 'status', value: 'x' });
    expect(sent.variables).toEqual({ input: { description: 'x', resourceUrn: U.orders, subResourceType: 'DATASET_FIELD', subResource: 'status' } });
  });

  it('refusals: invalid action, disagreeing inputs, custom_properties', async () => {
    const before = server.requests.length;
    const bad = await callTool(tools, 'catalog_update', { what: 'tag', urn: U.orders, action: 'toggle', target_urn: U.tagPii });
    expect(toolText(bad)).toBe('action must be one of add, remove for what=tag');
    const disagree = await callTool(tools, 'catalog_update', { what: 'description', urn: U.orders, value: 'a', description: 'b' });
    expect(toolText(disagree)).toBe('value and description disagree; give one of them');
    const custom = await callTool(tools, 'catalog_update', { what: 'custom_properties', urn: U.orders, custom_properties: { a: 'b' } });
    expect(custom.structuredContent).toMatchObject({ error: { code: 'feature_unavailable' } });
    expect(toolText(custom)).toMatch(/^Update custom_properties failed: /);
    expect(server.requests.length).toBe(before);
  });
});

describe('catalog_delete by what', () => {
  const deleteCases: Array<[string, string, string]> = [
    ['query', U.queryDailyTotals, 'DeleteQuery'],
    ['tag', U.tagCertified, 'DeleteTag'],
    ['domain', U.domainAnalytics, 'DeleteDomain'],
    ['glossary_entity', U.termContact, 'DeleteGlossaryEntity'],
    ['data_product', U.dataProduct, 'DeleteDataProduct'],
    ['application', 'urn:li:application:shop', 'DeleteApplication'],
    ['document', 'urn:li:document:runbook', 'DeleteDocument'],
    ['structured_property', 'urn:li:structuredProperty:tier', 'DeleteStructuredProperty'],
  ];
  it.each(deleteCases)('%s sends a schema-valid mutation', async (what, urn, operation) => {
    const { result, sent } = await write('catalog_delete', { what, urn });
    expect(sent.operationName).toBe(operation);
    expect(result).toEqual({ urn, what, action: 'deleted' });
  });
});

describe('read-only instances', () => {
  it('a read-only instance among writable ones refuses writes without a request', async () => {
    const yaml = `toolkits:\n  catalog:\n    hub:\n      url: ${server.url}\n      token: ${token}\n    frozen:\n      url: ${server.url}\n      read_only: true\n`;
    const mixed = createCatalogToolkit(parseConfig(yaml, {}).config, { log: silentLogger() }).tools;
    const before = server.requests.length;
    const r = await callTool(mixed, 'catalog_create', { what: 'tag', name: 'x', connection: 'frozen' });
    expect(r.isError).toBe(true);
    expect(toolText(r)).toBe('Create tag failed: write disabled: catalog connection "frozen" is read-only');
    expect(server.requests.length).toBe(before);
  });
});

describe('catalog tool errors', () => {
  const expectNoToken = (r: Awaited<ReturnType<typeof callTool>>) => {
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r)).not.toContain(token);
  };

  it('HTTP 500 → catalog_error, retryable', async () => {
    server.setFault('GetEntity', { status: 500, body: `{"message":"internal failure for Bearer ${token}"}` });
    try {
      const r = await callTool(tools, 'catalog_get_entity', { urn: U.orders });
      expectNoToken(r);
      expect(toolText(r)).toContain('answered HTTP 500');
      expect(r.structuredContent).toMatchObject({ error: { code: 'catalog_error', retryable: true } });
    } finally {
      server.setFault('GetEntity', undefined);
    }
  });

  it('GraphQL errors → catalog_error with the catalog\'s message; writes carry the write prefix', async () => {
    server.setFault('CreateTag', { graphqlErrors: ['Unauthorized to perform this action. Please contact your DataHub administrator.'] });
    try {
      const r = await callTool(tools, 'catalog_create', { what: 'tag', name: 'Denied' });
      expectNoToken(r);
      expect(toolText(r)).toBe('Create tag failed: catalog operation CreateTag failed: Unauthorized to perform this action. Please contact your DataHub administrator.');
    } finally {
      server.setFault('CreateTag', undefined);
    }
  });

  it('timeout → timeout error', async () => {
    const quick = toolsFor([`token: ${token}`, 'timeout: 300ms']);
    server.setFault('GetSchema', { hang: true });
    try {
      const r = await callTool(quick, 'catalog_get_schema', { urn: U.orders });
      expectNoToken(r);
      expect(r.structuredContent).toMatchObject({ error: { code: 'timeout', retryable: true } });
      expect(toolText(r)).toBe('catalog operation GetSchema timed out after 300 ms');
    } finally {
      server.setFault('GetSchema', undefined);
    }
  });

  it('bad token → unauthenticated (the server answers 401)', async () => {
    const r = await callTool(toolsFor(['token: not-the-token']), 'catalog_search', { query: '*' });
    expectNoToken(r);
    expect(JSON.stringify(r)).not.toContain('not-the-token');
    expect(r.structuredContent).toMatchObject({ error: { code: 'unauthenticated' } });
    expect(toolText(r)).toBe('catalog "hub" refused the credentials (HTTP 401): check toolkits.catalog.hub.token');
  });
});
