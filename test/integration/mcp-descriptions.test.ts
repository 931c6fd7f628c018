import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from '../../shared/logging/index.js';
import { namedTools, platformToolNames } from '../../shared/mcp-tools/index.js';
import { buildToolkits, type Toolkits } from '../../cli/toolkits.js';
import { startTestApi, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';

/**
 * The rule "a description never names a tool the caller cannot call", over MCP with the real
 * toolkits: with no catalog configured, with a catalog a persona may not use, and with everything.
 */
const keys = `
auth:
  api_keys:
    enabled: true
    keys:
      - { key: all-key, name: all, roles: [all] }
      - { key: sql-key, name: sqlonly, roles: [sqlonly] }
      - { key: reader-key, name: reader, roles: [reader] }
personas:
  definitions:
    all: { roles: [all], tools: { allow: ["*"] } }
    sqlonly: { roles: [sqlonly], tools: { allow: ["sql_*"] } }
    reader: { roles: [reader], tools: { allow: ["*"], deny: [sql_execute, sql_list_connections, "objstore_*"] }, hints: { sql_query: "Use sql_execute for writes." } }
`;

function yaml(dataDir: string, catalogUrl?: string): string {
  return `
data_dir: ${JSON.stringify(dataDir)}
server:
  address: "127.0.0.1:0"
  shutdown: { pre_shutdown_delay: 0s }
${keys}
toolkits:
  sql:
    local: { engine: duckdb }
  objstore:
    files: { driver: filesystem }
${catalogUrl ? `  catalog:\n    hub: { url: ${catalogUrl} }\n` : ''}`;
}

interface Rig {
  api: RunningApi;
  toolkits: Toolkits;
}

async function startRig(dataDir: string, catalogUrl?: string): Promise<Rig> {
  const config = testConfig(yaml(dataDir, catalogUrl));
  const toolkits = await buildToolkits(config, silentLogger(), { publicUrl: () => 'http://127.0.0.1' });
  const api = await startTestApi({ config, tools: toolkits.tools, surface: { descriptionOverrides: toolkits.descriptionOverrides } });
  return { api, toolkits };
}

async function listFor(rig: Rig, key: string): Promise<Tool[]> {
  const client = new Client({ name: 'descriptions-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** Each listed tool whose description (or an argument's) names a tool missing from the list, with those names. */
function strayMentions(tools: Tool[]): Record<string, string[]> {
  const listed = new Set(tools.map((t) => t.name));
  const stray: Record<string, string[]> = {};
  for (const tool of tools) {
    const absent = namedTools(`${tool.description ?? ''}\n${JSON.stringify(tool.inputSchema)}`).filter((name) => !listed.has(name));
    if (absent.length) stray[tool.name] = absent;
  }
  return stray;
}

const description = (tools: Tool[], name: string) => tools.find((t) => t.name === name)?.description ?? '';

let dataDir: string;
let withoutCatalog: Rig;
let withCatalog: Rig;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mcp-descriptions-'));
  withoutCatalog = await startRig(join(dataDir, 'a'));
  // The catalog is never called: listing tools does not reach it.
  withCatalog = await startRig(join(dataDir, 'b'), 'http://127.0.0.1:9');
});

afterAll(async () => {
  for (const rig of [withoutCatalog, withCatalog]) {
    await rig?.api.stop();
    await rig?.toolkits.close();
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('a tool description never names a tool the caller cannot call', () => {
  it('no catalog configured: sql_query and sql_execute do not send agents to catalog_search', async () => {
    const tools = await listFor(withoutCatalog, 'all-key');
    expect(tools.map((t) => t.name)).not.toContain('catalog_search');
    expect(strayMentions(tools)).toEqual({});
    expect(description(tools, 'sql_query')).toMatch(/^Run a read-only SQL statement/);
    expect(description(tools, 'sql_query')).toContain('use sql_execute');
  });

  it('a catalog configured but the persona offers only sql tools: no catalog_search either', async () => {
    const tools = await listFor(withCatalog, 'sql-key');
    expect(tools.every((t) => t.name.startsWith('sql_'))).toBe(true);
    expect(strayMentions(tools)).toEqual({});
    expect(description(tools, 'sql_execute')).toContain('For reads use sql_query.');
  });

  it('everything offered: the built-in catalog_search advice is shown', async () => {
    const tools = await listFor(withCatalog, 'all-key');
    expect(strayMentions(tools)).toEqual({});
    expect(description(tools, 'sql_query')).toMatch(/call catalog_search/);
    expect(description(tools, 'sql_execute')).toMatch(/call catalog_search/);
  });

  it('a persona denying some tools: their names leave other descriptions and hints', async () => {
    const tools = await listFor(withCatalog, 'reader-key');
    expect(tools.map((t) => t.name)).toContain('sql_query');
    expect(strayMentions(tools)).toEqual({});
    expect(description(tools, 'sql_query')).not.toContain('sql_execute');
    const connection = (tools.find((t) => t.name === 'sql_query')!.inputSchema.properties as Record<string, { description?: string }>).connection;
    expect(connection?.description).toBe('Connection name; empty means the default connection.');
  });

  it('platformToolNames names every tool the toolkits offer', async () => {
    const tools = await listFor(withCatalog, 'all-key');
    expect(tools.map((t) => t.name).filter((name) => !platformToolNames.includes(name))).toEqual([]);
  });
});
