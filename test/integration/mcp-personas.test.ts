import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import { startTestApi, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';

const tool = (name: string) =>
  defineTool({ name, toolkit: name.split('_')[0]!, description: `${name} tool`, input: z.object({}), handler: async () => textResult(`${name} ran`) });

const config = `
server:
  address: "127.0.0.1:0"
  shutdown: { pre_shutdown_delay: 0s }
  prompts:
    - name: brief
      description: Daily brief
      content: "Brief for {team}."
      arguments: [{ name: team, required: true }]
tools:
  deny: [sql_explain]
auth:
  api_keys:
    enabled: true
    keys:
      - { key: analyst-key, name: ana, roles: [analyst] }
      - { key: engineer-key, name: eng, roles: [engineer, analyst] }
      - { key: nobody-key, name: nobody, roles: [] }
personas:
  default_persona: default
  definitions:
    default: { roles: [] }
    analyst:
      display_name: Analyst
      description: Reads curated data
      roles: [analyst]
      priority: 10
      tools: { allow: ["sql_*", "catalog_*", platform_info], deny: [sql_execute] }
      hints: { sql_query: "Always filter by region." }
      prompts: { system_prefix: "You act for an analyst.", instructions: "Prefer curated tables." }
    engineer:
      roles: [engineer]
      priority: 20
      tools: { allow: ["*"] }
`;

async function connect(url: string, key: string) {
  const client = new Client({ name: 'persona-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

describe('persona tool authorization over MCP', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({
      config: testConfig(config),
      tools: ['sql_query', 'sql_execute', 'sql_explain', 'catalog_search', 'objstore_list_buckets'].map(tool),
    });
  });
  afterAll(async () => api?.stop());

  it('lists only what the active persona allows, with its hints; tools.deny still hides from the list', async () => {
    const client = await connect(api.url, 'analyst-key');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['catalog_search', 'platform_info', 'sql_query']);
    expect(tools.find((t) => t.name === 'sql_query')!.description).toMatch(/catalog_search[^]*\n\nAlways filter by region\.$/);
    await client.close();
  });

  it('refuses a call to a tool the persona may not use, even when the name is guessed', async () => {
    const client = await connect(api.url, 'analyst-key');
    await expect(client.callTool({ name: 'sql_execute', arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: sql_execute' });
    const hiddenButAllowed = await client.callTool({ name: 'sql_explain', arguments: {} });
    expect(hiddenButAllowed.content).toEqual([{ type: 'text', text: 'sql_explain ran' }]);
    await client.close();
  });

  it('the highest-priority persona is active for a caller with several', async () => {
    const client = await connect(api.url, 'engineer-key');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('objstore_list_buckets');
    expect((await client.callTool({ name: 'sql_execute', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });

  it('the default persona denies every tool', async () => {
    const client = await connect(api.url, 'nobody-key');
    expect((await client.listTools()).tools).toEqual([]);
    await expect(client.callTool({ name: 'platform_info', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('persona text appears in platform_info and frames prompts', async () => {
    const client = await connect(api.url, 'analyst-key');
    const info = await client.callTool({ name: 'platform_info', arguments: {} });
    expect(info.structuredContent).toMatchObject({
      persona: { name: 'analyst', display_name: 'Analyst', description: 'Reads curated data', instructions: 'Prefer curated tables.', system_prefix: 'You act for an analyst.' },
    });
    const prompt = await client.getPrompt({ name: 'brief', arguments: { team: 'sales' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'You act for an analyst.\n\nBrief for sales.' });
    await client.close();
  });
});
