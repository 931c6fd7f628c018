/**
 * Issue 21, Build 1: the catalog client against the schema-validated DataHub test server — each
 * typed call's request and mapping, and each failure (HTTP status, GraphQL errors, timeout, bad
 * token) as a CatalogError whose message never holds the token; debug logging without secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient, CatalogError, catalogOperations, introspectionRefusalMs } from '../../shared/catalog/index.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import { capturingLogger } from '../support/logs.js';

const token = 'tok-s3cr3t-value-123';
let server: DatahubServer;
let client: CatalogClient;
const logs = capturingLogger();

beforeAll(async () => {
  server = await startDatahubServer({ token });
  client = new CatalogClient({ name: 'hub', url: server.url, token, timeoutMs: 5000, debug: true, log: logs.log });
});
afterAll(async () => {
  await server.close();
});

async function failure(p: Promise<unknown>): Promise<CatalogError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CatalogError);
  expect((e as Error).message).not.toContain(token);
  return e as CatalogError;
}

describe('catalog client: reads', () => {
  it('posts to <url>/api/graphql with the bearer token and the operation name', async () => {
    await client.getEntity(U.orders);
    const last = server.requests.at(-1);
    expect(last?.operationName).toBe('GetEntity');
    expect(last?.authorization).toBe(`Bearer ${token}`);
    expect(client.endpoint).toBe(`${server.url}/api/graphql`);
  });

  it('search: keyword over one entity type, paged', async () => {
    const r = await client.search({ query: 'orders', limit: 2, offset: 0 });
    expect(r.total).toBeGreaterThanOrEqual(3);
    expect(r.entities).toHaveLength(2);
    expect(r.entities[0]).toMatchObject({ type: 'DATASET', platform: 'trino' });
    expect(server.requests.at(-1)?.variables).toMatchObject({ input: { type: 'DATASET', query: 'orders', start: 0, count: 2 } });
    const products = await client.search({ query: '*', entityType: 'dataProduct', limit: 10, offset: 0 });
    expect(products.entities.map((e) => e.urn)).toEqual([U.dataProduct]);
  });

  it('getEntity: owners, tags, terms, domain, properties, health; deprecation when deprecated', async () => {
    const e = await client.getEntity(U.orders);
    expect(e).toMatchObject({ urn: U.orders, type: 'DATASET', name: 'orders', platform: 'trino', sub_types: ['Table'] });
    expect(e.owners?.map((o) => o.urn)).toEqual([U.alice, U.dataEng]);
    expect(e.owners?.[0]).toMatchObject({ type: 'CORP_USER', name: 'Alice Example', email: 'alice@example.com' });
    expect(e.tags?.map((t) => t.name)).toEqual(['Certified']);
    expect(e.glossary_terms?.map((t) => t.urn)).toEqual([U.termOrder]);
    expect(e.domain).toMatchObject({ urn: U.domainSales, name: 'Sales' });
    expect(e.deprecation).toBeUndefined();
    expect(e.health).toEqual([{ type: 'ASSERTIONS', status: 'PASS', message: 'All 4 assertions passing' }]);
    const legacy = await client.getEntity(U.legacy);
    expect(legacy.deprecation).toMatchObject({ deprecated: true, note: 'Use hive.sales.orders instead' });
    expect((await failure(client.getEntity('urn:li:dataset:(urn:li:dataPlatform:trino,nope,PROD)'))).kind).toBe('not_found');
  });

  it('getSchema: fields with descriptions, tags and terms, catalog edits laid over the ingested schema', async () => {
    const { schema, dataset } = await client.getSchema(U.orders);
    const amount = schema?.fields.find((f) => f.field_path === 'amount');
    expect(amount).toMatchObject({ description: 'Order amount in USD, after discounts, before tax', native_type: 'decimal(12,2)', type: 'NUMBER' });
    expect(amount?.tags?.map((t) => t.urn)).toEqual([U.tagFinance]);
    expect(schema?.fields.find((f) => f.field_path === 'customer_email')?.description).toBeUndefined();
    expect(dataset).toMatchObject({ urn: U.orders, domain: { urn: U.domainSales } });
    const raw = await client.getSchema(U.raw);
    const email = raw.schema?.fields.find((f) => f.field_path === 'email');
    expect(email?.tags?.map((t) => t.name)).toEqual(['PII']);
    expect(email?.glossary_terms?.map((t) => t.urn)).toEqual([U.termEmail]);
  });

  it('getSchemas: a batch in one request, unknown datasets absent', async () => {
    const before = server.requests.length;
    const m = await client.getSchemas([U.raw, U.staging, 'urn:li:dataset:(urn:li:dataPlatform:trino,nope,PROD)']);
    expect(server.requests.length).toBe(before + 1);
    expect([...m.keys()].sort()).toEqual([U.raw, U.staging].sort());
  });

  it('getLineage: nodes within depth with their level and edges upstream → downstream', async () => {
    const up = await client.getLineage(U.dailyRevenue, { direction: 'UPSTREAM', depth: 2 });
    expect(up.nodes.map((n) => [n.urn, n.level]).sort()).toEqual(
      [
        [U.orders, 1],
        [U.staging, 2],
        [U.customers, 2],
      ].sort(),
    );
    expect(up.edges).toContainEqual({ source: U.orders, target: U.dailyRevenue });
    expect(up.edges).toContainEqual({ source: U.staging, target: U.orders });
    const all = await client.getLineage(U.dailyRevenue, { direction: 'UPSTREAM', depth: 3 });
    expect(all.nodes.find((n) => n.urn === U.raw)?.level).toBe(3);
    const down = await client.getLineage(U.raw, { direction: 'DOWNSTREAM', depth: 5 });
    expect(down.nodes.map((n) => n.urn)).toEqual([U.staging, U.orders, U.dailyRevenue]);
    expect(down.edges).toContainEqual({ source: U.raw, target: U.staging });
  });

  it('getColumnLineage: fine-grained edges, three hops walkable', async () => {
    const rev = await client.getColumnLineage(U.dailyRevenue);
    expect(rev.mappings).toContainEqual({ downstream_column: 'revenue', upstream_dataset: U.orders, upstream_column: 'amount', transform: 'SUM' });
    const batch = await client.getColumnLineages([U.orders, U.staging]);
    expect(batch.get(U.orders)?.mappings.find((m) => m.downstream_column === 'amount')).toMatchObject({ upstream_dataset: U.staging, upstream_column: 'amount' });
    expect(batch.get(U.staging)?.mappings.find((m) => m.downstream_column === 'amount')).toMatchObject({ upstream_dataset: U.raw, upstream_column: 'amount_cents', transform: 'DIVIDE' });
  });

  it('getQueries: saved queries; the usage top queries where listQueries fails', async () => {
    const q = await client.getQueries(U.orders, { limit: 10 });
    expect(q.total).toBe(1);
    expect(q.queries[0]).toMatchObject({ urn: U.queryTopCustomers, name: 'Top customers', source: 'MANUAL', created_by: U.alice });
    server.setFault('ListQueries', { graphqlErrors: ['Validation error: field listQueries undefined'] });
    try {
      const fallback = await client.getQueries(U.orders, { limit: 10 });
      expect(fallback.queries).toEqual([{ statement: 'SELECT status, count(*) FROM hive.sales.orders GROUP BY status', source: 'USAGE' }]);
    } finally {
      server.setFault('ListQueries', undefined);
    }
  });

  it('getGlossaryTerm, browse, getDataProduct', async () => {
    const t = await client.getGlossaryTerm(U.termEmail);
    expect(t).toMatchObject({ urn: U.termEmail, name: 'Email', parent_node: U.glossaryNode, related_terms: [{ urn: U.termContact, name: 'ContactDetail', relation_type: 'IsA' }] });
    expect(t.properties).toEqual({ steward: 'data-governance' });
    const tags = await client.browse('tags', { limit: 10 });
    expect('tags' in tags && tags.tags.map((x) => x.name).sort()).toEqual(['Certified', 'Finance', 'PII', 'Sensitive']);
    const pii = await client.browse('tags', { limit: 10, filter: 'pii' });
    expect('tags' in pii && pii.tags.map((x) => x.urn)).toEqual([U.tagPii]);
    const domains = await client.browse('domains', { limit: 10 });
    expect('domains' in domains && domains.domains.find((d) => d.urn === U.domainSales)?.entity_count).toBeGreaterThan(0);
    const products = await client.browse('data_products', { limit: 10 });
    expect('data_products' in products && products.data_products[0]).toMatchObject({ urn: U.dataProduct, name: 'Orders 360', domain: { urn: U.domainSales } });
    const p = await client.getDataProduct(U.dataProduct, { assetLimit: 100 });
    expect(p.assets).toEqual([U.orders, U.dailyRevenue]);
    expect(p.properties).toEqual({ tier: 'gold' });
  });

  it('semantic search: a clear error where the server lacks it, results where it has it', async () => {
    const e = await failure(client.search({ query: 'revenue', limit: 5, offset: 0, mode: 'semantic' }));
    expect(e.kind).toBe('unsupported');
    expect(e.message).toContain('semantic search is not available');
    // A server that refuses introspection: the search itself tells.
    server.setFault('QueryFields', { graphqlErrors: ['Introspection has been disabled'] });
    try {
      const blind = new CatalogClient({ name: 'blind', url: server.url, token, timeoutMs: 5000, log: logs.log });
      expect((await failure(blind.search({ query: 'revenue', limit: 5, offset: 0, mode: 'semantic' }))).kind).toBe('unsupported');
      expect(server.requests.at(-1)?.operationName).toBe('SemanticSearch');
    } finally {
      server.setFault('QueryFields', undefined);
    }
    const semantic = await startDatahubServer({ semanticSearch: true });
    try {
      const c = new CatalogClient({ name: 'vec', url: semantic.url, timeoutMs: 5000, log: logs.log });
      const r = await c.search({ query: 'revenue', limit: 5, offset: 0, mode: 'semantic' });
      expect(r.entities.map((x) => x.urn)).toContain(U.dailyRevenue);
      expect(semantic.requests.at(-1)?.operationName).toBe('SemanticSearch');
    } finally {
      await semantic.close();
    }
  });
});

describe('catalog client: the semantic search capability check', () => {
  const semantic = { query: 'revenue', limit: 5, offset: 0, mode: 'semantic' as const };
  const probes = () => server.requests.filter((r) => r.operationName === 'QueryFields').length;

  it('a refused introspection is believed for introspectionRefusalMs, not asked again on every call', async () => {
    let now = 1_000_000;
    const blind = new CatalogClient({ name: 'blind', url: server.url, token, timeoutMs: 5000, log: logs.log, now: () => now });
    server.setFault('QueryFields', { graphqlErrors: ['Introspection has been disabled'] });
    try {
      const before = probes();
      for (let i = 0; i < 3; i++) expect((await failure(blind.search(semantic))).kind).toBe('unsupported');
      expect(probes() - before).toBe(1);
      now += introspectionRefusalMs - 1;
      await failure(blind.search(semantic));
      expect(probes() - before).toBe(1);
      now += 1;
      await failure(blind.search(semantic));
      expect(probes() - before).toBe(2);
    } finally {
      server.setFault('QueryFields', undefined);
    }
  });

  it("concurrent callers share one probe, and one caller's cancel fails only that caller", async () => {
    const fresh = new CatalogClient({ name: 'hub', url: server.url, token, timeoutMs: 5000, log: logs.log });
    server.setFault('QueryFields', { delayMs: 100 });
    try {
      const before = probes();
      const quitter = new AbortController();
      const first = fresh.search(semantic, { signal: quitter.signal });
      const second = fresh.search(semantic, { signal: new AbortController().signal });
      quitter.abort();
      expect((await failure(first)).kind).toBe('cancelled');
      const answer = await failure(second);
      expect(answer.kind).toBe('unsupported');
      expect(probes() - before).toBe(1);
    } finally {
      server.setFault('QueryFields', undefined);
    }
  });
});

describe('catalog client: failures', () => {
  it('HTTP 500 → http error with the status', async () => {
    server.setFault('GetEntity', { status: 500, body: `{"message":"boom ${token}"}` });
    try {
      const e = await failure(client.getEntity(U.orders));
      expect(e).toMatchObject({ kind: 'http', status: 500 });
      expect(e.message).toContain('HTTP 500');
    } finally {
      server.setFault('GetEntity', undefined);
    }
  });

  it('GraphQL errors → graphql error with the messages', async () => {
    server.setFault('GetSchema', { graphqlErrors: ['Failed to fetch dataset'] });
    try {
      const e = await failure(client.getSchema(U.orders));
      expect(e.kind).toBe('graphql');
      expect(e.message).toContain('Failed to fetch dataset');
    } finally {
      server.setFault('GetSchema', undefined);
    }
  });

  it('"errors": null or absent is no error; a malformed errors value is an upstream error, not an internal one', async () => {
    const answering = (body: string) => server.setFault('GetEntity', { status: 200, body });
    try {
      answering(`{"data":{"entity":{"urn":"${U.orders}","type":"DATASET"}},"errors":null}`);
      expect((await client.getEntity(U.orders)).urn).toBe(U.orders);
      answering('{"data":{"entity":null},"errors":null}');
      expect((await failure(client.getEntity(U.orders))).kind).toBe('not_found');
      answering('{"data":null,"errors":{"message":"boom"}}');
      const malformed = await failure(client.getEntity(U.orders));
      expect(malformed.kind).toBe('http');
      expect(malformed.message).toBe('catalog "hub" answered GetEntity with a malformed GraphQL answer: "errors" is object, not a list');
      answering('{"data":null,"errors":[null,{"path":["entity"]}]}');
      const unnamed = await failure(client.getEntity(U.orders));
      expect(unnamed.kind).toBe('graphql');
      expect(unnamed.message).toBe('catalog operation GetEntity failed: null; {"path":["entity"]}');
      answering('[]');
      expect((await failure(client.getEntity(U.orders))).message).toContain('not a GraphQL answer');
    } finally {
      server.setFault('GetEntity', undefined);
    }
  });

  it('an operation the schema does not know fails validation at the server', async () => {
    const bogus = { name: 'Bogus', document: 'query Bogus { listDataProducts(input: {}) { total } }' };
    const e = await failure(client.request(bogus));
    expect(e.kind).toBe('graphql');
    expect(e.message).toContain('listDataProducts');
  });

  it('no answer within timeout → timeout error', async () => {
    const quick = new CatalogClient({ name: 'hub', url: server.url, token, timeoutMs: 200, log: logs.log });
    server.setFault('GetEntity', { hang: true });
    try {
      const e = await failure(quick.getEntity(U.orders));
      expect(e.kind).toBe('timeout');
      expect(e.message).toContain('timed out after 200 ms');
    } finally {
      server.setFault('GetEntity', undefined);
    }
  });

  it('a wrong token → unauthenticated (401), without the token in the message', async () => {
    const wrong = new CatalogClient({ name: 'hub', url: server.url, token: 'wrong-token-xyz', timeoutMs: 5000, log: logs.log });
    const e = await failure(wrong.getEntity(U.orders));
    expect(e).toMatchObject({ kind: 'unauthenticated', status: 401 });
    expect(e.message).not.toContain('wrong-token-xyz');
    expect(e.message).toContain('toolkits.catalog.hub.token');
  });

  it('a redirect is not followed: the token never reaches another address', async () => {
    const elsewhere = await startDatahubServer();
    server.setFault('GetEntity', { status: 307, headers: { location: `${elsewhere.url}/api/graphql` } });
    try {
      const e = await failure(client.getEntity(U.orders));
      expect(e).toMatchObject({ kind: 'http', status: 307 });
      expect(elsewhere.requests).toEqual([]);
    } finally {
      server.setFault('GetEntity', undefined);
      await elsewhere.close();
    }
  });

  it('URNs travel as variables, never spliced into the document', async () => {
    const hostile = 'urn:li:dataset:x") { __schema { types { name } } } #';
    const e = await failure(client.getEntity(hostile));
    expect(e.kind).toBe('not_found');
    const last = server.requests.at(-1);
    expect(last?.query).toBe(catalogOperations.getEntityOperation.document);
    expect(last?.variables).toEqual({ urn: hostile });
  });

  it('an unreachable catalog → connection error', async () => {
    const gone = await startDatahubServer();
    const url = gone.url;
    await gone.close();
    const e = await failure(new CatalogClient({ name: 'gone', url, timeoutMs: 5000, log: logs.log }).getEntity(U.orders));
    expect(e.kind).toBe('connection');
  });

  it('debug logs operation names and variables, never the token', async () => {
    await client.mutate(catalogOperations.createTagMutation, { input: { name: 'Debugged', description: `see https://x.test/?access_token=${token}` } });
    const lines = logs.lines.join('\n');
    expect(lines).toContain('"operation":"CreateTag"');
    expect(lines).toContain('Debugged');
    expect(lines).not.toContain(token);
  });
});
