/**
 * Cross-enrichment on the stdio surface (`platform stdio`) as on the api's: the `resources.enabled`
 * templates are listed and served — the same
 * composition (cli/toolkits.ts toolkitEnrichment) against the schema-validated DataHub test server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';
import { fixtureUrns } from '../support/datahub-fixtures.js';

describe('cross-enrichment over stdio (platform stdio)', () => {
  let dir: string;
  let hub: DatahubServer;
  let client: Client;

  beforeAll(async () => {
    hub = await startDatahubServer();
    dir = await mkdtemp(join(tmpdir(), 'stdio-enrichment-'));
    const configFile = join(dir, 'platform.yaml');
    await writeFile(
      configFile,
      `
toolkits:
  catalog:
    hub: { url: ${JSON.stringify(hub.url)} }
semantic:
  provider: catalog
  instance: hub
  urn_mapping: { platform: trino }
injection:
  datahub_query_enrichment: true
resources:
  enabled: true
`,
    );
    client = new Client({ name: 'stdio-enrichment-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [platformBin, 'stdio', '--config', configFile], cwd: repoRoot, env: cliEnv(), stderr: 'pipe' }),
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await hub?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the catalog templates and serves a glossary term', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    // No query provider here (no SQL connection): availability:// is not offered.
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['schema://{catalog}.{schema}/{table}', 'glossary://{term}']);
    const term = JSON.parse(((await client.readResource({ uri: 'glossary://Commerce.Email' })).contents[0] as { text: string }).text);
    expect(term).toMatchObject({ urn: fixtureUrns.termEmail, name: 'Email' });
  });
});
