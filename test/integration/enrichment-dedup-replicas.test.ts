/**
 * Session de-duplication across two api replicas with database sessions (injection.session_dedup
 * with sessions.store: database), end to end: one MCP session whose requests a load balancer sends
 * to each replica in turn, the same sql_query twice — the second replica sends the reference,
 * because the first one's mark is in Postgres beside the session row.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCatalogToolkit } from '../../shared/catalog/index.js';
import { parseConfig } from '../../shared/config/index.js';
import { buildEnrichment, familyReach, semanticProviderFor } from '../../shared/enrichment/index.js';
import { createSessionDedup } from '../../shared/enrichment/dedup/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { allowAllTools } from '../../shared/mcp-tools/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createSqlToolkit, type SqlToolkit } from '../../shared/sql/index.js';
import { testApiKey } from '../support/api.js';
import { startDatabaseReplicas, type DatabaseReplicas } from '../support/replicas.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';
import { enrichmentYaml, execute, filesYaml, warehouseStatements } from './enrichment-fixtures.js';
import { appended } from './enrichment-sql-suite.js';

describe('session de-duplication across replicas (sessions.store: database)', () => {
  let dir: string;
  let datahub: DatahubServer;
  let sql: SqlToolkit;
  let setup: DatabaseReplicas;
  let objstore: ObjstoreConnections;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'enrich-replicas-'));
    datahub = await startDatahubServer();
    // The enrichment and toolkit keys both replicas run with (the replicas' own config adds the database).
    const yaml = `data_dir: ${dir}
${enrichmentYaml({ catalog: 'local', sqlInstance: 'local', dedup: 'reference' }).replace('elicitation:\n  enabled: true', 'elicitation:\n  enabled: false')}
toolkits:
  sql:
    local: { engine: duckdb }
  catalog:
    hub: { url: "${datahub.url}" }
${filesYaml(join(dir, 'files'))}`;
    const config = parseConfig(yaml, {}).config;
    const catalog = createCatalogToolkit(config, { log: silentLogger() });
    const client = (instance?: string) => catalog.connections.connection(instance).client;
    // One DuckDB file opens once per process: both replicas share the toolkit, each has its own enrichment.
    sql = createSqlToolkit(config, { log: silentLogger() });
    objstore = createObjstoreConnections(config, { env: {}, presign: { baseUrl: 'https://data.example.test', key: randomBytes(32) } });
    await execute(sql, warehouseStatements('local'));
    const semantic = semanticProviderFor(config, client)!;
    setup = await startDatabaseReplicas({
      extra: yaml,
      tools: sql.tools,
      surface: (db) => {
        const parts = buildEnrichment({
          config,
          semantic,
          sqlConnection: sql.connection,
          objstoreConnection: (name) => objstore.tools.get(name),
          reach: familyReach(sql.tools, allowAllTools),
          dedup: createSessionDedup({ injection: config.injection, sessions: { ...config.sessions, store: 'database' } }, db),
        });
        return { innerMiddlewares: [parts.middleware!] };
      },
    });
  });
  afterAll(async () => {
    await setup?.stop();
    await sql?.close();
    await objstore?.close();
    await datahub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the replica serving the repeat sends the reference; the full block went out from the other', async () => {
    const { fetch: alternating, served } = setup.alternatingFetch();
    const client = new Client({ name: 'lb-client', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${setup.replicas[0].url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } }, fetch: alternating }),
    );
    const query = async () => {
      const r = (await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT order_id FROM local.sales.orders' } })) as CallToolResult;
      return { blocks: appended(r), replica: served.at(-1) };
    };
    const first = await query();
    const second = await query();
    expect(first.replica).not.toBe(second.replica);
    expect(first.blocks).toHaveProperty('semantic_context');
    expect(second.blocks).not.toHaveProperty('semantic_context');
    expect(second.blocks.metadata_reference).toMatchObject({ tables: ['local.sales.orders'] });
    await client.close();
  });
});
