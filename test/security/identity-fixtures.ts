/**
 * Set-up shared by the identity, session and persona security tests (issue 9 items 4–6): a fresh
 * Postgres database with migrations, a filesystem object store, the real ResourceService, and one
 * or more real api replicas serving it, reached by real MCP SDK clients over HTTP. Each client's
 * credential is read on every request, so a test can continue a session with another token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { databaseApiKeys } from '../../shared/identity/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, manageResourceTool, resourceActor, type ResourceService } from '../../shared/resources/index.js';
import type { ToolDefinition } from '../../shared/mcp-tools/index.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import { startApi, type RunningApi } from '../../api/start.js';
import { testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

export interface SecurityEnv {
  config: PlatformConfig;
  db: Db;
  service: ResourceService;
  /** The api replicas (one unless asked for more), all on the same database. */
  apis: RunningApi[];
  url: string;
  /** An MCP client whose every request carries `authorization()` as it is at that moment. */
  connect(authorization: () => string, opts?: { transport?: 'http' | 'sse'; url?: string }): Promise<Connected>;
  stop(): Promise<void>;
}

export interface Connected {
  client: Client;
  sessionId(): string | undefined;
}

/** A fetch that puts the current credential on every request (POST, GET stream, DELETE). */
function withAuthorization(authorization: () => string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', authorization());
    return fetch(input, { ...init, headers });
  };
}

/**
 * Starts the environment. `yaml` holds the top-level blocks of the test (auth, personas, sessions,
 * …); the server block, the object store and the database are added here. `seed` runs after the
 * migrations and before any api starts (rows "from before" an upgrade).
 */
export async function startSecurityEnv(opts: {
  yaml: string;
  /** Lines added under `server:`. */
  server?: string[];
  transport?: 'http' | 'sse';
  replicas?: number;
  clock?: () => number;
  tools?: ToolDefinition[];
  seed?: (ctx: { db: Db; service: ResourceService; config: PlatformConfig }) => Promise<void>;
}): Promise<SecurityEnv> {
  const database = await createTestDatabase();
  const root = await mkdtemp(join(tmpdir(), 'security-'));
  const clients: Client[] = [];
  const apis: RunningApi[] = [];
  let db: Db | undefined;
  let objstore: ObjstoreConnections | undefined;
  const stop = async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    for (const api of apis) await api.stop();
    await objstore?.close();
    await db?.end();
    await database.drop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const config = testConfig(`
server:
  address: "127.0.0.1:0"
  transport: ${opts.transport ?? 'http'}
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
${(opts.server ?? []).map((line) => `  ${line}`).join('\n')}
toolkits:
  objstore:
    files: { driver: filesystem, root: ${JSON.stringify(root)} }
database:
  dsn: ${database.dsn}
${opts.yaml}`);
    db = createPool({ dsn: database.dsn, maxOpenConns: 8, applicationName: 'security-test' });
    await migrate(db, { log: silentLogger() });
    objstore = createObjstoreConnections(config, { env: {} });
    const service = createResourceService({ config, db, objstore, log: silentLogger() });
    await opts.seed?.({ db, service, config });
    for (let i = 0; i < (opts.replicas ?? 1); i++) {
      const log = silentLogger();
      apis.push(
        await startApi({
          config,
          log,
          metrics: createMetrics({ defaultMetrics: false }),
          surface: buildMcpSurface({
            config,
            log,
            tools: [manageResourceTool(service, { config }), ...(opts.tools ?? [])],
            resources: {
              service,
              actorOf: (caller, sessionId) => resourceActor(caller, { config, ...(sessionId ? { sessionId } : {}), origin: 'agent' }),
            },
          }),
          db,
          storedApiKeys: databaseApiKeys(db),
          ...(opts.clock ? { clock: opts.clock } : {}),
        }),
      );
    }
    const url = apis[0]!.url;
    return {
      config,
      db,
      service,
      apis,
      url,
      async connect(authorization, o = {}) {
        const base = o.url ?? url;
        const client = new Client({ name: 'security-test', version: '1.0.0' });
        const fetchWith = withAuthorization(authorization);
        if (o.transport === 'sse') {
          const transport = new SSEClientTransport(new URL(`${base}/sse`), { fetch: fetchWith, eventSourceInit: { fetch: fetchWith } });
          await client.connect(transport);
          clients.push(client);
          return { client, sessionId: () => undefined };
        }
        const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: fetchWith });
        await client.connect(transport);
        clients.push(client);
        return { client, sessionId: () => transport.sessionId };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A raw initialize POST, for status codes and headers the SDK client hides. */
export function initialize(url: string, authorization: string, sessionId?: string): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization,
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
}

/** A raw tools/list POST on an existing session. */
export function listToolsRaw(url: string, authorization: string, sessionId: string): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
  });
}
