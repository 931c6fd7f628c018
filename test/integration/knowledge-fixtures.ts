/**
 * Set-up of the knowledge tests (issue 40): the production api role (cli/services.ts
 * startApiRole) with knowledge capture and apply on, writing to the DataHub GraphQL test server
 * (DataHub's real schema; test/support/datahub-server.ts), a fresh Postgres database, tool calls
 * audited. Real MCP clients over Streamable HTTP; REST with bearer keys.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { restJson, testConfig, type Json, auditedApiYaml, toolCallerPerUser } from '../support/api.js';
import { startDatahubServer, type DatahubServer } from '../support/datahub-server.js';
import { createTestDatabase } from '../support/postgres.js';

export const keys = {
  /** Staff: every tool; captures insights. */
  alice: 'alice-knowledge-key-0123456789',
  bob: 'bob-knowledge-key-0123456789',
  /** Platform administrator (admin.persona). */
  root: 'root-knowledge-key-0123456789',
  /** A persona that exposes apply_knowledge but is not the administrators'. */
  cora: 'cora-knowledge-key-0123456789',
  /** A persona whose tools exclude capture_insight. */
  lena: 'lena-knowledge-key-0123456789',
} as const;

export type User = keyof typeof keys;
const roles: Record<User, string> = { alice: 'staff', bob: 'staff', root: 'admin', cora: 'curator', lena: 'limited' };

export interface KnowledgeRig {
  url: string;
  db: Db;
  datahub: DatahubServer;
  api: RunningApiRole;
  call(user: User, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Json; text: string }>;
  connect(user: User): Promise<Client>;
  rest(user: User, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  stop(): Promise<void>;
}

export interface KnowledgeRigOptions {
  /** knowledge.enabled (default true). */
  enabled?: boolean;
  /** knowledge.apply.enabled (default true). */
  apply?: boolean;
  requireConfirmation?: boolean;
  /** knowledge.apply.datahub_connection (default hub, the writable one); none: no catalog configured at all. */
  writeTo?: 'hub' | 'archive' | 'none';
}

export async function startKnowledgeRig(opts: KnowledgeRigOptions = {}): Promise<KnowledgeRig> {
  const writeTo = opts.writeTo ?? 'hub';
  const database = await createTestDatabase();
  const datahub = await startDatahubServer();
  const apiKeys = (Object.keys(keys) as User[]).map((u) => ({ key: keys[u], name: u, roles: [roles[u]] }));
  const config = testConfig(`${auditedApiYaml({ dsn: database.dsn, keys: apiKeys })}personas:
  definitions:
    staff: { roles: [staff], priority: 1 }
    admin: { roles: [admin], priority: 3 }
    curator: { roles: [curator], priority: 2, tools: { allow: [apply_knowledge, capture_insight, platform_info] } }
    limited: { roles: [limited], priority: 2, tools: { deny: [capture_insight] } }
admin:
  persona: admin
${
    writeTo === 'none'
      ? ''
      : `toolkits:
  catalog:
    archive: { url: ${JSON.stringify(datahub.url)}, read_only: true }
    hub: { url: ${JSON.stringify(datahub.url)} }`
  }
knowledge:
  enabled: ${opts.enabled ?? true}
  apply:
    enabled: ${opts.apply ?? true}
${writeTo === 'none' ? '' : `    datahub_connection: ${writeTo}`}
    require_confirmation: ${opts.requireConfirmation ?? false}
`);
  const log = silentLogger();
  const db = (await openDatabase(config, log))!;
  const api = await startApiRole({ config, log, db });
  const clients: Client[] = [];
  const connect = async (user: User) => {
    const client = new Client({ name: `knowledge-${user}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys[user]}` } } }));
    clients.push(client);
    return client;
  };
  return {
    url: api.url,
    db,
    datahub,
    api,
    connect,
    call: toolCallerPerUser(connect),
    rest: (user, method, path, body) => restJson(`${api.url}${path}`, keys[user], method, body),
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await api.stop();
      await db.end();
      await datahub.close();
      await database.drop();
    },
  };
}
