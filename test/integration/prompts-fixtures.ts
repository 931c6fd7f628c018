/**
 * Set-up of the prompts tests (issue 40): the production api role (cli/services.ts startApiRole)
 * over a fresh Postgres database and a filesystem object store, tool calls audited, API keys for
 * the callers. Real MCP clients (the official SDK) over Streamable HTTP; REST with bearer keys.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { testConfig, type Json, auditedApiYaml, toolCallerPerUser } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

export const keys = {
  /** Member of staff and analyst. */
  alice: 'alice-prompts-key-0123456789',
  /** Member of staff only. */
  bob: 'bob-prompts-key-0123456789',
  /** Member of staff and analyst; administers analyst (persona-admin:analyst). */
  carol: 'carol-prompts-key-0123456789',
  /** Platform administrator. */
  root: 'root-prompts-key-0123456789',
  /** A persona whose tools exclude the catalog and SQL tools and manage_prompt. */
  lena: 'lena-prompts-key-0123456789',
} as const;

export type User = keyof typeof keys;

const roles: Record<User, string[]> = {
  alice: ['staff', 'analyst'],
  bob: ['staff'],
  carol: ['staff', 'analyst', 'persona-admin:analyst'],
  root: ['admin'],
  lena: ['limited'],
};

export const subjectOf = (user: User) => `apikey:${user}`;

export interface PromptsRig {
  url: string;
  config: PlatformConfig;
  db: Db;
  api: RunningApiRole;
  connect(user: User): Promise<Client>;
  /** A tool call on the user's one session. */
  call(user: User, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Json; text: string }>;
  rest(user: User | undefined, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; text: string }>;
  /** A second api replica over the same database and object store, with its own sessions and pool. */
  startReplica(): Promise<{ api: RunningApiRole; connect(user: User): Promise<Client>; stop(): Promise<void> }>;
  /** Uploads a managed resource as `user` (multipart POST /api/v1/resources); answers its id. */
  upload(user: User, file: { library?: string; path?: string; name: string; content?: string }): Promise<string>;
  stop(): Promise<void>;
}

/** `server`: more server.* lines (indented); `toolkits`: more toolkits.* lines (indented); `extra`: more top-level sections. */
export async function startPromptsRig(opts: { server?: string; toolkits?: string; extra?: string } = {}): Promise<PromptsRig> {
  const database = await createTestDatabase();
  const root = await mkdtemp(join(tmpdir(), 'prompts-'));
  const apiKeys = (Object.keys(keys) as User[]).map((u) => ({ key: keys[u], name: u, roles: roles[u] }));
  const config = testConfig(`${auditedApiYaml({ dsn: database.dsn, keys: apiKeys, ...(opts.server ? { serverLines: opts.server } : {}) })}personas:
  definitions:
    staff: { roles: [staff], priority: 1 }
    analyst: { roles: [analyst], priority: 2 }
    admin: { roles: [admin], priority: 3 }
    limited: { roles: [limited], priority: 4, tools: { deny: ["sql_*", "catalog_*", manage_prompt] } }
admin:
  persona: admin
toolkits:
  objstore:
    files: { driver: filesystem, root: ${JSON.stringify(join(root, 'objects'))} }
${opts.toolkits ?? ''}
${opts.extra ?? ''}
`);
  const log = silentLogger();
  const db = (await openDatabase(config, log))!;
  let api: RunningApiRole;
  try {
    api = await startApiRole({ config, log, db });
  } catch (error) {
    await db.end();
    await database.drop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const clients: Client[] = [];
  const connectTo = async (url: string, user: User) => {
    const client = new Client({ name: `prompts-${user}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys[user]}` } } }));
    clients.push(client);
    return client;
  };
  const connect = (user: User) => connectTo(api.url, user);
  return {
    url: api.url,
    config,
    db,
    api,
    connect,
    call: toolCallerPerUser(connect),
    async rest(user, method, path, body) {
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: { ...(user ? { authorization: `Bearer ${keys[user]}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let parsed: Json;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed, text };
    },
    async startReplica() {
      const replicaDb = (await openDatabase(config, log))!;
      const replica = await startApiRole({ config, log, db: replicaDb });
      return {
        api: replica,
        connect: (user: User) => connectTo(replica.url, user),
        async stop() {
          await replica.stop();
          await replicaDb.end();
        },
      };
    },
    async upload(user, file) {
      const form = new FormData();
      form.set('library', file.library ?? 'personal');
      form.set('path', file.path ?? '');
      form.set('file', new Blob([file.content ?? `${file.name} content`], { type: 'text/plain' }), file.name);
      const response = await fetch(`${api.url}/api/v1/resources`, { method: 'POST', headers: { authorization: `Bearer ${keys[user]}` }, body: form });
      const body = (await response.json()) as { id?: string; resource?: { id: string } };
      if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
      return body.resource?.id ?? body.id!;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await api.stop();
      await db.end();
      await database.drop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export type { Json };
