/**
 * Shared set-up of the managed-resources MCP tests: a fresh Postgres database with migrations, a
 * filesystem object store in a temp directory, the real ResourceService, and the real HTTP api
 * serving it (resources/* methods and manage_resource) to real MCP clients over Streamable HTTP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import {
  createResourceService,
  resourceActor,
  type CreateInput,
  type ReferenceCounter,
  type ResourceService,
  type ResourceView,
} from '../../shared/resources/index.js';
// Not (yet) re-exported by the domain's index.ts, which this task does not own.
import { manageResourceTool } from '../../shared/resources/tool.js';
import type { RunningApi } from '../../api/start.js';
import { callToolJson, startTestApi, testConfig, type Json } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

/** API keys (bearer tokens) of the test callers; the caller's subject is `apikey:<key name>`. */
export const keys = {
  /** Member of personas staff and analyst. */
  alice: 'alice-key-0123456789',
  /** Member of staff only. */
  bob: 'bob-key-0123456789',
  /** Member of staff; administers the analyst persona (persona-admin:analyst) without belonging to it. */
  carol: 'carol-key-0123456789',
  /** Platform administrator (member of the admin persona). */
  root: 'root-key-0123456789',
} as const;

export type User = keyof typeof keys;

const roles: Record<User, string[]> = {
  alice: ['staff', 'analyst'],
  bob: ['staff'],
  carol: ['staff', 'persona-admin:analyst'],
  root: ['staff', 'admin'],
};

export function callerOf(user: User): CallerContext {
  return { subject: `apikey:${user}`, name: user, roles: roles[user], authType: 'apikey' };
}

/** The resource tests' platform: one API key per user, the staff/analyst/admin personas, a filesystem object store. */
export function resourcesConfigYaml(root: string, extra: string, transport: 'http' | 'sse'): string {
  const keyLines = (Object.keys(keys) as User[])
    .map((u) => `      - { key: ${keys[u]}, name: ${u}, roles: [${roles[u].map((r) => JSON.stringify(r)).join(', ')}] }`)
    .join('\n');
  return `
server:
  address: "127.0.0.1:0"
  transport: ${transport}
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
auth:
  api_keys:
    enabled: true
    keys:
${keyLines}
personas:
  definitions:
    staff: { roles: [staff], priority: 1 }
    analyst: { roles: [analyst], priority: 2 }
    admin: { roles: [admin], priority: 3 }
admin:
  persona: admin
toolkits:
  objstore:
    files:
      driver: filesystem
      root: ${JSON.stringify(root)}
${extra}`;
}

export interface ResourcesMcp {
  config: PlatformConfig;
  db: Db;
  service: ResourceService;
  api: RunningApi;
  /** An MCP client over Streamable HTTP as `user`. */
  connect(user: User, opts?: { name?: string }): Promise<Client>;
  /** An MCP client over the legacy HTTP+SSE transport (needs `transport: 'sse'`). */
  connectSse(user: User): Promise<Client>;
  /** Seeds a resource through the service as a person at the portal would. */
  seed(user: User, input: Omit<CreateInput, 'body' | 'origin' | 'if_exists'> & { content: string | Buffer }): Promise<ResourceView>;
  stop(): Promise<void>;
}

export async function startResourcesMcp(opts: {
  extraYaml?: string;
  references?: ReferenceCounter[];
  pageSize?: number;
  maxReadBytes?: number;
  readInlineBytes?: number;
  /** `sse` also serves the legacy HTTP+SSE transport next to /mcp. */
  transport?: 'http' | 'sse';
} = {}): Promise<ResourcesMcp> {
  const database = await createTestDatabase();
  const root = await mkdtemp(join(tmpdir(), 'resources-mcp-'));
  const clients: Client[] = [];
  let db: Db | undefined;
  let objstore: ObjstoreConnections | undefined;
  let api: RunningApi | undefined;
  const stop = async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await api?.stop();
    await objstore?.close();
    await db?.end();
    await database.drop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const config = testConfig(resourcesConfigYaml(root, opts.extraYaml ?? '', opts.transport ?? 'http'));
    db = createPool({ dsn: database.dsn, maxOpenConns: 5, applicationName: 'resources-mcp-test' });
    await migrate(db, { log: silentLogger() });
    objstore = createObjstoreConnections(config, { env: {} });
    const service = createResourceService({ config, db, objstore, log: silentLogger(), ...(opts.references ? { references: opts.references } : {}) });
    api = await startTestApi({
      config,
      db,
      tools: [manageResourceTool(service, { config, ...(opts.readInlineBytes ? { readInlineBytes: opts.readInlineBytes } : {}) })],
      surface: {
        resources: {
          service,
          actorOf: (caller, sessionId) => resourceActor(caller, { config, ...(sessionId ? { sessionId } : {}), origin: 'agent' }),
          ...(opts.pageSize ? { pageSize: opts.pageSize } : {}),
          ...(opts.maxReadBytes ? { maxReadBytes: opts.maxReadBytes } : {}),
        },
      },
    });
    const running = api;
    return {
      config,
      db,
      service,
      api: running,
      async connect(user, o = {}) {
        const client = new Client({ name: o.name ?? `resources-${user}`, version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys[user]}` } } }),
        );
        clients.push(client);
        return client;
      },
      async connectSse(user) {
        const authorization = `Bearer ${keys[user]}`;
        const client = new Client({ name: `resources-sse-${user}`, version: '1.0.0' });
        await client.connect(
          new SSEClientTransport(new URL(`${running.url}/sse`), {
            requestInit: { headers: { authorization } },
            eventSourceInit: {
              fetch: (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), authorization } }),
            },
          }),
        );
        clients.push(client);
        return client;
      },
      async seed(user, input) {
        const { content, ...rest } = input;
        const result = await service.create(resourceActor(callerOf(user), { config, origin: 'person' }), {
          ...rest,
          if_exists: 'fail',
          origin: 'portal',
          body: Readable.from([Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8')]),
        });
        return result.resource;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type { Json };

/** A manage_resource call: the structured body and whether it failed. */
export const manage = (client: Client, args: Record<string, unknown>) => callToolJson(client, 'manage_resource', args);
