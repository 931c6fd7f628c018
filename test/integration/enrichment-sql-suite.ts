/**
 * SQL results get catalog context (toolkits.md 5.2, 5.3; document 1 `injection.*`, `tuning.rules.*`,
 * elicitation PII consent) over a real MCP client, for one engine: enrichment-duckdb.test.ts and
 * enrichment-trino.test.ts run it on DuckDB and on a real Trino.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fixtureUrns } from '../support/datahub-fixtures.js';
import type { DatahubServer } from '../support/datahub-server.js';
import { mcpClient, type EnrichmentRig } from './enrichment-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read parsed JSON freely
type Json = any;

export interface SqlSuiteSetup {
  /** The SQL catalog the fixture tables live in (mapped to the catalog service's `hive`). */
  catalog: string;
  start(): Promise<{ rig: EnrichmentRig; datahub: DatahubServer }>;
}


/** The JSON blocks appended after the tool's own first block, merged into one object. */
export function appended(r: CallToolResult): Json {
  return Object.assign({}, ...r.content.slice(1).flatMap((b) => (b.type === 'text' ? [JSON.parse(b.text)] : [])));
}

export function sqlEnrichmentSuite(setup: SqlSuiteSetup): void {
  let rig: EnrichmentRig;
  let datahub: DatahubServer;
  let client: Client;
  const c = setup.catalog;

  beforeAll(async () => {
    ({ rig, datahub } = await setup.start());
    client = await mcpClient(rig.api.url);
  });
  afterAll(async () => {
    await client?.close();
    await rig?.close();
    await datahub?.close();
  });

  const query = async (sql: string) => (await client.callTool({ name: 'sql_query', arguments: { sql } })) as CallToolResult;

  it('5.2/5.3: a sql_query gets the table context and column blocks for exactly the referenced columns', async () => {
    const r = await query(`SELECT email, amount_cents FROM ${c}.raw.orders_raw`);
    expect(r.isError).toBeFalsy();
    // The tool's own block is untouched and still first; structuredContent keeps its rows.
    expect(JSON.parse((r.content[0] as { text: string }).text)).toMatchObject({ columns: expect.any(Array), rows: [] });
    const blocks = appended(r);
    expect(blocks.semantic_context).toMatchObject({
      urn: fixtureUrns.raw,
      description: 'Orders as the shop system exports them, one row per order',
      owners: [{ urn: fixtureUrns.dataEng, type: 'CORP_GROUP', name: 'Data Engineering' }],
      domain: { urn: fixtureUrns.domainSales, name: 'Sales' },
      deprecation: null,
      quality_score: null,
    });
    expect(blocks.column_context).toEqual({
      email: {
        description: 'Customer e-mail address',
        tags: ['PII'],
        glossary_terms: [expect.objectContaining({ urn: fixtureUrns.termEmail, name: 'Email' })],
        is_pii: true,
        is_sensitive: false,
      },
      amount_cents: {
        description: 'Order amount in cents',
        tags: [],
        glossary_terms: [expect.objectContaining({ urn: fixtureUrns.termRevenue, name: 'Revenue' })],
        is_pii: false,
        is_sensitive: false,
      },
    });
    expect(r.structuredContent).toMatchObject({ rows: [], semantic_context: { urn: fixtureUrns.raw }, column_context: { email: {}, amount_cents: {} } });
  });

  it('5.3: a PII-tagged column stays in the block when the statement does not name it', async () => {
    const blocks = appended(await query(`SELECT ts FROM ${c}.raw.orders_raw WHERE order_id > 0`));
    expect(Object.keys(blocks.column_context).sort()).toEqual(['email', 'order_id', 'ts']);
  });

  it('5.2: other tables of a join come as additional_tables; the first is primary', async () => {
    const blocks = appended(await query(`SELECT o.order_id, cu.country FROM ${c}.sales.orders o JOIN ${c}.sales.customers cu ON o.customer_email = cu.email`));
    expect(blocks.semantic_context).toMatchObject({ urn: fixtureUrns.orders, tags: ['Certified'], glossary_terms: [{ urn: fixtureUrns.termOrder }], quality_score: 1 });
    expect(Object.keys(blocks.column_context)).toEqual(['order_id']);
    expect(blocks.additional_tables).toEqual([
      expect.objectContaining({ table: `${c}.sales.customers`, urn: fixtureUrns.customers, description: 'One row per customer' }),
    ]);
  });

  it('5.2 describe path: sql_describe_table gets every column with content, never filtered', async () => {
    const r = (await client.callTool({ name: 'sql_describe_table', arguments: { catalog: c, schema: 'sales', table: 'orders' } })) as CallToolResult;
    const blocks = appended(r);
    expect(Object.keys(blocks.column_context).sort()).toEqual(['amount', 'order_id', 'status']);
    expect(blocks.column_context.amount).toMatchObject({ description: 'Order amount in USD, after discounts, before tax', tags: ['Finance'] });
    expect(r.structuredContent).toMatchObject({ table: 'orders', columns: expect.any(Array), semantic_context: { urn: fixtureUrns.orders } });
  });

  it('5.2: a table the catalog does not know gets nothing', async () => {
    await expectNoBlocks(await query('SELECT 1 AS one'));
  });

  it('tuning.rules: a deprecated table carries a warning, a low quality score a note', async () => {
    const blocks = appended(await query(`SELECT id, total FROM ${c}.sales.orders_legacy`));
    expect(blocks.semantic_context.deprecation).toMatchObject({ deprecated: true, note: 'Use hive.sales.orders instead' });
    expect(blocks.deprecation_warning).toEqual([
      expect.objectContaining({ table: `${c}.sales.orders_legacy`, message: expect.stringMatching(/deprecated in the catalog: Use hive\.sales\.orders instead/) }),
    ]);
    expect(blocks.quality_note).toEqual([expect.objectContaining({ quality_score: 0, threshold: 0.7 })]);
    const healthy = appended(await query(`SELECT order_id FROM ${c}.sales.orders`));
    expect(healthy).not.toHaveProperty('deprecation_warning');
    expect(healthy).not.toHaveProperty('quality_note');
  });

  it('elicitation: PII consent is asked for a column the catalog tags PII (the semantic provider is the tag source)', async () => {
    const asked: string[] = [];
    const consenting = await mcpClient(rig.api.url, (m) => (asked.push(m), { action: 'decline' }));
    const declined = (await consenting.callTool({ name: 'sql_query', arguments: { sql: `SELECT order_id FROM ${c}.raw.orders_raw` } })) as CallToolResult;
    expect(asked).toEqual([`This query reads tables with 1 column(s) tagged as PII or sensitive (${c}.raw.orders_raw.email). Do you allow this access?`]);
    expect((declined.content[0] as { text: string }).text).toMatch(/^The user did not approve running sql_query/);
    // A declined query is not enriched: the middleware sits inside elicitation.
    expect(declined.content).toHaveLength(1);
    const plain = (await consenting.callTool({ name: 'sql_query', arguments: { sql: `SELECT order_id FROM ${c}.sales.orders` } })) as CallToolResult;
    expect(plain.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    await consenting.close();
  });

  it('5.5: a catalog result about the table says it is queryable here, with a column preview', async () => {
    const r = (await client.callTool({ name: 'catalog_get_schema', arguments: { urn: fixtureUrns.orders } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const context = appended(r).query_context[fixtureUrns.orders];
    expect(context).toMatchObject({ available: true, query_table: `${c}.sales.orders`, total_columns: 5 });
    expect(context.schema_preview.map((col: { name: string }) => col.name)).toEqual(['order_id', 'customer_email', 'amount', 'created_at', 'status']);
  });

  it('5.1: error results are left alone', async () => {
    const r = (await client.callTool({ name: 'sql_query', arguments: { sql: `SELECT nope FROM ${c}.sales.orders` } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(r.content).toHaveLength(1);
  });
}

export async function expectNoBlocks(r: CallToolResult): Promise<void> {
  expect(r.isError).toBeFalsy();
  expect(r.content).toHaveLength(1);
}
