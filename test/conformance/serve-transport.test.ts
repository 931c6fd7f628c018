/**
 * `platform serve` does what `server.transport` says, so a config file alone decides (spec
 * document 1: stdio, the default, or http; sse accepted for backward compatibility): stdio serves
 * MCP on stdin/stdout with no HTTP listener, http serves /mcp, sse also the legacy endpoints.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectMcp, testApiKey } from '../support/api.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import { ServeProcess } from './serve-process.js';

/** A loopback port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const configYaml = (transport: string | undefined, address: string) => `
server:
  name: serve-transport-test
  address: "${address}"
${transport ? `  transport: ${transport}\n` : ''}  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${testApiKey}, name: tester, roles: [analyst] }
personas:
  definitions:
    analyst: { roles: [analyst] }
`;

describe('platform serve follows server.transport', () => {
  let dir: string;
  const cleanups: Array<() => Promise<unknown>> = [];
  const writeConfig = async (name: string, yaml: string) => {
    const file = join(dir, name);
    await writeFile(file, yaml);
    return file;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'serve-transport-'));
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it.each([['stdio', 'stdio'], ['the default (stdio)', undefined]])('%s: serves MCP on stdin/stdout and opens no HTTP listener', async (_what, transport) => {
    const port = await freePort();
    const file = await writeConfig(`stdio-${transport ?? 'default'}.yaml`, configYaml(transport, `127.0.0.1:${port}`));
    const client = new Client({ name: 'serve-stdio', version: '1' });
    // Registered first: a serve that does not answer on stdio is stopped too.
    cleanups.push(() => client.close());
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [platformBin, 'serve', '--config', file], cwd: repoRoot, env: cliEnv(), stderr: 'pipe' }));
    expect(client.getServerVersion()?.name).toBe('serve-transport-test');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['platform_info']);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it.each([
    ['http', 404],
    ['sse', 401],
  ])('%s: serves /mcp over HTTP; GET /sse answers %i', async (transport, sseStatus) => {
    const serve = new ServeProcess(await writeConfig(`${transport}.yaml`, configYaml(transport, '127.0.0.1:0')));
    cleanups.push(() => serve.stop());
    const { url } = await serve.log((l) => l.msg === 'api listening', 'api listening');
    const base = new URL(url).origin;
    const client = await connectMcp(base);
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['platform_info']);
    // Without credentials: 401 where the legacy endpoint exists, 404 where it does not.
    expect((await fetch(`${base}/sse`)).status).toBe(sseStatus);
  });
});
