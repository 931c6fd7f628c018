/**
 * `server.workers` (ours): `platform serve` runs that many api processes on one address with
 * node:cluster. Sessions live in the database, so any worker answers any session; a worker that
 * dies is replaced; SIGTERM stops them all. The config refuses what workers could not share.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../shared/config/index.js';
import { connectMcp, testApiKey } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { requestOnNewConnection, ServeProcess } from './serve-process.js';
import { parseMessages, type Json } from './wire.js';

const clusterYaml = (dsn: string) => `
server:
  address: "127.0.0.1:0"
  transport: http
  workers: 2
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
sessions:
  store: database
database:
  dsn: ${dsn}
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${testApiKey}, name: tester, roles: [analyst] }
personas:
  definitions:
    analyst: { roles: [analyst] }
`;

function problems(yaml: string): Array<{ path: string; message: string }> {
  try {
    parseConfig(yaml, {});
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => ({ path: i.path, message: i.message }));
    throw error;
  }
}

describe('server.workers in the configuration', () => {
  const base = 'server:\n  transport: http\n  workers: 2\n';
  const database = 'database:\n  dsn: postgresql://db/platform\n';

  it('defaults to 1 and refuses anything below 1', () => {
    expect(parseConfig('', {}).config.server.workers).toBe(1);
    expect(problems('server:\n  workers: 0\n').map((p) => p.path)).toEqual(['server.workers']);
  });

  it('accepts several workers with database sessions over HTTP', () => {
    expect(problems(`${base}sessions:\n  store: database\n${database}`)).toEqual([]);
  });

  it('refuses several workers with in-memory sessions, naming sessions.store', () => {
    expect(problems(`${base}${database}`)).toEqual([{ path: 'server.workers', message: expect.stringContaining('sessions.store "database"') }]);
  });

  it('refuses several workers with the stdio transport', () => {
    const found = problems(`server:\n  transport: stdio\n  workers: 3\nsessions:\n  store: database\n${database}`);
    expect(found).toEqual([{ path: 'server.workers', message: expect.stringContaining('stdio is served by one process') }]);
  });

  it('refuses several workers sharing a DuckDB file', () => {
    const found = problems(`${base}sessions:\n  store: database\n${database}toolkits:\n  sql:\n    local: { engine: duckdb }\n`);
    expect(found).toEqual([{ path: 'server.workers', message: expect.stringContaining('toolkits.sql.local') }]);
  });
});

const initializeBody = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'workers-test', version: '1' } } });

describe('platform serve with two workers', () => {
  let dir: string;
  let drop: () => Promise<void>;
  let serve: ServeProcess;
  let url: string;
  let workerPids: number[];

  /** One MCP request on a connection of its own, with the pid of the worker that answered. */
  const post = async (body: string, sessionId?: string) => {
    const response = await requestOnNewConnection(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${testApiKey}`,
        ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body,
      pids: workerPids,
    });
    const [message] = parseMessages(response.headers['content-type'], response.body) as Json[];
    return { ...response, message };
  };

  const listening = () => serve.logged('api listening');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'workers-'));
    const database = await createTestDatabase();
    drop = database.drop;
    const configFile = join(dir, 'platform.yaml');
    await writeFile(configFile, clusterYaml(database.dsn));
    serve = new ServeProcess(configFile);
    const first = await serve.log((l) => l.msg === 'api listening', 'a worker listening');
    const second = await serve.log((l) => l.msg === 'api listening' && l.pid !== first.pid, 'a second worker listening');
    url = new URL(first.url).origin;
    expect(new URL(second.url).origin).toBe(url);
    workerPids = [first.pid, second.pid];
  }, 120_000);

  afterAll(async () => {
    await serve?.stop();
    await drop?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs two worker processes besides the primary, each logging the address they share', () => {
    expect(new Set(workerPids).size).toBe(2);
    expect(workerPids).not.toContain(serve.child.pid);
    expect(listening().map((l) => l.worker).sort()).toEqual([1, 2]);
  });

  it('serves several SDK client sessions', async () => {
    const clients = await Promise.all([1, 2, 3, 4].map(() => connectMcp(url)));
    try {
      for (const client of clients) {
        // With a database the api offers managed scripts too (the persona's tools.allow defaults to "*").
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['platform_info', 'manage_script']);
        expect((await client.callTool({ name: 'platform_info', arguments: {} })).isError).toBeFalsy();
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('both workers answer requests, and a session opened on one continues on the other', async () => {
    const opened = await post(initializeBody(1));
    expect(opened.status).toBe(200);
    const sessionId = opened.headers['mcp-session-id'] as string;
    expect(sessionId).toBeTruthy();
    const calls = [];
    for (let id = 2; id <= 7; id++) {
      calls.push(await post(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'platform_info', arguments: {} } }), sessionId));
    }
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect(call.message.result.isError).toBeFalsy();
    }
    expect(new Set([opened, ...calls].map((c) => c.servedBy))).toEqual(new Set(workerPids));
  });

  it('replaces a worker that is killed, and the replacement serves', async () => {
    const [victim, survivor] = workerPids as [number, number];
    process.kill(victim, 'SIGKILL');
    const stopped = await serve.log((l) => l.msg === 'api worker stopped unexpectedly; starting a replacement' && l.pid === victim, 'the replacement');
    expect(stopped.signal).toBe('SIGKILL');
    const replacement = await serve.log((l) => l.msg === 'api listening' && !workerPids.includes(l.pid), 'the replacement listening');
    workerPids = [replacement.pid, survivor];
    const served = new Set<number | undefined>();
    for (let id = 1; id <= 6; id++) {
      const answer = await post(initializeBody(id));
      expect(answer.status).toBe(200);
      served.add(answer.servedBy);
    }
    expect(served).toEqual(new Set(workerPids));
  });

  it('stops every worker on SIGTERM and exits 0', async () => {
    expect(await serve.stop()).toEqual({ code: 0, signal: null });
    for (const pid of workerPids) expect(existsSync(`/proc/${pid}`)).toBe(false);
  });
});
