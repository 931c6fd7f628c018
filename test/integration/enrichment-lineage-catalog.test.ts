/**
 * Lineage inheritance (issue 21 Build 5) against the schema-validated DataHub test server: the
 * fixture's 3-hop table and column lineage raw → staging → sales → analytics, read through the
 * real catalog client. Order own → column lineage → table lineage with nearest and all, column
 * transforms, the hop limit, batching, the cache, and the caller's deadline with a catalog that hangs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../../shared/catalog/index.js';
import {
  CatalogLineageSource,
  catalogLineageSource,
  inheritColumnContext,
  type ColumnContext,
  type LineageSettings,
  type LineageSource,
  type TableRef,
} from '../../shared/enrichment/lineage/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';

let server: DatahubServer;
let client: CatalogClient;

beforeAll(async () => {
  server = await startDatahubServer();
  client = new CatalogClient({ name: 'hub', url: server.url, timeoutMs: 10_000, log: silentLogger() });
});
afterAll(async () => server?.close());
beforeEach(() => {
  server.setFault('GetSchemas', undefined);
  server.setFault('SearchAcrossLineage', undefined);
});

const settings = (s: Partial<LineageSettings> = {}): LineageSettings => ({
  enabled: true,
  max_hops: 3,
  inherit: ['descriptions', 'glossary_terms', 'tags'],
  prefer_column_lineage: true,
  conflict_resolution: 'nearest',
  cache_ttl: 600_000,
  timeout: 10_000,
  column_transforms: [],
  ...s,
});

/** Options for a caller with no deadline of its own: a signal that never aborts (the signal is required). */
const noDeadline = () => ({ signal: new AbortController().signal });
const dailyRevenue: TableRef = { urn: U.dailyRevenue, name: 'hive.analytics.daily_revenue' };
const orders: TableRef = { urn: U.orders, name: 'hive.sales.orders' };

/** The table's own columns as the catalog has them (what the semantic provider hands in). */
async function ownColumns(table: TableRef): Promise<ColumnContext[]> {
  return (await new CatalogLineageSource(client, { columnLineage: false }).datasetColumns(table.urn))!;
}

async function inherit(table: TableRef, s: LineageSettings) {
  const source = new CatalogLineageSource(client, { columnLineage: s.prefer_column_lineage });
  return inheritColumnContext(source, table, await ownColumns(table), s, noDeadline());
}

const byName = (columns: ColumnContext[]) => Object.fromEntries(columns.map((c) => [c.name, c]));

describe('lineage inheritance over the DataHub test server', () => {
  it('follows column lineage three hops: daily_revenue.revenue and .day', async () => {
    const c = byName(await inherit(dailyRevenue, settings()));
    expect(c.revenue).toEqual({
      name: 'revenue',
      description: 'Order amount in USD, after discounts, before tax',
      tags: ['Finance'],
      glossary_terms: [{ urn: U.termRevenue, name: 'Revenue', description: expect.any(String) }],
      inherited_from: {
        descriptions: [{ urn: U.orders, column: 'amount', hops: 1, match_method: 'column_lineage' }],
        tags: [{ urn: U.orders, column: 'amount', hops: 1, match_method: 'column_lineage' }],
        glossary_terms: [{ urn: U.raw, column: 'amount_cents', hops: 3, match_method: 'column_lineage' }],
      },
    });
    expect(c.day).toMatchObject({
      description: 'When the order was placed (UTC)',
      inherited_from: { descriptions: [{ urn: U.raw, column: 'ts', hops: 3, match_method: 'column_lineage' }] },
    });
  });

  it('max_hops 2 stops before the third hop', async () => {
    const c = byName(await inherit(dailyRevenue, settings({ max_hops: 2 })));
    expect(c.revenue!.glossary_terms).toEqual([]);
    expect(c.day!.description).toBeUndefined();
  });

  it('prefers column lineage (renamed columns) over table lineage; own metadata stays', async () => {
    const c = byName(await inherit(orders, settings()));
    expect(c.customer_email).toMatchObject({
      description: 'Customer e-mail address',
      tags: ['PII'],
      glossary_terms: [{ urn: U.termEmail }],
      inherited_from: { descriptions: [{ urn: U.raw, column: 'email', hops: 2, match_method: 'column_lineage' }] },
    });
    expect(c.amount).toMatchObject({ description: 'Order amount in USD, after discounts, before tax', tags: ['Finance'] });
    expect(c.amount!.inherited_from).toMatchObject({ glossary_terms: [{ urn: U.raw, column: 'amount_cents', hops: 2 }] });
    expect(c.amount!.inherited_from!.descriptions).toBeUndefined();
  });

  it('table lineage with column_transforms: nearest takes each kind from the closest hop', async () => {
    const transforms = [{ target_pattern: 'hive.sales.orders.customer_*', strip_prefix: 'customer_' }];
    const c = byName(await inherit(orders, settings({ prefer_column_lineage: false, column_transforms: transforms })));
    expect(c.customer_email).toMatchObject({
      description: 'Customer e-mail address',
      tags: ['Sensitive'],
      glossary_terms: [{ urn: U.termEmail }],
      inherited_from: {
        tags: [{ urn: U.customers, column: 'email', hops: 1, match_method: 'name_transformed' }],
        descriptions: [{ urn: U.raw, column: 'email', hops: 2, match_method: 'name_transformed' }],
        glossary_terms: [{ urn: U.raw, column: 'email', hops: 2, match_method: 'name_transformed' }],
      },
    });
    // without the transform the name matches nowhere upstream
    const plain = byName(await inherit(orders, settings({ prefer_column_lineage: false })));
    expect(plain.customer_email!.inherited_from).toBeUndefined();
  });

  it('table lineage with conflict_resolution all: tags merged from both hops with provenance', async () => {
    const transforms = [{ target_pattern: 'hive.sales.orders.customer_*', strip_prefix: 'customer_' }];
    const c = byName(await inherit(orders, settings({ prefer_column_lineage: false, conflict_resolution: 'all', column_transforms: transforms })));
    expect(c.customer_email!.tags).toEqual(['Sensitive', 'PII']);
    expect(c.customer_email!.inherited_from!.tags).toEqual([
      { urn: U.customers, column: 'email', hops: 1, match_method: 'name_transformed' },
      { urn: U.raw, column: 'email', hops: 2, match_method: 'name_transformed' },
    ]);
  });

  it('reads one hop’s schemas in one request, each dataset once per run', async () => {
    const columns = await ownColumns(orders);
    const before = server.requests.length;
    await inheritColumnContext(new CatalogLineageSource(client, { columnLineage: false }), orders, columns, settings({ max_hops: 1 }), noDeadline());
    const schemaReads = server.requests.slice(before).filter((r) => r.operationName === 'GetSchemas');
    expect(schemaReads.map((r) => r.variables.urns)).toEqual([[U.staging, U.customers]]);

    const start = server.requests.length;
    await inheritColumnContext(new CatalogLineageSource(client, { columnLineage: true }), dailyRevenue, await ownColumns(dailyRevenue), settings(), noDeadline());
    const urns = server.requests
      .slice(start)
      .filter((r) => r.operationName === 'GetSchemas')
      .flatMap((r) => r.variables.urns as string[]);
    expect(urns).toHaveLength(new Set(urns).size);
  });

  it('asks the catalog nothing again within cache_ttl, and again after it', async () => {
    let now = 0;
    const source = catalogLineageSource(client, settings(), () => now);
    const columns = await ownColumns(dailyRevenue);
    const first = await inheritColumnContext(source, dailyRevenue, columns, settings(), noDeadline());
    const after = server.requests.length;
    expect(await inheritColumnContext(source, dailyRevenue, columns, settings(), noDeadline())).toEqual(first);
    expect(server.requests.length).toBe(after);
    now = settings().cache_ttl;
    expect(await inheritColumnContext(source, dailyRevenue, columns, settings(), noDeadline())).toEqual(first);
    expect(server.requests.length).toBeGreaterThan(after);
  });

  it('semantic.lineage.timeout (the enrichment deadline): a catalog that never answers does not hold the caller', async () => {
    server.setFault('SearchAcrossLineage', { hang: true });
    const catalog = new CatalogLineageSource(client, { columnLineage: true });
    let onAsked!: () => void;
    const asked = new Promise<void>((resolve) => (onAsked = resolve));
    const source: LineageSource = {
      datasetColumns: (urn, signal) => catalog.datasetColumns(urn, signal),
      upstreams: (urn, signal) => (onAsked(), catalog.upstreams(urn, signal)),
    };
    const deadline = new AbortController();
    const pending = inheritColumnContext(source, orders, await ownColumns(orders), settings(), { signal: deadline.signal });
    await asked;
    deadline.abort(new Error('enrichment deadline'));
    await expect(pending).rejects.toThrow('enrichment deadline');
  });

  it('an unknown dataset keeps its columns as they are', async () => {
    const unknown = { urn: 'urn:li:dataset:(urn:li:dataPlatform:trino,hive.none.nothing,PROD)', name: 'hive.none.nothing' };
    const columns = await inheritColumnContext(new CatalogLineageSource(client, { columnLineage: true }), unknown, [{ name: 'x', glossary_terms: [], tags: [] }], settings(), noDeadline());
    expect(columns).toEqual([{ name: 'x', glossary_terms: [], tags: [] }]);
  });
});
