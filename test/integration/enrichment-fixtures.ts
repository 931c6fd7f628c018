/**
 * The enrichment rig of the enrichment-* tests: an api whose SQL toolkit (DuckDB or a real Trino)
 * holds tables the DataHub test server catalogues (test/support/datahub-fixtures.ts: hive.sales.*,
 * hive.raw.orders_raw, plus an s3 dataset added here) and the catalog_* tools over it, wired as cli/ wires it: the semantic provider
 * feeds the PII consent trigger, buildEnrichment gives the innermost middleware and the resources.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createCatalogToolkit } from '../../shared/catalog/index.js';
import { createSessionDedup } from '../../shared/enrichment/dedup/index.js';
import { buildEnrichment, catalogPiiTags, familyReach, semanticProviderFor, type EnrichmentParts } from '../../shared/enrichment/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { allowAllTools, type ToolAccess } from '../../shared/mcp-tools/index.js';
import { createObjstoreConnections, objstoreTools, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createSqlToolkit, type SqlToolkit } from '../../shared/sql/index.js';
import type { RunningApi } from '../../api/start.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { callTool, toolText } from '../support/sql-tools.js';
import { datasetUrn, fixtureUrns, type GqlObject } from '../support/datahub-fixtures.js';
import type { DatahubServer } from '../support/datahub-server.js';

/** The s3 dataset the tests add to the catalog: objects under `landing/events/` of the `landing` bucket. */
export const s3EventsUrn = datasetUrn('landing/events', 's3');

/** Adds the s3 dataset (a copy of hive.raw.orders_raw's context on platform s3). */
export function addS3Dataset(datahub: DatahubServer): void {
  const raw = datahub.store.entities.get(fixtureUrns.raw)!;
  const platform = { __typename: 'DataPlatform', urn: 'urn:li:dataPlatform:s3', type: 'DATA_PLATFORM', name: 's3' };
  const properties = { ...(raw.properties as object), name: 'landing/events', qualifiedName: 'landing/events', description: 'Raw click events landed by the collector' };
  const entity: GqlObject = { ...raw, urn: s3EventsUrn, name: 'landing/events', platform, properties };
  datahub.store.entities.set(s3EventsUrn, entity);
}

/** platform.yaml lines of the providers and switches the tests run with; `catalog` is the SQL catalog mapped to `hive`. */
export function enrichmentYaml(opts: {
  catalog: string;
  sqlInstance: string;
  timeout?: string;
  /** `injection.session_dedup.mode`; off when unset. */
  dedup?: 'reference' | 'summary' | 'none';
  /** `semantic.lineage` lines inside its braces (enabled, inherit, …); off when unset. */
  lineage?: string;
  /** Further SQL catalogs mapped to the catalog's `hive` too (the same tables on another connection). */
  alsoMapped?: readonly string[];
  extra?: string;
}): string {
  return `
semantic:
  provider: catalog
  instance: hub
  cache: { enabled: true, ttl: 5m }
  urn_mapping: { platform: trino, catalog_mapping: { ${[opts.catalog, ...(opts.alsoMapped ?? [])].map((c) => `${c}: hive`).join(', ')} } }
  lineage: { timeout: ${opts.timeout ?? '5s'}${opts.lineage ? `, ${opts.lineage}` : ''} }
query:
  provider: sql
  instance: ${opts.sqlInstance}
  urn_mapping: { catalog_mapping: { hive: ${opts.catalog} } }
storage:
  provider: objstore
  instance: files
injection:
  trino_semantic_enrichment: true
  datahub_query_enrichment: true
  s3_semantic_enrichment: true
  datahub_storage_enrichment: true
  session_dedup: ${opts.dedup ? `{ enabled: true, mode: ${opts.dedup} }` : '{ enabled: false }'}
tuning:
  rules: { warn_on_deprecated: true, quality_threshold: 0.7 }
resources:
  enabled: true
elicitation:
  enabled: true
  pii_consent: { enabled: true }
${opts.extra ?? ''}`;
}

export interface EnrichmentRig {
  api: RunningApi;
  sql: SqlToolkit;
  objstore: ObjstoreConnections;
  parts: EnrichmentParts;
  close(): Promise<void>;
}

/** The objstore toolkit's YAML: a filesystem connection `files` under `root`. */
export const filesYaml = (root: string) => `  objstore:\n    files:\n      driver: filesystem\n      root: ${JSON.stringify(root)}\n`;

/**
 * An api config over DuckDB (`local`, mapped to the catalog's `hive`), the catalog at `datahubUrl` and files under `dir`;
 * each of `alsoMapped` is one more DuckDB connection (its own database, named after it) mapped to `hive` as well.
 */
export function duckdbEnrichmentConfig(dir: string, datahubUrl: string, opts: Omit<Parameters<typeof enrichmentYaml>[0], 'catalog' | 'sqlInstance'> = {}): PlatformConfig {
  return testConfig(
    apiConfigYaml({
      extra: `data_dir: ${dir}
${enrichmentYaml({ catalog: 'local', sqlInstance: 'local', ...opts })}
toolkits:
  sql:
    local: { engine: duckdb }
${(opts.alsoMapped ?? []).map((name) => `    ${name}: { engine: duckdb }\n`).join('')}  catalog:
    hub: { url: "${datahubUrl}" }
${filesYaml(join(dir, 'files'))}`,
    }),
  );
}

export async function startEnrichmentRig(config: PlatformConfig, opts: { access?: ToolAccess } = {}): Promise<EnrichmentRig> {
  const catalog = createCatalogToolkit(config, { log: silentLogger() });
  const client = (instance?: string) => catalog.connections.connection(instance).client;
  const semantic = semanticProviderFor(config, client);
  const sql = createSqlToolkit(config, { log: silentLogger(), ...(semantic ? { piiTags: catalogPiiTags(semantic) } : {}) });
  const objstore = createObjstoreConnections(config, { env: {}, seedBuckets: { files: ['landing'] }, presign: { baseUrl: 'https://data.example.test', key: randomBytes(32) } });
  const tools = [...sql.tools, ...objstoreTools(objstore.tools), ...catalog.tools];
  const access = opts.access ?? allowAllTools;
  const parts = buildEnrichment({
    config,
    ...(semantic ? { semantic } : {}),
    sqlConnection: sql.connection,
    objstoreConnection: (name) => objstore.tools.get(name),
    reach: familyReach(tools, access),
    catalogClient: client,
    dedup: createSessionDedup(config, undefined),
  });
  const api = await startTestApi({
    config,
    tools,
    surface: {
      ...(opts.access ? { access: opts.access } : {}),
      elicitationTriggers: sql.elicitationTriggers,
      innerMiddlewares: parts.middleware ? [parts.middleware] : [],
      templatedResources: parts.resources ? [parts.resources] : [],
    },
  });
  return {
    api,
    sql,
    objstore,
    parts,
    async close() {
      await api.stop();
      await sql.close();
      await objstore.close();
    },
  };
}

/** Runs statements one by one through sql_execute (on `connection`, else the default); throws on the first that fails. */
export async function execute(sql: SqlToolkit, statements: readonly string[], connection?: string): Promise<void> {
  for (const statement of statements) {
    const r = await callTool(sql.tools, 'sql_execute', { sql: statement, ...(connection ? { connection } : {}) });
    if (r.isError) throw new Error(`${statement}: ${toolText(r)}`);
  }
}

/** The tables of the catalog fixtures, in schemas `sales` and `raw` of `catalog` (created when missing). */
export function warehouseStatements(catalog: string, opts: { ifNotExists?: boolean } = {}): string[] {
  const ine = opts.ifNotExists ? 'IF NOT EXISTS ' : '';
  const t = (name: string) => `${catalog}.${name}`;
  return [
    `CREATE SCHEMA ${ine}${t('sales')}`,
    `CREATE SCHEMA ${ine}${t('raw')}`,
    `CREATE TABLE ${ine}${t('sales.orders')} (order_id BIGINT, customer_email VARCHAR, amount DECIMAL(12,2), created_at TIMESTAMP, status VARCHAR)`,
    `CREATE TABLE ${ine}${t('sales.customers')} (customer_id BIGINT, email VARCHAR, country VARCHAR)`,
    `CREATE TABLE ${ine}${t('sales.orders_legacy')} (id BIGINT, total DOUBLE)`,
    `CREATE TABLE ${ine}${t('raw.orders_raw')} (order_id BIGINT, email VARCHAR, amount_cents BIGINT, ts TIMESTAMP)`,
  ];
}

/** An MCP client of the rig's api (with elicitation when `answer` is given). */
export async function mcpClient(url: string, answer?: (message: string) => ElicitResult): Promise<Client> {
  const client = new Client({ name: 'enrichment-test', version: '1' }, answer ? { capabilities: { elicitation: {} } } : {});
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));
  return client;
}
