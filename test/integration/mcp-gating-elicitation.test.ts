import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import { databaseGatingStore, memoryGatingStore } from '../../shared/workflow-gating/index.js';
import type { ElicitationTrigger } from '../../shared/elicitation/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { startDatabaseReplicas, type DatabaseReplicas } from '../support/replicas.js';
import type { RunningApi } from '../../api/start.js';

const tools = ['sql_query', 'catalog_search'].map((name) =>
  defineTool({ name, toolkit: name.split('_')[0]!, description: name, input: z.object({ sql: z.string().optional() }), handler: async () => textResult(`${name} result`) }),
);
const gatingYaml = `workflow:
  require_discovery_before_query: true
  warning_message: "WARN: search the catalog first."
  escalation:
    after_warnings: 2
    escalation_message: "ESCALATED after {count} queries without discovery."
`;

async function connect(url: string, opts: { elicitation?: (params: unknown) => ElicitResult; fetch?: typeof fetch } = {}) {
  const client = new Client({ name: 'gating', version: '1' }, opts.elicitation ? { capabilities: { elicitation: {} } } : {});
  if (opts.elicitation) {
    const answer = opts.elicitation;
    client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params));
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${testApiKey}` } },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  await client.connect(transport);
  return client;
}

const texts = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>).map((c) => c.text);

describe('workflow gating (memory sessions)', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml({ extra: gatingYaml })), tools });
  });
  afterAll(async () => api?.stop());

  it('warns on the first N queries, escalates after, and discovery resets; sessions are isolated', async () => {
    const first = await connect(api.url);
    const sequence = [];
    for (let i = 0; i < 4; i++) sequence.push(texts(await first.callTool({ name: 'sql_query', arguments: {} })));
    expect(sequence).toEqual([
      ['WARN: search the catalog first.', 'sql_query result'],
      ['WARN: search the catalog first.', 'sql_query result'],
      ['ESCALATED after 3 queries without discovery.', 'sql_query result'],
      ['ESCALATED after 4 queries without discovery.', 'sql_query result'],
    ]);
    const second = await connect(api.url);
    expect(texts(await second.callTool({ name: 'sql_query', arguments: {} }))).toEqual(['WARN: search the catalog first.', 'sql_query result']);

    expect(texts(await first.callTool({ name: 'catalog_search', arguments: {} }))).toEqual(['catalog_search result']);
    expect(texts(await first.callTool({ name: 'sql_query', arguments: {} }))).toEqual(['sql_query result']);
    // The other session has not discovered anything yet.
    expect(texts(await second.callTool({ name: 'sql_query', arguments: {} }))[0]).toBe('WARN: search the catalog first.');
    await first.close();
    await second.close();
  });
});

describe('workflow gating with sessions in the database (two replicas)', () => {
  let setup: DatabaseReplicas;
  beforeAll(async () => {
    setup = await startDatabaseReplicas({
      extra: gatingYaml,
      tools,
      surface: (db) => ({ gatingStore: databaseGatingStore(db, memoryGatingStore(60_000)) }),
    });
  });
  afterAll(async () => setup?.stop());

  it('counts across replicas in one session', async () => {
    const { fetch: alternating } = setup.alternatingFetch();
    const client = await connect(setup.replicas[0].url, { fetch: alternating });
    const firstTexts = [];
    for (let i = 0; i < 3; i++) firstTexts.push(texts(await client.callTool({ name: 'sql_query', arguments: {} }))[0]);
    expect(firstTexts).toEqual(['WARN: search the catalog first.', 'WARN: search the catalog first.', 'ESCALATED after 3 queries without discovery.']);
    await client.callTool({ name: 'catalog_search', arguments: {} });
    expect(texts(await client.callTool({ name: 'sql_query', arguments: {} }))).toEqual(['sql_query result']);
    await client.close();
  });
});

describe('elicitation before a tool runs', () => {
  let api: RunningApi;
  const asked: string[] = [];
  const confirmRisky: ElicitationTrigger = async ({ tool, args }) =>
    tool.name === 'sql_query' && String(args.sql ?? '').includes('huge')
      ? { mode: 'form', message: 'This query scans about 5 billion rows. Run it?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } }
      : undefined;
  beforeAll(async () => {
    api = await startTestApi({
      config: testConfig(apiConfigYaml({ extra: 'elicitation:\n  enabled: true\n' })),
      tools,
      surface: { elicitationTriggers: [confirmRisky] },
    });
  });
  afterAll(async () => api?.stop());

  it('accept runs the tool', async () => {
    const client = await connect(api.url, { elicitation: (p) => (asked.push((p as { message: string }).message), { action: 'accept', content: { confirm: true } }) });
    expect(texts(await client.callTool({ name: 'sql_query', arguments: { sql: 'select huge' } }))).toEqual(['sql_query result']);
    expect(asked).toEqual(['This query scans about 5 billion rows. Run it?']);
    await client.close();
  });

  it('decline (or confirm: false) returns an informational message instead of executing', async () => {
    for (const answer of [{ action: 'decline' }, { action: 'accept', content: { confirm: false } }, { action: 'cancel' }] as ElicitResult[]) {
      const client = await connect(api.url, { elicitation: () => answer });
      const result = await client.callTool({ name: 'sql_query', arguments: { sql: 'select huge' } });
      expect(result.isError).toBeFalsy();
      expect(texts(result)[0]).toMatch(/^The user did not approve running sql_query, so it was not executed/);
      await client.close();
    }
  });

  it('a call no trigger objects to runs without asking', async () => {
    let askedNow = false;
    const client = await connect(api.url, { elicitation: () => ((askedNow = true), { action: 'decline' }) });
    expect(texts(await client.callTool({ name: 'sql_query', arguments: { sql: 'select 1' } }))).toEqual(['sql_query result']);
    expect(askedNow).toBe(false);
    await client.close();
  });

  it('a client without elicitation support gets the tool run untouched', async () => {
    const client = await connect(api.url);
    expect(texts(await client.callTool({ name: 'sql_query', arguments: { sql: 'select huge' } }))).toEqual(['sql_query result']);
    await client.close();
  });
});
