/**
 * Fixture data for the DataHub test server (datahub-server.ts), shaped as DataHub's GraphQL types
 * (objects carry `__typename` so interfaces and unions resolve). A small warehouse on platform
 * `trino`, env PROD:
 *
 *   hive.raw.orders_raw ─▶ hive.staging.orders_clean ─▶ hive.sales.orders ─▶ hive.analytics.daily_revenue
 *   hive.sales.customers ─▶ hive.sales.orders          hive.sales.orders_legacy (deprecated, failing health)
 *
 * Fine-grained column lineage runs the three hops raw → staging → sales → analytics:
 * raw.email → staging.customer_email → sales.customer_email; raw.amount_cents → staging.amount →
 * sales.amount → analytics.revenue; raw.ts → staging.created_at → sales.created_at → analytics.day.
 * Columns with metadata of their own: raw.email (description, tag PII, term Email), raw.amount_cents
 * (description, term Revenue), sales.order_id (description), sales.amount (edited description, tag
 * Finance), customers.email (tag Sensitive), customers.customer_id (description). staging.* and
 * sales.customer_email have none (lineage inheritance finds theirs upstream).
 *
 * buildDatahubFixtures() returns a fresh store per server, so one server's writes never reach another.
 */

export const PLATFORM = 'trino';

export const datasetUrn = (name: string, platform = PLATFORM, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;

export const fixtureUrns = {
  raw: datasetUrn('hive.raw.orders_raw'),
  staging: datasetUrn('hive.staging.orders_clean'),
  orders: datasetUrn('hive.sales.orders'),
  customers: datasetUrn('hive.sales.customers'),
  legacy: datasetUrn('hive.sales.orders_legacy'),
  dailyRevenue: datasetUrn('hive.analytics.daily_revenue'),
  tagPii: 'urn:li:tag:PII',
  tagSensitive: 'urn:li:tag:Sensitive',
  tagFinance: 'urn:li:tag:Finance',
  tagCertified: 'urn:li:tag:Certified',
  glossaryNode: 'urn:li:glossaryNode:Commerce',
  termEmail: 'urn:li:glossaryTerm:Commerce.Email',
  termRevenue: 'urn:li:glossaryTerm:Commerce.Revenue',
  termOrder: 'urn:li:glossaryTerm:Commerce.Order',
  termContact: 'urn:li:glossaryTerm:Commerce.ContactDetail',
  domainSales: 'urn:li:domain:sales',
  domainAnalytics: 'urn:li:domain:analytics',
  dataProduct: 'urn:li:dataProduct:orders_360',
  alice: 'urn:li:corpuser:alice',
  dataEng: 'urn:li:corpGroup:data-eng',
  queryTopCustomers: 'urn:li:query:top_customers',
  queryDailyTotals: 'urn:li:query:daily_totals',
} as const;

const U = fixtureUrns;
const stamp = { time: 1_767_225_600_000, actor: U.alice };

export type GqlObject = Record<string, unknown> & { __typename: string; urn?: string };

// ---------------------------------------------------------------------------
// Shared pieces

const platform = { __typename: 'DataPlatform', urn: `urn:li:dataPlatform:${PLATFORM}`, type: 'DATA_PLATFORM', name: PLATFORM };

const alice = {
  __typename: 'CorpUser',
  urn: U.alice,
  type: 'CORP_USER',
  username: 'alice',
  properties: { active: true, displayName: 'Alice Example', fullName: 'Alice Example', email: 'alice@example.com' },
};
const dataEng = { __typename: 'CorpGroup', urn: U.dataEng, type: 'CORP_GROUP', name: 'data-eng', properties: { displayName: 'Data Engineering', email: 'data-eng@example.com' } };

function tagEntity(urn: string, name: string, description: string): GqlObject {
  return { __typename: 'Tag', urn, type: 'TAG', name, properties: { name, description } };
}
const tags: Record<string, GqlObject> = {
  [U.tagPii]: tagEntity(U.tagPii, 'PII', 'Personally identifiable information'),
  [U.tagSensitive]: tagEntity(U.tagSensitive, 'Sensitive', 'Restricted to the owning team'),
  [U.tagFinance]: tagEntity(U.tagFinance, 'Finance', 'Used in financial reporting'),
  [U.tagCertified]: tagEntity(U.tagCertified, 'Certified', 'Reviewed and certified by data governance'),
};

function ownership(associatedUrn: string, owners: Array<{ owner: object; type: string }>) {
  return {
    owners: owners.map((o) => ({
      owner: o.owner,
      ownershipType: { __typename: 'OwnershipTypeEntity', urn: `urn:li:ownershipType:__system__${o.type}`, type: 'CUSTOM_OWNERSHIP_TYPE', info: { name: o.type } },
      associatedUrn,
    })),
    lastModified: stamp,
  };
}

const globalTags = (associatedUrn: string, urns: string[]) => ({ tags: urns.map((u) => ({ tag: tags[u], associatedUrn })) });

const glossaryNode: GqlObject = {
  __typename: 'GlossaryNode',
  urn: U.glossaryNode,
  type: 'GLOSSARY_NODE',
  properties: { name: 'Commerce', description: 'Terms of the order-to-cash process' },
};

function term(urn: string, name: string, description: string, related: Array<{ type: string; urn: string }> = []): GqlObject {
  return {
    __typename: 'GlossaryTerm',
    urn,
    type: 'GLOSSARY_TERM',
    hierarchicalName: `Commerce.${name}`,
    properties: { name, description, termSource: 'INTERNAL', customProperties: [{ key: 'steward', value: 'data-governance', associatedUrn: urn }] },
    parentNodes: { count: 1, nodes: [glossaryNode] },
    ownership: ownership(urn, [{ owner: alice, type: 'business_owner' }]),
    // Resolved lazily: related terms refer to each other.
    relationships: (args: { input: { types: string[] } }) => ({
      start: 0,
      count: related.length,
      total: related.length,
      relationships: related
        .filter((r) => args.input.types.includes(r.type))
        .map((r) => ({ type: r.type, direction: 'OUTGOING', entity: terms[r.urn] })),
    }),
  };
}
const terms: Record<string, GqlObject> = {
  [U.termEmail]: term(U.termEmail, 'Email', 'An e-mail address of a customer', [{ type: 'IsA', urn: U.termContact }]),
  [U.termRevenue]: term(U.termRevenue, 'Revenue', 'Money received for delivered orders, before tax', [{ type: 'IsRelatedTo', urn: U.termOrder }]),
  [U.termOrder]: term(U.termOrder, 'Order', 'A confirmed purchase by a customer'),
  [U.termContact]: term(U.termContact, 'ContactDetail', 'Any detail that reaches a person'),
};
const glossaryTerms = (associatedUrn: string, urns: string[]) => ({ terms: urns.map((u) => ({ term: terms[u], associatedUrn })) });

function domainEntity(urn: string, id: string, name: string, description: string): GqlObject {
  return {
    __typename: 'Domain',
    urn,
    type: 'DOMAIN',
    id,
    properties: { name, description },
    parentDomains: { count: 0, domains: [] },
    ownership: ownership(urn, [{ owner: dataEng, type: 'technical_owner' }]),
  };
}
const domains: Record<string, GqlObject> = {
  [U.domainSales]: domainEntity(U.domainSales, 'sales', 'Sales', 'Orders, customers and revenue'),
  [U.domainAnalytics]: domainEntity(U.domainAnalytics, 'analytics', 'Analytics', 'Derived reporting tables'),
};
const domainOf = (urn: string, associatedUrn: string) => ({ domain: domains[urn], associatedUrn });

// ---------------------------------------------------------------------------
// Datasets

interface FieldSpec {
  path: string;
  type: string;
  native: string;
  description?: string;
  nullable?: boolean;
  tags?: string[];
  terms?: string[];
}

interface DatasetSpec {
  name: string;
  description?: string;
  fields: FieldSpec[];
  /** Catalog edits over the ingested schema (DataHub's editableSchemaMetadata). */
  edits?: Array<{ path: string; description?: string; tags?: string[]; terms?: string[] }>;
  owners?: Array<{ owner: object; type: string }>;
  tags?: string[];
  terms?: string[];
  domain?: string;
  deprecation?: { note: string; decommissionTime?: number };
  health?: Array<{ type: 'ASSERTIONS' | 'INCIDENTS'; status: 'PASS' | 'WARN' | 'FAIL'; message: string }>;
  fineGrained?: Array<{ upstream: [string, string]; downstream: string; transform?: string; query?: string }>;
  topSqlQueries?: string[];
}

function dataset(spec: DatasetSpec): GqlObject {
  const urn = datasetUrn(spec.name);
  const shortName = spec.name.split('.').at(-1) ?? spec.name;
  return {
    __typename: 'Dataset',
    urn,
    type: 'DATASET',
    name: shortName,
    platform,
    origin: 'PROD',
    properties: {
      name: shortName,
      qualifiedName: spec.name,
      origin: 'PROD',
      description: spec.description ?? null,
      customProperties: [{ key: 'format', value: 'parquet', associatedUrn: urn }],
      created: stamp.time,
      lastModified: stamp,
    },
    editableProperties: null,
    ownership: spec.owners ? ownership(urn, spec.owners) : null,
    tags: spec.tags ? globalTags(urn, spec.tags) : null,
    glossaryTerms: spec.terms ? glossaryTerms(urn, spec.terms) : null,
    domain: spec.domain ? domainOf(spec.domain, urn) : null,
    deprecation: spec.deprecation ? { deprecated: true, actor: U.alice, ...spec.deprecation } : null,
    health: spec.health ?? null,
    subTypes: { typeNames: ['Table'] },
    schemaMetadata: {
      name: spec.name,
      platformUrn: platform.urn,
      version: 0,
      hash: `hash-${shortName}`,
      platformSchema: { __typename: 'TableSchema', schema: '' },
      fields: spec.fields.map((f) => ({
        fieldPath: f.path,
        jsonPath: null,
        nullable: f.nullable ?? true,
        description: f.description ?? null,
        type: f.type,
        nativeDataType: f.native,
        recursive: false,
        isPartitioningKey: false,
        tags: f.tags ? globalTags(urn, f.tags) : null,
        glossaryTerms: f.terms ? glossaryTerms(urn, f.terms) : null,
      })),
      primaryKeys: spec.fields[0] ? [spec.fields[0].path] : [],
      foreignKeys: [],
    },
    editableSchemaMetadata: spec.edits
      ? {
          editableSchemaFieldInfo: spec.edits.map((e) => ({
            fieldPath: e.path,
            description: e.description ?? null,
            tags: e.tags ? globalTags(urn, e.tags) : null,
            glossaryTerms: e.terms ? glossaryTerms(urn, e.terms) : null,
          })),
        }
      : null,
    fineGrainedLineages: (spec.fineGrained ?? []).map((l) => ({
      upstreams: [{ urn: datasetUrn(l.upstream[0]), path: l.upstream[1] }],
      downstreams: [{ urn, path: l.downstream }],
      transformOperation: l.transform ?? 'IDENTITY',
      query: l.query ?? null,
    })),
    usageStats: { buckets: [{ metrics: { topSqlQueries: spec.topSqlQueries ?? [] } }] },
  };
}

const datasets: GqlObject[] = [
  dataset({
    name: 'hive.raw.orders_raw',
    description: 'Orders as the shop system exports them, one row per order',
    owners: [{ owner: dataEng, type: 'technical_owner' }],
    domain: U.domainSales,
    fields: [
      { path: 'order_id', type: 'NUMBER', native: 'bigint', description: 'Order identifier from the shop system', nullable: false },
      { path: 'email', type: 'STRING', native: 'varchar', description: 'Customer e-mail address', tags: [U.tagPii], terms: [U.termEmail] },
      { path: 'amount_cents', type: 'NUMBER', native: 'bigint', description: 'Order amount in cents', terms: [U.termRevenue] },
      { path: 'ts', type: 'TIME', native: 'timestamp', description: 'When the order was placed (UTC)' },
    ],
  }),
  dataset({
    name: 'hive.staging.orders_clean',
    fields: [
      { path: 'order_id', type: 'NUMBER', native: 'bigint', nullable: false },
      { path: 'customer_email', type: 'STRING', native: 'varchar' },
      { path: 'amount', type: 'NUMBER', native: 'decimal(12,2)' },
      { path: 'created_at', type: 'TIME', native: 'timestamp' },
    ],
    fineGrained: [
      { upstream: ['hive.raw.orders_raw', 'order_id'], downstream: 'order_id' },
      { upstream: ['hive.raw.orders_raw', 'email'], downstream: 'customer_email', transform: 'LOWER' },
      { upstream: ['hive.raw.orders_raw', 'amount_cents'], downstream: 'amount', transform: 'DIVIDE', query: 'SELECT amount_cents / 100.0 AS amount FROM hive.raw.orders_raw' },
      { upstream: ['hive.raw.orders_raw', 'ts'], downstream: 'created_at' },
    ],
  }),
  dataset({
    name: 'hive.sales.customers',
    description: 'One row per customer',
    owners: [{ owner: alice, type: 'business_owner' }],
    domain: U.domainSales,
    fields: [
      { path: 'customer_id', type: 'NUMBER', native: 'bigint', description: 'Customer identifier', nullable: false },
      { path: 'email', type: 'STRING', native: 'varchar', tags: [U.tagSensitive] },
      { path: 'country', type: 'STRING', native: 'varchar' },
    ],
  }),
  dataset({
    name: 'hive.sales.orders',
    description: 'Cleaned orders, one row per order, the source of truth for revenue',
    owners: [
      { owner: alice, type: 'business_owner' },
      { owner: dataEng, type: 'technical_owner' },
    ],
    tags: [U.tagCertified],
    terms: [U.termOrder],
    domain: U.domainSales,
    health: [{ type: 'ASSERTIONS', status: 'PASS', message: 'All 4 assertions passing' }],
    fields: [
      { path: 'order_id', type: 'NUMBER', native: 'bigint', description: 'Unique order identifier', nullable: false },
      { path: 'customer_email', type: 'STRING', native: 'varchar' },
      { path: 'amount', type: 'NUMBER', native: 'decimal(12,2)', description: 'amount' },
      { path: 'created_at', type: 'TIME', native: 'timestamp' },
      { path: 'status', type: 'STRING', native: 'varchar', description: 'placed, shipped, delivered or returned' },
    ],
    edits: [{ path: 'amount', description: 'Order amount in USD, after discounts, before tax', tags: [U.tagFinance] }],
    fineGrained: [
      { upstream: ['hive.staging.orders_clean', 'order_id'], downstream: 'order_id' },
      { upstream: ['hive.staging.orders_clean', 'customer_email'], downstream: 'customer_email' },
      { upstream: ['hive.staging.orders_clean', 'amount'], downstream: 'amount' },
      { upstream: ['hive.staging.orders_clean', 'created_at'], downstream: 'created_at' },
    ],
    topSqlQueries: ['SELECT status, count(*) FROM hive.sales.orders GROUP BY status'],
  }),
  dataset({
    name: 'hive.sales.orders_legacy',
    description: 'Orders before the 2024 migration',
    owners: [{ owner: dataEng, type: 'technical_owner' }],
    domain: U.domainSales,
    deprecation: { note: 'Use hive.sales.orders instead', decommissionTime: 1_798_761_600_000 },
    health: [{ type: 'ASSERTIONS', status: 'FAIL', message: '2 of 3 assertions failing' }],
    fields: [
      { path: 'id', type: 'NUMBER', native: 'bigint', nullable: false },
      { path: 'total', type: 'NUMBER', native: 'double' },
    ],
  }),
  dataset({
    name: 'hive.analytics.daily_revenue',
    description: 'Revenue per day',
    owners: [{ owner: alice, type: 'business_owner' }],
    domain: U.domainAnalytics,
    fields: [
      { path: 'day', type: 'DATE', native: 'date', nullable: false },
      { path: 'revenue', type: 'NUMBER', native: 'decimal(14,2)' },
    ],
    fineGrained: [
      { upstream: ['hive.sales.orders', 'created_at'], downstream: 'day', transform: 'DATE_TRUNC' },
      { upstream: ['hive.sales.orders', 'amount'], downstream: 'revenue', transform: 'SUM' },
    ],
  }),
];

/** Table-level lineage: each dataset's direct upstreams. */
const upstreams: Record<string, string[]> = {
  [U.staging]: [U.raw],
  [U.orders]: [U.staging, U.customers],
  [U.dailyRevenue]: [U.orders],
};

const dataProduct: GqlObject = {
  __typename: 'DataProduct',
  urn: U.dataProduct,
  type: 'DATA_PRODUCT',
  properties: { name: 'Orders 360', description: 'Everything about orders', numAssets: 2, customProperties: [{ key: 'tier', value: 'gold', associatedUrn: U.dataProduct }] },
  domain: domainOf(U.domainSales, U.dataProduct),
  ownership: ownership(U.dataProduct, [{ owner: alice, type: 'business_owner' }]),
  tags: null,
  glossaryTerms: null,
};
/** The data product's assets (its `entities` field is resolved by the server over the store). */
export const dataProductAssets: Record<string, string[]> = { [U.dataProduct]: [U.orders, U.dailyRevenue] };

function savedQuery(urn: string, name: string, statement: string, subject: string): GqlObject {
  return {
    __typename: 'QueryEntity',
    urn,
    type: 'QUERY',
    properties: {
      name,
      description: `${name} (saved in the catalog)`,
      source: 'MANUAL',
      statement: { value: statement, language: 'SQL' },
      created: stamp,
      createdOn: { time: stamp.time },
      lastModified: stamp,
    },
    subjects: [{ dataset: { urn: subject } }],
  };
}

export interface DatahubFixtureStore {
  /** Every entity by URN (datasets, tags, terms, nodes, domains, data products, users, queries). */
  entities: Map<string, GqlObject>;
  /** Direct upstream datasets per dataset. */
  upstreams: Record<string, string[]>;
  dataProductAssets: Record<string, string[]>;
  /** Saved queries with the dataset each is about. */
  queries: Array<{ entity: GqlObject; datasetUrn: string }>;
}

export function buildDatahubFixtures(): DatahubFixtureStore {
  const queries = [
    { entity: savedQuery(U.queryTopCustomers, 'Top customers', 'SELECT customer_email, sum(amount) FROM hive.sales.orders GROUP BY 1 ORDER BY 2 DESC LIMIT 10', U.orders), datasetUrn: U.orders },
    { entity: savedQuery(U.queryDailyTotals, 'Daily totals', 'SELECT day, revenue FROM hive.analytics.daily_revenue ORDER BY day', U.dailyRevenue), datasetUrn: U.dailyRevenue },
  ];
  // The entity objects are shared; each server keeps its own maps (and copies what it extends).
  const all: GqlObject[] = [
    ...datasets,
    ...Object.values(tags),
    ...Object.values(terms),
    glossaryNode,
    ...Object.values(domains),
    dataProduct,
    alice as GqlObject,
    dataEng as GqlObject,
    ...queries.map((q) => q.entity),
  ];
  return {
    entities: new Map(all.map((e) => [e.urn as string, e])),
    upstreams: { ...upstreams },
    dataProductAssets: { ...dataProductAssets },
    queries,
  };
}
