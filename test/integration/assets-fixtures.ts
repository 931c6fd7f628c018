/**
 * Set-up of the assets tests (issue 38): the production api role (cli/services.ts startApiRole)
 * with the portal on — assets in a filesystem object store (bucket `portal-assets`, prefix
 * `tenant-a`), tool calls audited, API keys for the callers — a fresh Postgres database, and an
 * HTTP server on loopback serving the implementor logo. Real MCP clients over Streamable HTTP; REST
 * with bearer keys. The portal build is made by the test run's global setup.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { testConfig, type Json, auditedApiYaml, toolCallerPerUser } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

export const keys = {
  /** Staff member: owns assets. */
  alice: 'alice-assets-key-0123456789',
  /** Staff member. */
  bob: 'bob-assets-key-0123456789',
  /** Staff member: named by private shares. */
  carol: 'carol-assets-key-0123456789',
  /** Platform administrator (persona admin). */
  root: 'root-assets-key-0123456789',
  /** A persona whose tools exclude the asset tools. */
  lena: 'lena-assets-key-0123456789',
} as const;

export type User = keyof typeof keys;

const roles: Record<User, string[]> = { alice: ['staff'], bob: ['staff'], carol: ['staff'], root: ['admin'], lena: ['limited'] };

export const subjectOf = (user: User) => `apikey:${user}`;

/** The logo the implementor serves: an SVG with script and an outside reference the viewer must never pass on. */
export const implementorLogo = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="#0b5cd6"/><image href="https://tracker.example/p.png"/><a href="javascript:alert(3)"><circle cx="5" cy="5" r="2" fill="url(https://evil.example/#x)"/></a><foreignObject><div>html</div></foreignObject></svg>`;

export interface AssetsRig {
  url: string;
  config: PlatformConfig;
  db: Db;
  api: RunningApiRole;
  root: string;
  connect(user: User): Promise<Client>;
  call(user: User, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Json; text: string }>;
  rest(user: User | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json; text: string; headers: Headers }>;
  /** The keys stored in the assets' bucket (portal.s3_bucket), as the object store lists them. */
  storedKeys(): Promise<string[]>;
  /** Uploads a managed resource as `user` (multipart POST /api/v1/resources). */
  upload(user: User, file: { library?: string; path?: string; name: string; content: string }): Promise<Json>;
  stop(): Promise<void>;
}

export async function startAssetsRig(opts: { maxContentSize?: number } = {}): Promise<AssetsRig> {
  const database = await createTestDatabase();
  const root = await mkdtemp(join(tmpdir(), 'assets-'));
  const logoServer: Server = createServer((request, response) => {
    if (request.url === '/logo.svg') response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(implementorLogo);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => logoServer.listen(0, '127.0.0.1', resolve));
  const logoPort = (logoServer.address() as { port: number }).port;
  const apiKeys = (Object.keys(keys) as User[]).map((u) => ({ key: keys[u], name: u, roles: roles[u] }));
  const config = testConfig(`${auditedApiYaml({ dsn: database.dsn, keys: apiKeys })}personas:
  definitions:
    staff: { roles: [staff], priority: 1 }
    admin: { roles: [admin], priority: 3 }
    limited: { roles: [limited], priority: 2, tools: { deny: [save_artifact, manage_asset] } }
admin:
  persona: admin
portal:
  enabled: true
  s3_bucket: portal-assets
  s3_prefix: tenant-a
  public_base_url: https://portal.example.test
  max_content_size: ${opts.maxContentSize ?? 4096}
  implementor:
    name: Acme Analytics
    url: https://acme.example.test
    logo: http://127.0.0.1:${logoPort}/logo.svg
toolkits:
  objstore:
    files: { driver: filesystem, root: ${JSON.stringify(join(root, 'objects'))} }
`);
  const log = silentLogger();
  const db = (await openDatabase(config, log))!;
  const api = await startApiRole({ config, log, db });
  const clients: Client[] = [];
  const connect = async (user: User) => {
    const client = new Client({ name: `assets-${user}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys[user]}` } } }));
    clients.push(client);
    return client;
  };
  const connections = createObjstoreConnections(config, { env: {} });
  return {
    url: api.url,
    config,
    db,
    api,
    root,
    connect,
    call: toolCallerPerUser(connect),
    async rest(user, method, path, body, headers = {}) {
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: { ...(user ? { authorization: `Bearer ${keys[user]}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let parsed: Json;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed, text, headers: response.headers };
    },
    async storedKeys() {
      const store = connections.get('files').store;
      if (!(await store.bucketExists('portal-assets'))) return [];
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await store.listObjects('portal-assets', { ...(token ? { continuationToken: token } : {}) });
        keys.push(...page.objects.map((o) => o.key));
        token = page.nextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async upload(user, file) {
      const form = new FormData();
      form.set('library', file.library ?? 'personal');
      form.set('path', file.path ?? '');
      form.set('file', new Blob([file.content], { type: 'text/plain' }), file.name);
      const response = await fetch(`${api.url}/api/v1/resources`, { method: 'POST', headers: { authorization: `Bearer ${keys[user]}` }, body: form });
      const body = await response.json();
      if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
      return body;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await api.stop();
      await connections.close();
      await db.end();
      await database.drop();
      await new Promise<void>((resolve) => logoServer.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

export type { Json };
