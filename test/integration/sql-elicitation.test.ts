/**
 * sql_query's cost and PII elicitation over a real MCP client on Streamable HTTP, on DuckDB with the
 * sample dataset (orders: 20,000 rows; customers: 1,000 rows with an email column tagged PII by a
 * test tag provider).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createSqlToolkit, ensureSampleData, type PiiTagProvider, type SqlToolkit } from '../../shared/sql/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';

type CallResult = Awaited<ReturnType<Client['callTool']>>;

async function connect(url: string, answer?: (message: string) => ElicitResult) {
  const client = new Client({ name: 'sql-elicitation', version: '1' }, answer ? { capabilities: { elicitation: {} } } : {});
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));
  return client;
}

const firstText = (r: CallResult) => (r.content as Array<{ text: string }>)[0]!.text;
const rowCount = (r: CallResult) => (r.structuredContent as { row_count: number }).row_count;

describe('sql_query elicitation over MCP (HTTP)', () => {
  let dir: string;
  let toolkit: SqlToolkit;
  let api: RunningApi;
  const lookups: string[][] = [];
  const tags: PiiTagProvider = {
    async columnTags(tables) {
      lookups.push(tables.map((t) => `${t.catalog}.${t.schema}.${t.table}`));
      return tables
        .filter((t) => t.table === 'customers')
        .flatMap((t) => [
          { table: t, column: 'email', tags: ['urn:li:tag:PII'] },
          { table: t, column: 'country', tags: ['public'] },
        ]);
    },
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sql-elicit-'));
    const config = testConfig(
      apiConfigYaml({
        extra: `data_dir: ${dir}
elicitation:
  enabled: true
  cost_estimation:
    enabled: true
    row_threshold: 5000
  pii_consent:
    enabled: true
toolkits:
  sql:
    local:
      engine: duckdb
`,
      }),
    );
    toolkit = createSqlToolkit(config, { log: silentLogger(), piiTags: tags });
    await ensureSampleData(toolkit.connection().engine);
    api = await startTestApi({ config, tools: toolkit.tools, surface: { elicitationTriggers: toolkit.elicitationTriggers } });
  });
  afterAll(async () => {
    await api?.stop();
    await toolkit?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks before an over-threshold query; accept runs it', async () => {
    const asked: string[] = [];
    const client = await connect(api.url, (m) => (asked.push(m), { action: 'accept', content: { confirm: true } }));
    const r = await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT * FROM sample.orders' } });
    expect(r.isError).toBeFalsy();
    expect(rowCount(r)).toBe(1000);
    expect(asked).toEqual(['This query will scan approximately 20,000 rows, above the confirmation threshold of 5,000 rows. Do you want to run it?']);
    await client.close();
  });

  it('decline (or cancel) returns an informational message instead of running', async () => {
    for (const answer of [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { confirm: false } }] as ElicitResult[]) {
      const client = await connect(api.url, () => answer);
      const r = await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT * FROM sample.orders' } });
      expect(r.isError).toBeFalsy();
      expect(firstText(r)).toMatch(/^The user did not approve running sql_query, so it was not executed\. The question was: "This query will scan approximately 20,000 rows/);
      expect(r.structuredContent).toBeUndefined();
      await client.close();
    }
  });

  it('a client without elicitation support gets the query run', async () => {
    const client = await connect(api.url);
    const r = await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT * FROM sample.orders' } });
    expect(r.isError).toBeFalsy();
    expect(rowCount(r)).toBe(1000);
    await client.close();
  });

  it('does not ask under the threshold or for tables without PII', async () => {
    let asked = 0;
    const client = await connect(api.url, () => (asked++, { action: 'decline' }));
    const r = await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT count(*) AS n FROM sample.customers WHERE country = \'DE\'' } });
    // customers is under the cost threshold, but it has a PII column: that prompt is the one asked.
    expect(firstText(r)).toMatch(/^The user did not approve running sql_query.*1 column\(s\) tagged as PII or sensitive \(local\.sample\.customers\.email\)/);
    expect(asked).toBe(1);
    const small = await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT * FROM range(10)' } });
    expect(rowCount(small)).toBe(10);
    expect(asked).toBe(1);
    await client.close();
  });

  it('asks about PII columns; accept runs it; cost is asked before PII', async () => {
    const asked: string[] = [];
    const client = await connect(api.url, (m) => (asked.push(m), { action: 'accept', content: {} }));
    const r = await client.callTool({
      name: 'sql_query',
      arguments: { sql: 'SELECT o.order_id, c.email FROM sample.orders o JOIN sample.customers c USING (customer_id)', limit: 5 },
    });
    expect(r.isError).toBeFalsy();
    expect(rowCount(r)).toBe(5);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/^This query will scan approximately [\d,]+ rows/);
    expect(asked[1]).toBe('This query reads tables with 1 column(s) tagged as PII or sensitive (local.sample.customers.email). Do you allow this access?');
    expect(lookups.at(-1)?.sort()).toEqual(['local.sample.customers', 'local.sample.orders']);
    await client.close();
  });

  it('never explains what sql_query refuses: writes and scripts get the refusal, not a prompt', async () => {
    let asked = 0;
    const client = await connect(api.url, () => (asked++, { action: 'accept', content: {} }));
    for (const sql of ['ANALYZE', 'DELETE FROM sample.orders', 'SELECT * FROM sample.orders; DROP TABLE sample.orders']) {
      const r = await client.callTool({ name: 'sql_query', arguments: { sql } });
      expect(r.isError).toBe(true);
    }
    expect(asked).toBe(0);
    const still = await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT count(*) AS n FROM sample.orders' } });
    expect(still.structuredContent).toMatchObject({ rows: [{ n: 20000 }] });
    await client.close();
  });
});
