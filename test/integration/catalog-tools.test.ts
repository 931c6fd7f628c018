/**
 * Issue 21 acceptance, "Each tool's parameters, defaults, clamping and shapes; read-only hiding the
 * write tools": the catalog_* tools built from configuration, against the schema-validated DataHub
 * test server (every request they make is validated by the server; an invalid one fails here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createCatalogToolkit, type CatalogToolkit } from '../../shared/catalog/index.js';
import type { CallToolResult } from '../../shared/mcp-tools/index.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import { callTool, toolText } from '../support/sql-tools.js';

let server: DatahubServer;

function toolkit(instances: Record<string, string[]>): CatalogToolkit {
  const yaml = `toolkits:\n  catalog:\n${Object.entries(instances)
    .map(([name, keys]) => `    ${name}:\n      url: ${server.url}\n${keys.map((k) => `      ${k}`).join('\n')}`)
    .join('\n')}\n`;
  return createCatalogToolkit(parseConfig(yaml, {}).config, {
    log: silentLogger(),
    platformConnections: () => [{ kind: 'sql', name: 'warehouse', engine: 'trino', is_default: true, read_only: false }],
  });
}

const structured = (r: CallToolResult) => {
  expect(r.isError, toolText(r)).toBeFalsy();
  expect(JSON.parse(toolText(r))).toEqual(r.structuredContent);
  return r.structuredContent as Record<string, unknown>;
};
const lastVariables = () => server.requests.at(-1)?.variables as { input?: Record<string, unknown> } & Record<string, unknown>;

beforeAll(async () => {
  server = await startDatahubServer();
});
afterAll(async () => {
  await server.close();
});

describe('catalog tools: registration', () => {
  it('registers the read tools and the write tools; read_only hides the writes', () => {
    const names = toolkit({ hub: [] }).tools.map((t) => t.name);
    expect(names.sort()).toEqual(
      [
        'catalog_browse',
        'catalog_create',
        'catalog_delete',
        'catalog_get_data_product',
        'catalog_get_entity',
        'catalog_get_glossary_term',
        'catalog_get_lineage',
        'catalog_get_queries',
        'catalog_get_schema',
        'catalog_list_connections',
        'catalog_search',
        'catalog_update',
      ].sort(),
    );
    const readOnly = toolkit({ hub: ['read_only: true'] }).tools.map((t) => t.name);
    expect(readOnly).not.toContain('catalog_create');
    expect(readOnly).not.toContain('catalog_update');
    expect(readOnly).not.toContain('catalog_delete');
    expect(readOnly).toContain('catalog_get_schema');
  });

  it('no catalog configured: no tools', () => {
    expect(createCatalogToolkit(parseConfig('{}', {}).config, { log: silentLogger() }).tools).toEqual([]);
  });

  it('annotations as the anchor sets them', () => {
    const byName = new Map(toolkit({ hub: [] }).tools.map((t) => [t.name, t.annotations]));
    expect(byName.get('catalog_get_entity')).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    expect(byName.get('catalog_create')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(byName.get('catalog_update')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(byName.get('catalog_delete')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
  });

  it('per-instance descriptions replace the built-in text (the default instance wins)', () => {
    const kit = toolkit({ alpha: ['descriptions:', '  catalog_search: "Alpha search"'], beta: ['descriptions:', '  catalog_search: "Beta search"', '  catalog_browse: "Beta browse"'] });
    const byName = new Map(kit.tools.map((t) => [t.name, t.description]));
    expect(byName.get('catalog_search')).toBe('Alpha search');
    expect(byName.get('catalog_browse')).toBe('Beta browse');
    expect(kit.descriptionOverrides).toEqual({ catalog_search: 'Alpha search', catalog_browse: 'Beta browse' });
  });
});

describe('catalog tools: reads', () => {
  const kit = () => toolkit({ hub: ['default_limit: 2', 'max_limit: 3', 'max_lineage_depth: 2'] });

  it('catalog_search: default_limit when none, clamped to max_limit, entity_type to the enum, offset', async () => {
    const tools = kit().tools;
    const first = structured(await callTool(tools, 'catalog_search', { query: 'orders' }));
    expect(first).toMatchObject({ offset: 0, limit: 2 });
    expect((first.entities as unknown[]).length).toBe(2);
    expect(lastVariables().input).toMatchObject({ type: 'DATASET', count: 2, start: 0 });
    const clamped = structured(await callTool(tools, 'catalog_search', { query: '*', limit: 500, offset: 1 }));
    expect(clamped).toMatchObject({ limit: 3, offset: 1 });
    structured(await callTool(tools, 'catalog_search', { query: '*', entity_type: 'glossaryTerm' }));
    expect(lastVariables().input).toMatchObject({ type: 'GLOSSARY_TERM' });
  });

  it('catalog_search mode semantic: a clear error when the catalog cannot', async () => {
    const r = await callTool(kit().tools, 'catalog_search', { query: 'revenue', mode: 'semantic' });
    expect(r.isError).toBe(true);
    expect(toolText(r)).toContain('semantic search is not available');
    expect(r.structuredContent).toMatchObject({ error: { code: 'feature_unavailable' } });
  });

  it('catalog_get_entity: the Entity shape; unknown URN → not_found', async () => {
    const e = structured(await callTool(kit().tools, 'catalog_get_entity', { urn: U.legacy }));
    expect(e).toMatchObject({ urn: U.legacy, type: 'DATASET', name: 'orders_legacy', deprecation: { deprecated: true }, domain: { urn: U.domainSales } });
    const missing = await callTool(kit().tools, 'catalog_get_entity', { urn: 'urn:li:tag:Nope' });
    expect(missing.structuredContent).toMatchObject({ error: { code: 'not_found' } });
  });

  it('catalog_get_schema: SchemaMetadata with field tags and terms, plus the dataset context', async () => {
    const s = structured(await callTool(kit().tools, 'catalog_get_schema', { urn: U.raw }));
    const fields = s.fields as Array<Record<string, unknown>>;
    expect(fields.map((f) => f.field_path)).toEqual(['order_id', 'email', 'amount_cents', 'ts']);
    expect(fields[1]).toMatchObject({ field_path: 'email', type: 'STRING', native_type: 'varchar', nullable: true, tags: [{ urn: U.tagPii, name: 'PII' }], glossary_terms: [{ urn: U.termEmail }] });
    expect(s).toMatchObject({ primary_keys: ['order_id'], dataset: { urn: U.raw, owners: [{ urn: U.dataEng, type: 'CORP_GROUP' }] } });
  });

  it('catalog_get_lineage: dataset level defaults DOWNSTREAM depth 1, direction case-insensitive, depth clamped to max_lineage_depth', async () => {
    const tools = kit().tools;
    const d = structured(await callTool(tools, 'catalog_get_lineage', { urn: U.raw }));
    expect(d).toMatchObject({ start: U.raw, direction: 'DOWNSTREAM', depth: 1 });
    expect((d.nodes as Array<{ urn: string }>).map((n) => n.urn)).toEqual([U.staging]);
    const up = structured(await callTool(tools, 'catalog_get_lineage', { urn: U.dailyRevenue, direction: 'upstream', depth: 9 }));
    expect(up).toMatchObject({ direction: 'UPSTREAM', depth: 2 });
    expect((up.nodes as Array<{ urn: string; level: number }>).map((n) => [n.urn, n.level]).sort()).toEqual(
      [
        [U.orders, 1],
        [U.staging, 2],
        [U.customers, 2],
      ].sort(),
    );
  });

  it('catalog_get_lineage level column: upstream mappings per hop, and downstream', async () => {
    const tools = toolkit({ hub: ['max_lineage_depth: 5'] }).tools;
    const one = structured(await callTool(tools, 'catalog_get_lineage', { urn: U.orders, level: 'column' }));
    expect(one).toMatchObject({ dataset_urn: U.orders, direction: 'UPSTREAM', depth: 1 });
    expect(one.mappings).toContainEqual({ downstream_dataset: U.orders, downstream_column: 'amount', upstream_dataset: U.staging, upstream_column: 'amount', transform: 'IDENTITY', level: 1 });
    const three = structured(await callTool(tools, 'catalog_get_lineage', { urn: U.dailyRevenue, level: 'column', depth: 3 }));
    const revenue = (three.mappings as Array<Record<string, unknown>>).filter((m) => ['revenue', 'amount', 'amount'].includes(String(m.downstream_column)));
    expect(revenue.map((m) => [m.level, m.upstream_dataset, m.upstream_column])).toEqual([
      [1, U.orders, 'amount'],
      [2, U.staging, 'amount'],
      [3, U.raw, 'amount_cents'],
    ]);
    const down = structured(await callTool(tools, 'catalog_get_lineage', { urn: U.raw, level: 'column', direction: 'DOWNSTREAM', depth: 3 }));
    const fromCents = (down.mappings as Array<Record<string, unknown>>).filter((m) => m.level === 3);
    expect(fromCents).toContainEqual(expect.objectContaining({ downstream_dataset: U.dailyRevenue, downstream_column: 'revenue', upstream_column: 'amount' }));
  });

  it('catalog_get_queries: limit defaults and clamps; the SavedQuery shape', async () => {
    const q = structured(await callTool(kit().tools, 'catalog_get_queries', { urn: U.orders, limit: 50 }));
    expect(lastVariables().input).toMatchObject({ datasetUrn: U.orders, start: 0, count: 3 });
    expect(q).toMatchObject({ total: 1, queries: [{ urn: U.queryTopCustomers, statement: expect.stringContaining('SELECT customer_email') }] });
  });

  it('catalog_get_glossary_term, catalog_get_data_product', async () => {
    const t = structured(await callTool(kit().tools, 'catalog_get_glossary_term', { urn: U.termRevenue }));
    expect(t).toMatchObject({ urn: U.termRevenue, name: 'Revenue', parent_node: U.glossaryNode, related_terms: [{ urn: U.termOrder, relation_type: 'IsRelatedTo' }] });
    const p = structured(await callTool(kit().tools, 'catalog_get_data_product', { urn: U.dataProduct }));
    expect(p).toMatchObject({ urn: U.dataProduct, name: 'Orders 360', assets: [U.orders, U.dailyRevenue], owners: [{ urn: U.alice }] });
    expect(lastVariables()).toMatchObject({ assetCount: 3 });
  });

  it('catalog_browse: exactly one of tags, domains, data_products; limit defaults to max_limit', async () => {
    const tags = structured(await callTool(kit().tools, 'catalog_browse', { what: 'tags' }));
    expect(Object.keys(tags)).toEqual(['tags']);
    expect(lastVariables().input).toMatchObject({ type: 'TAG', query: '*', count: 3 });
    const filtered = structured(await callTool(kit().tools, 'catalog_browse', { what: 'tags', filter: 'finance' }));
    expect(filtered).toEqual({ tags: [{ urn: U.tagFinance, name: 'Finance', description: 'Used in financial reporting' }] });
    const domains = structured(await callTool(kit().tools, 'catalog_browse', { what: 'domains' }));
    expect(Object.keys(domains)).toEqual(['domains']);
    const products = structured(await callTool(kit().tools, 'catalog_browse', { what: 'data_products' }));
    expect(products).toMatchObject({ data_products: [{ urn: U.dataProduct }] });
  });

  it('catalog_list_connections: catalogs (url, default, read-only) and the platform\'s sql/objstore connections', async () => {
    const r = structured(await callTool(toolkit({ hub: [], archive: ['read_only: true', 'connection_name: Archive'] }).tools, 'catalog_list_connections', {}));
    expect(r).toEqual({
      count: 3,
      connections: [
        { kind: 'catalog', name: 'archive', display_name: 'Archive', url: server.url, is_default: true, read_only: true },
        { kind: 'catalog', name: 'hub', url: server.url, is_default: false, read_only: false },
        { kind: 'sql', name: 'warehouse', engine: 'trino', is_default: true, read_only: false },
      ],
    });
  });

  it('connection selects the instance; an unknown one is an error naming those that exist', async () => {
    const r = await callTool(toolkit({ hub: [] }).tools, 'catalog_get_entity', { urn: U.orders, connection: 'nope' });
    expect(r.isError).toBe(true);
    expect(toolText(r)).toBe('unknown catalog connection "nope"; available connections: hub');
  });
});
