import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';

/** Resolves with stdout once `pattern` appears in it; rejects if the process exits first. */
function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stderr:\n${err}`)), timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`platform dev exited with ${code}; stderr:\n${err}`));
    });
  });
}

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

describe('platform dev (npm start) on an empty data dir', () => {
  let dir: string;
  let child: ChildProcessWithoutNullStreams | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exitCode(child);
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('brings up Postgres, Temporal and the api, prints a key an MCP client connects with, and stops cleanly', async () => {
    dir = await mkdtemp(join(tmpdir(), 'dev-'));
    // World-readable like a normal checkout, so the embedded cluster can run as the postgres user under root.
    await chmod(dir, 0o755);
    const configFile = join(dir, 'platform.yaml');
    await writeFile(configFile, 'server:\n  address: "127.0.0.1:0"\n  shutdown:\n    pre_shutdown_delay: 0s\n');
    child = spawn(process.execPath, [platformBin, 'dev', '--config', configFile], {
      cwd: repoRoot,
      env: cliEnv({ PLATFORM_DATA_DIR: join(dir, 'data') }),
    });
    const banner = await waitForOutput(child, /press Ctrl-C to stop/, 240_000);
    const mcpUrl = /MCP endpoint\s+(\S+)/.exec(banner)?.[1];
    const key = /admin API key\s+(pk_\S+)/.exec(banner)?.[1];
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(key).toBeDefined();
    expect(banner).toMatch(/Temporal UI\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(banner).toContain(join(dir, 'data'));

    const client = new Client({ name: 'newcomer', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl!), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    const result = await client.callTool({ name: 'platform_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    // The generated key carries the admin role, which maps to the embedded admin persona (every tool).
    expect(result.structuredContent).toMatchObject({ persona: { name: 'admin' }, toolkits: ['objstore', 'sql'] });
    // The embedded object store has a default bucket; a presigned URL serves the bytes over plain HTTP.
    const put = await client.callTool({ name: 'objstore_put_object', arguments: { bucket: 'default', key: 'hello.txt', body: 'hello, agent' } });
    expect(put.isError).toBeFalsy();
    const presigned = await client.callTool({ name: 'objstore_presign_url', arguments: { bucket: 'default', key: 'hello.txt' } });
    const presignedUrl = (presigned.structuredContent as { url: string }).url;
    expect(presignedUrl.startsWith(mcpUrl!.replace('/mcp', ''))).toBe(true);
    expect(await (await fetch(presignedUrl)).text()).toBe('hello, agent');

    // Managed resources: a person uploads over REST with the key; an agent reads it over MCP.
    const form = new FormData();
    form.append('library', 'global');
    form.append('path', 'templates');
    form.append('file', new Blob(['# Weekly report\n'], { type: 'text/markdown' }), 'weekly.md');
    const upload = await fetch(mcpUrl!.replace('/mcp', '/api/v1/resources'), { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(upload.status).toBe(201);
    const created = (await upload.json()) as { uri: string; outcome: string };
    expect(created.outcome).toBe('created');
    const read = await client.readResource({ uri: created.uri });
    expect(read.contents[0]).toMatchObject({ text: '# Weekly report\n' });
    // The embedded DuckDB connection carries the generated sample dataset.
    const orders = await client.callTool({ name: 'sql_query', arguments: { sql: 'SELECT count(*) AS n FROM sample.orders' } });
    expect(orders.isError).toBeFalsy();
    expect(JSON.stringify(orders.content)).toContain('20000');
    await client.close();

    const ready = await fetch(mcpUrl!.replace('/mcp', '/readyz'));
    expect(await ready.json()).toMatchObject({ ready: true, checks: { database: true, temporal: true } });

    child.kill('SIGINT');
    expect(await exitCode(child)).toBe(0);
  }, 300_000);
});
