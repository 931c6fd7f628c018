/**
 * Set-up of the script-run tests: the production api role (cli/services.ts startApiRole) over a
 * fresh Postgres database, with the embedded DuckDB, managed resources on either storage driver
 * (a filesystem object store, or the run's MinIO under a bucket prefix of the rig's own),
 * tool-call auditing, API keys (three non-administrators and an administrator), and a local HTTP
 * server the fetch allow-list names (127.0.0.1 only).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunningApiRole } from '../../cli/services.js';
import { openDatabase, startApiRole } from '../../cli/services.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { auditedApiYaml, connectMcp, restJson, testConfig } from '../support/api.js';
import { sharedMinio } from '../support/minio.js';
import { createTestDatabase } from '../support/postgres.js';

export const keys = {
  /** staff: manage_*, sql_* and platform_info. */
  alice: 'alice-key-0123456789',
  /** staff: another owner. */
  bob: 'bob-key-0123456789',
  /** limited: manage_script and platform_info only (no sql_query). */
  lim: 'lim-key-0123456789',
  /** admin (admin.persona): a platform administrator. */
  root: 'root-key-0123456789',
} as const;
export type User = keyof typeof keys;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read parsed JSON freely
export type Json = any;

export interface RunsRig {
  db: Db;
  api: RunningApiRole;
  /** The local HTTP server's port (fetch targets: http://127.0.0.1:<port>/…). */
  httpPort: number;
  connect(user: User): Promise<Client>;
  rest(user: User, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }>;
  /** Resolves once `count` requests wait at /hold, with the function that answers them all. */
  holdRequests(count: number): Promise<() => void>;
  stop(): Promise<void>;
}

/**
 * /hello answers text; /to-localhost redirects to the same server under a host not on the list;
 * /export/<text> answers <text> as CSV, /export-fail a 500, /export-broken breaks off mid-body;
 * /hold answers once `release()` is called (and tells `held` each time one arrives).
 */
function startHttpServer(held: { arrived: () => void; waiting: Array<() => void> }): Promise<Server> {
  const server = createServer((request, response) => {
    const port = (server.address() as AddressInfo).port;
    if (request.url === '/hold') {
      held.waiting.push(() => response.end('released'));
      held.arrived();
    } else if (request.url?.startsWith('/export/')) {
      response.writeHead(200, { 'content-type': 'text/csv' });
      response.end(`n,text\n1,${decodeURIComponent(request.url.slice('/export/'.length))}\n`);
    } else if (request.url === '/export-fail') {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('upstream is down');
    } else if (request.url === '/export-broken') {
      response.writeHead(200, { 'content-type': 'text/csv', 'content-length': '1000000' });
      response.write('n,text\n1,partial\n', () => response.destroy());
    } else if (request.url === '/hello') {
      response.writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': request.headers.host ?? '' });
      response.end('hello from the allowed host');
    } else if (request.url === '/to-localhost') {
      response.writeHead(302, { location: `http://localhost:${port}/hello` });
      response.end();
    } else if (request.url?.startsWith('/redirect?to=')) {
      response.writeHead(302, { location: decodeURIComponent(request.url.slice('/redirect?to='.length)) });
      response.end();
    } else if (request.url === '/echo-auth') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`authorization: ${request.headers.authorization ?? 'none'}`);
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export type Driver = 'filesystem' | 's3';

export async function startRunsRig(driver: Driver = 'filesystem'): Promise<RunsRig> {
  const dir = await mkdtemp(join(tmpdir(), 'script-runs-'));
  const storage =
    driver === 's3'
      ? (await sharedMinio()).instanceYaml(6, [`bucket_prefix: sr${randomBytes(4).toString('hex')}-`])
      : `      driver: filesystem\n      root: ${JSON.stringify(join(dir, 'objects'))}`;
  const database = await createTestDatabase();
  const held = { arrived: () => undefined as void, waiting: [] as Array<() => void> };
  const http = await startHttpServer(held);
  const clients: Client[] = [];
  let db: Db | undefined;
  let api: RunningApiRole | undefined;
  const stop = async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await api?.stop();
    await db?.end();
    await database.drop();
    await new Promise((resolve) => http.close(resolve));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const config = testConfig(`${auditedApiYaml({
      dsn: database.dsn,
      dataDir: dir,
      keys: [
        { key: keys.alice, name: 'alice', roles: ['staff'] },
        { key: keys.bob, name: 'bob', roles: ['staff'] },
        { key: keys.lim, name: 'lim', roles: ['limited'] },
        { key: keys.root, name: 'root', roles: ['admin'] },
      ],
    })}personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "sql_*", "platform_info"] } }
    limited: { roles: [limited], priority: 1, tools: { allow: ["manage_script", "platform_info"] } }
    admin: { roles: [admin], priority: 1, tools: { allow: ["manage_*", "sql_*", "platform_info"] } }
toolkits:
  objstore:
    local:
${storage}
  sql:
    local:
      engine: duckdb
scripts:
  max_concurrent_runs: 4
  max_runs_per_caller: 3
  handler_reserved_runs: 0
  run_deadline: 20s
  fetch:
    allow_hosts: ["127.0.0.1:*"]
    timeout: 5s
`);
    const log = silentLogger();
    db = (await openDatabase(config, log))!;
    api = await startApiRole({ config, log, db });
    const running = api;
    return {
      db,
      api: running,
      httpPort: (http.address() as AddressInfo).port,
      async connect(user) {
        const client = await connectMcp(running.url, keys[user]);
        clients.push(client);
        return client;
      },
      holdRequests(count) {
        return new Promise<() => void>((resolve) => {
          held.arrived = () => {
            if (held.waiting.length >= count) resolve(() => held.waiting.splice(0).forEach((answer) => answer()));
          };
        });
      },
      rest: (user, method, path, body) => restJson(`${running.url}/api/v1/portal/scripts${path}`, keys[user], method, body),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A manage_script call: the structured body and whether it failed. */
export async function manageScript(client: Client, args: Record<string, unknown>): Promise<{ isError: boolean; body: Json; text: string }> {
  const result = (await client.callTool({ name: 'manage_script', arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return { isError: result.isError === true, body: result.structuredContent ?? JSON.parse(text || '{}'), text };
}
