/**
 * Set-up of the managed-scripts tests: a fresh Postgres database with migrations, the real
 * ScriptStore, and the real api serving manage_script over MCP (with tool-call auditing, wired as
 * in production) and the portal's script routes, authenticated by API keys through the api's chain.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { databaseApiKeys } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { manageScriptTool, scriptActor, ScriptStore, type ScriptActor } from '../../shared/scripts/index.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import { scriptRoutes } from '../../api/portal/scripts.js';
import { startApi, type RunningApi } from '../../api/start.js';
import { toolCallAudit } from '../../cli/audit.js';
import { callToolJson, restJson, testConfig, type Json } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

/** API keys of the test callers; a caller's subject is `apikey:<name>`. */
export const keys = {
  /** staff persona (may use manage_script). */
  alice: 'alice-key-0123456789',
  /** staff persona too: another owner. */
  bob: 'bob-key-0123456789',
  /** viewer persona, whose tools.allow does not allow manage_script. */
  carol: 'carol-key-0123456789',
  /** Platform administrator (admin persona). */
  root: 'root-key-0123456789',
} as const;

export type User = keyof typeof keys;

const roles: Record<User, string[]> = { alice: ['staff'], bob: ['staff'], carol: ['viewer'], root: ['admin'] };

export function callerOf(user: User): CallerContext {
  return { subject: `apikey:${user}`, name: user, roles: roles[user], authType: 'apikey' };
}

function configYaml(dsn: string): string {
  const keyLines = (Object.keys(keys) as User[]).map((u) => `      - { key: ${keys[u]}, name: ${u}, roles: [${roles[u].join(', ')}] }`).join('\n');
  return `
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
auth:
  api_keys:
    enabled: true
    keys:
${keyLines}
database:
  dsn: ${JSON.stringify(dsn)}
audit:
  enabled: true
  log_tool_calls: true
personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "platform_info"] } }
    viewer: { roles: [viewer], priority: 1, tools: { allow: ["platform_info"] } }
    admin: { roles: [admin], priority: 2 }
admin:
  persona: admin
`;
}

export interface ScriptsRig {
  config: PlatformConfig;
  db: Db;
  store: ScriptStore;
  api: RunningApi;
  actor(user: User): ScriptActor;
  /** An MCP client over Streamable HTTP as `user`. */
  connect(user: User): Promise<Client>;
  /** A REST request as `user` (a JSON body when given); the parsed answer. */
  rest(user: User, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** Writes the queued tool-call audit rows. */
  flushAudit(): Promise<void>;
  stop(): Promise<void>;
}

export async function startScriptsRig(): Promise<ScriptsRig> {
  const database = await createTestDatabase();
  const clients: Client[] = [];
  let db: Db | undefined;
  let api: RunningApi | undefined;
  let audit: ReturnType<typeof toolCallAudit> | undefined;
  const stop = async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await api?.stop();
    await audit?.log.close();
    await db?.end();
    await database.drop();
  };
  try {
    const config = testConfig(configYaml(database.dsn));
    db = createPool({ dsn: database.dsn, maxOpenConns: 5, applicationName: 'scripts-test' });
    await migrate(db, { log: silentLogger() });
    const store = new ScriptStore({ db, config });
    const log = silentLogger();
    audit = toolCallAudit({ config, log, db });
    const authenticating = db;
    api = await startApi({
      config,
      log,
      metrics: createMetrics({ defaultMetrics: false }),
      db: authenticating,
      storedApiKeys: databaseApiKeys(authenticating),
      surface: buildMcpSurface({
        config,
        log,
        tools: [manageScriptTool(store, { config })],
        middlewares: [audit.middleware],
        ...(audit.onRefused ? { onRefused: audit.onRefused } : {}),
      }),
      routes: async (app, ctx) => {
        await app.register(scriptRoutes, { prefix: '/api/v1/portal/scripts', store, config, authenticate: ctx.authenticate });
      },
    });
    const running = api;
    const auditLog = audit.log;
    return {
      config,
      db,
      store,
      api: running,
      actor: (user) => scriptActor(callerOf(user), config),
      async connect(user) {
        const client = new Client({ name: `scripts-${user}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys[user]}` } } }));
        clients.push(client);
        return client;
      },
      rest: (user, method, path, body) => restJson(`${running.url}/api/v1/portal/scripts${path}`, keys[user], method, body),
      flushAudit: () => auditLog.flush(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type { Json };

/** A manage_script call: the structured body and whether it failed. */
export const manageScript = (client: Client, args: Record<string, unknown>) => callToolJson(client, 'manage_script', args);
