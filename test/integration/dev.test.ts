import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { access, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';

/** Everything the child wrote on stderr so far (progress lines, logs). */
function collectStderr(child: ChildProcessWithoutNullStreams): { text: string } {
  const collected = { text: '' };
  child.stderr.on('data', (d: Buffer) => (collected.text += d.toString()));
  return collected;
}

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

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
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
    // No host, as in the default `:8080`: `platform dev` binds loopback all the same.
    await writeFile(configFile, 'server:\n  address: ":0"\n  shutdown:\n    pre_shutdown_delay: 0s\n');
    child = spawn(process.execPath, [platformBin, 'dev', '--config', configFile], {
      cwd: repoRoot,
      // Every step counts as slow, so each says what it is doing on the terminal.
      env: cliEnv({ PLATFORM_DATA_DIR: join(dir, 'data'), PLATFORM_DEV_PROGRESS_AFTER_MS: '0' }),
    });
    const stderr = collectStderr(child);
    const banner = await waitForOutput(child, /press Ctrl-C to stop/, 240_000);
    const mcpUrl = /MCP endpoint\s+(\S+)/.exec(banner)?.[1];
    const key = /admin API key\s+(pk_\S+)/.exec(banner)?.[1];
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(key).toBeDefined();
    expect(banner).toMatch(/Temporal UI\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(banner).toContain(join(dir, 'data'));
    // Progress on stderr, in start-up order, as plain lines (not JSON logs).
    const steps = ['starting embedded Postgres', 'starting Temporal dev server', 'applying database migrations', 'starting the worker', 'starting the api'];
    const at = steps.map((step) => stderr.text.search(new RegExp(`^${step} … \\d+ s$`, 'm')));
    expect(at.every((i) => i >= 0), stderr.text).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(stderr.text).toMatch(/^starting Temporal dev server: done in \d+ s$/m);
    // Bound to loopback only: the machine's other interfaces refuse the port.
    const port = Number(new URL(mcpUrl!).port);
    const external = externalAddress();
    if (external) expect(await accepts(external, port)).toBe(false);
    expect(await accepts('127.0.0.1', port)).toBe(true);

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

    // The portal is served, and the printed one-time link signs the administrator in: once.
    const base = mcpUrl!.replace('/mcp', '');
    expect(banner).toContain(`portal         ${base}/portal/`);
    const link = /sign in\s+(http\S+)/.exec(banner)?.[1];
    expect(link).toMatch(new RegExp(`^${base}/portal/auth/link\\?token=[\\w-]{40,}$`));
    const page = await fetch(`${base}/portal/resources`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const signedIn = await fetch(link!, { redirect: 'manual' });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('/portal/');
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('mcp_session='))!.split(';', 1)[0]!;
    const session = await (await fetch(`${base}/api/v1/portal/session`, { headers: { cookie } })).json();
    expect(session).toMatchObject({ name: 'Administrator', roles: ['admin'], auth_type: 'browser_session', csrf_token: expect.any(String) });
    expect((await fetch(link!, { redirect: 'manual' })).status).toBe(400);

    const ready = await fetch(mcpUrl!.replace('/mcp', '/readyz'));
    expect(await ready.json()).toMatchObject({ ready: true, checks: { database: true, temporal: true } });

    child.kill('SIGINT');
    expect(await exitCode(child)).toBe(0);
  }, 300_000);
});

describe('platform dev with its HTTP port taken', () => {
  let dir: string | undefined;
  let held: Server | undefined;

  afterAll(async () => {
    await new Promise((resolve) => (held ? held.close(resolve) : resolve(undefined)));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('stops at once, before Postgres and Temporal start, with one line naming server.address', async () => {
    dir = await mkdtemp(join(tmpdir(), 'dev-taken-'));
    held = createServer();
    await new Promise<void>((resolve) => held!.listen(0, '127.0.0.1', resolve));
    const port = (held.address() as { port: number }).port;
    const configFile = join(dir, 'platform.yaml');
    await writeFile(configFile, `server:\n  address: ":${port}"\n`);
    const child = spawn(process.execPath, [platformBin, 'dev', '--config', configFile], {
      cwd: repoRoot,
      // Any step started would be announced at once: the output shows none did.
      env: cliEnv({ PLATFORM_DATA_DIR: join(dir, 'data'), PLATFORM_DEV_PROGRESS_AFTER_MS: '0' }),
    });
    const stderr = collectStderr(child);
    expect(await exitCode(child)).toBe(1);
    expect(stderr.text).toBe(
      `server.address 127.0.0.1:${port} is already in use by another process: stop that process, or set server.address to a free address in ${configFile}, e.g. "127.0.0.1:${port + 1}"\n`,
    );
    await expect(access(join(dir, 'data', 'postgres'))).rejects.toThrow();
    await expect(access(join(dir, 'data', 'temporal'))).rejects.toThrow();
  }, 60_000);
});

describe('the api role outside platform dev', () => {
  it('keeps its configured address: no host means every interface', async () => {
    const api = await startTestApi({ config: testConfig(apiConfigYaml().replace('address: "127.0.0.1:0"', 'address: ":0"')) });
    try {
      const bound = api.app.server.address() as { address: string; port: number };
      expect(['0.0.0.0', '::']).toContain(bound.address);
      const external = externalAddress();
      if (external) expect(await accepts(external, bound.port)).toBe(true);
    } finally {
      await api.stop();
    }
  });
});
