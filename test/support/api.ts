import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { silentLogger, type Logger } from '../../shared/logging/index.js';
import { createMetrics, type Metrics } from '../../shared/metrics/index.js';
import type { Db } from '../../shared/db/index.js';
import { databaseApiKeys } from '../../shared/identity/index.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import { startApi, type ApiDeps, type RunningApi } from '../../api/start.js';
import type { ToolDefinition } from '../../shared/mcp-tools/index.js';

export const testApiKey = 'test-key-0123456789';

/**
 * YAML for an HTTP api on a random loopback port with one API key. `server` and `auth` lines are
 * added under `server:` and `auth:` (indented by two spaces), `extra` lines at the top level.
 */
export function apiConfigYaml(opts: { server?: string[]; auth?: string[]; extra?: string } = {}): string {
  const serverLines = (opts.server ?? []).map((line) => `  ${line}`).join('\n');
  const authLines = (opts.auth ?? []).map((line) => `  ${line}`).join('\n');
  const extra = opts.extra ?? '';
  return `
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown:
    pre_shutdown_delay: 0s
    grace_period: 5s
${serverLines}
auth:
${authLines}
  api_keys:
    enabled: true
    keys:
      - key: ${testApiKey}
        name: tester
        roles: [analyst]
personas:
  definitions:
    analyst:
      roles: [analyst]
${extra}`;
}

/**
 * YAML of an api whose key `adminKey` (named root) administers it: persona `admin`, the admin API
 * on. `address` defaults to a random loopback port; `extra` lines are added at the top level.
 */
export function adminApiYaml(opts: { adminKey: string; address?: string; extra?: string }): string {
  return `
server:
  address: ${JSON.stringify(opts.address ?? '127.0.0.1:0')}
  transport: http
  shutdown:
    pre_shutdown_delay: 0s
    grace_period: 5s
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${opts.adminKey}, name: root, roles: [admin] }
personas:
  definitions:
    admin: { roles: [admin] }
admin:
  enabled: true
${opts.extra ?? ''}`;
}

/**
 * The head of an api test's platform.yaml: HTTP on a free port with a quick shutdown, the given
 * database, tool calls audited, and API keys (key, name, roles). Personas and the rest follow it.
 */
export function auditedApiYaml(opts: {
  dsn: string;
  dataDir?: string;
  keys: ReadonlyArray<{ key: string; name: string; roles: readonly string[] }>;
  /** More `server:` keys, as lines indented by two spaces. */
  serverLines?: string;
}): string {
  return `${opts.dataDir ? `data_dir: ${JSON.stringify(opts.dataDir)}\n` : ''}server:
  address: "127.0.0.1:0"
  transport: http
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
${opts.serverLines ? `${opts.serverLines}\n` : ''}database:
  dsn: ${JSON.stringify(opts.dsn)}
audit:
  enabled: true
  log_tool_calls: true
auth:
  api_keys:
    enabled: true
    keys:
${opts.keys.map((k) => `      - { key: ${k.key}, name: ${k.name}, roles: [${k.roles.map((r) => JSON.stringify(r)).join(', ')}] }`).join('\n')}
`;
}

export function testConfig(yaml: string): PlatformConfig {
  return parseConfig(yaml, {}).config;
}

/** Starts the api role in this process; stop() drains it. */
export async function startTestApi(opts: {
  config: PlatformConfig;
  db?: Db;
  tools?: ToolDefinition[];
  /** Further surface options (middlewares, gating store, elicitation triggers). */
  surface?: Omit<Parameters<typeof buildMcpSurface>[0], 'config' | 'log' | 'tools'>;
  log?: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch, for sessions, the OAuth server and the webhook routes. */
  clock?: () => number;
  /** The series the api counts into (default: a fresh registry). */
  metrics?: Metrics;
  /** Webhook sources and their receiver (cli/webhooks.ts createWebhookServices). */
  webhooks?: ApiDeps['webhooks'];
  /** `platform dev`'s one-time sign-in, and where the portal's build is (api/start.ts). */
  signIn?: ApiDeps['signIn'];
  portalDistDir?: string;
}): Promise<RunningApi> {
  const log = opts.log ?? silentLogger();
  return startApi({
    config: opts.config,
    log,
    metrics: opts.metrics ?? createMetrics({ defaultMetrics: false }),
    ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
    surface: buildMcpSurface({ ...opts.surface, config: opts.config, log, ...(opts.tools ? { tools: opts.tools } : {}) }),
    ...(opts.db ? { db: opts.db, storedApiKeys: databaseApiKeys(opts.db) } : {}),
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.signIn ? { signIn: opts.signIn } : {}),
    ...(opts.portalDistDir ? { portalDistDir: opts.portalDistDir } : {}),
  });
}

/** An MCP client connected over Streamable HTTP to `<apiUrl>/mcp` with a bearer credential (the test key by default). */
export async function connectMcp(apiUrl: string, token: string = testApiKey): Promise<Client> {
  const client = new Client({ name: 'platform-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${apiUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read parsed JSON freely
export type Json = any;

/** A tool call as tests read it: the structured body, the first text and whether it failed. */
export async function callToolJson(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Json; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return { isError: result.isError === true, body: result.structuredContent ?? {}, text };
}

/** Tool calls as each user, over one MCP session per user opened on first use. */
export function toolCallerPerUser<User>(connect: (user: User) => Promise<Client>): (user: User, name: string, args: Record<string, unknown>) => ReturnType<typeof callToolJson> {
  const sessions = new Map<User, Promise<Client>>();
  return async (user, name, args) => {
    let client = sessions.get(user);
    if (!client) {
      client = connect(user);
      sessions.set(user, client);
    }
    return callToolJson(await client, name, args);
  };
}

/** A JSON REST call with a bearer key: the status and the parsed body. */
export async function restJson(url: string, key: string, method: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}
