import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';

describe('MCP over stdio (platform stdio)', () => {
  let dir: string;
  let client: Client;
  let docFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stdio-'));
    docFile = join(dir, 'glossary.md');
    await writeFile(docFile, 'ARR means annual recurring revenue.');
    const configFile = join(dir, 'platform.yaml');
    await writeFile(
      configFile,
      `
server:
  name: acme-data
  description: Sales and finance data for ACME
  tags: [sales, finance]
  agent_instructions: Amounts are in EUR cents.
  prompts:
    - name: weekly_report
      description: Weekly revenue report
      content: "Summarise revenue for {region} in week {week}."
      arguments:
        - { name: region, required: true }
        - { name: week, required: true }
resources:
  custom:
    - uri: "docs://glossary"
      name: Glossary
      mime_type: text/markdown
      content_file: ${JSON.stringify(docFile)}
    - uri: "docs://inline"
      name: Inline note
      description: A short note
      mime_type: text/plain
      content: hello
`,
    );
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [platformBin, 'stdio', '--config', configFile], cwd: repoRoot, env: cliEnv(), stderr: 'pipe' }),
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists tools and calls platform_info', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['platform_info']);
    expect(tools[0]!.description).toBeTruthy();
    const result = await client.callTool({ name: 'platform_info', arguments: {} });
    expect(result.structuredContent).toEqual({
      name: 'acme-data',
      version: '1.0.0',
      description: 'Sales and finance data for ACME',
      tags: ['sales', 'finance'],
      agent_instructions: 'Amounts are in EUR cents.',
      toolkits: [],
      // toolkits.md §4.1: what this deployment has (nothing beyond the stdio basics here).
      features: {
        semantic_enrichment: false,
        query_enrichment: false,
        storage_enrichment: false,
        audit_logging: false,
        knowledge_capture: false,
        knowledge_apply: { enabled: false },
        managed_resources: false,
      },
    });
    expect(client.getInstructions()).toBe('Amounts are in EUR cents.');
  });

  it('gets a prompt with argument substitution, and names a missing argument', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'weekly_report',
        description: 'Weekly revenue report',
        arguments: [
          { name: 'region', description: 'region', required: true },
          { name: 'week', description: 'week', required: true },
        ],
      },
    ]);
    const prompt = await client.getPrompt({ name: 'weekly_report', arguments: { region: 'EMEA', week: '12' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarise revenue for EMEA in week 12.' } }]);
    await expect(client.getPrompt({ name: 'weekly_report', arguments: { region: 'EMEA' } })).rejects.toThrow(/missing required argument week/);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/unknown prompt: nope/);
  });

  it('reads custom resources; a content_file is read afresh on every request', async () => {
    const { resources } = await client.listResources();
    // The built-in MCP App (mcpapps.enabled by default) follows the custom resources.
    expect(resources.map((r) => r.uri)).toEqual(['docs://glossary', 'docs://inline', 'ui://platform-info']);
    expect((await client.readResource({ uri: 'ui://platform-info' })).contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
    const first = await client.readResource({ uri: 'docs://glossary' });
    expect(first.contents[0]).toMatchObject({ text: 'ARR means annual recurring revenue.', mimeType: 'text/markdown' });
    await writeFile(docFile, 'ARR: annual recurring revenue (updated).');
    const second = await client.readResource({ uri: 'docs://glossary' });
    expect(second.contents[0]).toMatchObject({ text: 'ARR: annual recurring revenue (updated).' });
    expect((await client.readResource({ uri: 'docs://inline' })).contents[0]).toMatchObject({ text: 'hello' });
    await expect(client.readResource({ uri: 'docs://missing' })).rejects.toThrow(/resource not found/);
  });
});
