/**
 * Issue 21 acceptance, "gating counts catalog tools as discovery": with
 * workflow.require_discovery_before_query on and the default discovery list (`catalog_*`), a real
 * catalog tool called over MCP opens the gate for the session's queries — even when it fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createCatalogToolkit } from '../../shared/catalog/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import type { RunningApi } from '../../api/start.js';

const gatingYaml = `workflow:
  require_discovery_before_query: true
  warning_message: "WARN: search the catalog first."
`;
// A stand-in for sql_query: only the gate's notice is under test here.
const sqlQuery = defineTool({ name: 'sql_query', toolkit: 'sql', description: 'q', input: z.object({}), handler: async () => textResult('rows') });

let datahub: DatahubServer;
let api: RunningApi;

beforeAll(async () => {
  datahub = await startDatahubServer();
  const config = testConfig(apiConfigYaml({ extra: `${gatingYaml}toolkits:\n  catalog:\n    hub:\n      url: ${datahub.url}\n` }));
  const catalog = createCatalogToolkit(config, { log: silentLogger() });
  api = await startTestApi({ config, tools: [sqlQuery, ...catalog.tools] });
});
afterAll(async () => {
  await api?.stop();
  await datahub?.close();
});

async function connect() {
  const client = new Client({ name: 'catalog-gating', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));
  return client;
}
const texts = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as Array<{ text: string }>).map((c) => c.text);

describe('workflow gating with the catalog tools', () => {
  it.each(['catalog_get_schema', 'catalog_browse', 'catalog_get_lineage'])('%s counts as discovery', async (tool) => {
    const client = await connect();
    expect(texts(await client.callTool({ name: 'sql_query', arguments: {} }))).toEqual(['WARN: search the catalog first.', 'rows']);
    const args = tool === 'catalog_browse' ? { what: 'tags' } : { urn: U.orders };
    const r = await client.callTool({ name: tool, arguments: args });
    expect(r.isError).toBeFalsy();
    expect(texts(await client.callTool({ name: 'sql_query', arguments: {} }))).toEqual(['rows']);
    await client.close();
  });

  it('a catalog call that fails still counts', async () => {
    const client = await connect();
    const r = await client.callTool({ name: 'catalog_get_entity', arguments: { urn: 'urn:li:tag:Missing' } });
    expect(r.isError).toBe(true);
    expect(texts(await client.callTool({ name: 'sql_query', arguments: {} }))).toEqual(['rows']);
    await client.close();
  });
});
