/**
 * Set-up of the endpoint request tests: the production api role (cli/services.ts startApiRole) over
 * a fresh Postgres database, with tool-call and endpoint auditing, API keys, browser sessions (a
 * session is issued with the api's own signing key, as the sign-in callback would), a local HTTP
 * server scripts may fetch (127.0.0.1 on scripts.fetch.allow_hosts) whose /hold answers only when
 * the test says so, and a bot check that accepts a fixed answer (or the deployment's own, optionally
 * on an injected clock and with a hosted provider's siteverify URL). Scripts are created through the
 * REST routes; bindings are rows of endpoint_bindings (migration 0019), as the binding store writes them.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBotCheckServices } from '../../cli/botcheck.js';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { decodeBase64Key } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import { readPublicEndpoint, type AuthMode, type BindingInput, type BotCheckGate } from '../../shared/endpoints/index.js';
import { BrowserSessions } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { restJson, testConfig, type Json } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

export type { Json };

export const keys = {
  /** staff: owns the scripts (their author's roles are staff). */
  alice: 'alice-key-0123456789',
  /** staff: another signed-in caller. */
  bob: 'bob-key-0123456789',
  /** clerk: a persona allowing manage_* but not platform_info. */
  carol: 'carol-key-0123456789',
  /** admin (admin.persona): a platform administrator, whose persona allows manage_* and platform_info. */
  root: 'root-key-0123456789',
} as const;
export type User = keyof typeof keys;

const idpIssuer = 'https://idp.endpoints.test';

/** The bot-check answers the test gate knows: `pass` is accepted, `down` cannot be checked, anything else is refused. */
export const BOT_PASS = 'pass';
export const BOT_DOWN = 'down';

/**
 * The bot check's caller-supplied input for these tests (the real check, shared/botcheck, is tested
 * on its own): a fixed answer, checked as the interface says.
 */
export const fixedBotCheck: BotCheckGate = {
  async check({ header }) {
    if (header === BOT_PASS) return { ok: true, spend: async () => ({ ok: true }) };
    if (header === BOT_DOWN) return { ok: false, status: 503, reason: 'the provider could not be reached' };
    return { ok: false, status: 403, reason: header === undefined ? 'missing' : 'refused' };
  },
};

/** A binding row's fields (defaults as migration 0019). */
export type BindingFields = Omit<BindingInput, 'endpoint' | 'auth_mode'> & { auth_mode?: AuthMode; enabled?: boolean };

export interface EndpointRig {
  db: Db;
  config: PlatformConfig;
  api: RunningApiRole;
  /** The local HTTP server's port (fetch targets: http://127.0.0.1:<port>/…). */
  httpPort: number;
  /** Creates a script as alice (REST) and answers its id. */
  script(name: string, source: string): Promise<string>;
  /** Binds the script to /endpoints/<endpoint> (a row in endpoint_bindings). */
  bind(scriptId: string, endpoint: string, fields?: BindingFields): Promise<void>;
  /** A script created and bound at once; answers its id. */
  endpoint(endpoint: string, source: string, fields?: BindingFields): Promise<string>;
  /** A REST call to the scripts routes as `user`. */
  rest(user: User, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** A request to `<api>/endpoints/…` (path includes /endpoints/). */
  call(path: string, init?: RequestInit & { user?: User; via?: 'bearer' | 'x-api-key' }, base?: string): Promise<Response>;
  /** A browser session of `email` (its cookie header and CSRF token). */
  session(email?: string): Promise<{ cookie: string; csrf: string; subject: string }>;
  /** Resolves once `count` requests wait at /hold, with the function that answers them all. */
  holdRequests(count: number): Promise<() => void>;
  /** Another replica: an api role of its own on the same database. */
  replica(): Promise<RunningApiRole>;
  stop(): Promise<void>;
}

/** /hold answers once released; /hello answers text. */
function startHttpServer(held: { arrived: () => void; waiting: Array<() => void> }): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/hold') {
      held.waiting.push(() => response.end('released'));
      held.arrived();
    } else if (request.url === '/hello') {
      response.end('hello');
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function configYaml(dsn: string, signingKey: string, opts: RigOptions): string {
  return `
server:
  address: "127.0.0.1:0"
  transport: http
  allowed_origins: ${JSON.stringify(opts.allowedOrigins ?? [])}
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }${opts.bodyReadTimeout ? `\n  body_read_timeout: ${opts.bodyReadTimeout}` : ''}
database:
  dsn: ${JSON.stringify(dsn)}
audit:
  enabled: true
  log_tool_calls: true
auth:
  allow_anonymous: ${opts.allowAnonymous === true}
  oidc:
    enabled: true
    issuer: ${idpIssuer}
    client_id: portal
  browser_session:
    enabled: true
    signing_key: ${signingKey}
  api_keys:
    enabled: true
    keys:
      - { key: ${keys.alice}, name: alice, roles: [staff] }
      - { key: ${keys.bob}, name: bob, roles: [staff] }
      - { key: ${keys.carol}, name: carol, roles: [clerk] }
      - { key: ${keys.root}, name: root, roles: [admin] }
personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "platform_info"] } }
    clerk: { roles: [clerk], priority: 1, tools: { allow: ["manage_*"] } }
    admin: { roles: [admin], priority: 1, tools: { allow: ["manage_*", "platform_info"] } }
scripts:
  max_concurrent_runs: ${opts.maxConcurrentRuns ?? 40}
  run_deadline: 30s
  fetch:
    allow_hosts: ["127.0.0.1:*"]
    # As long as a handler may wait: each handler waiting at /hold starts a sandbox thread of its own.
    timeout: 60s
${
  opts.hostedAVerifyUrl
    ? `admin:
  enabled: true
secrets:
  encryption_key: ${randomBytes(32).toString('base64')}
bot_check:
  hosted_a_verify_url: ${opts.hostedAVerifyUrl}
  verify_timeout: 2s
`
    : ''
}`;
}

export interface RigOptions {
  /** auth.allow_anonymous (signed_in endpoints still refuse anonymous callers). */
  allowAnonymous?: boolean;
  /** scripts.max_concurrent_runs: the sandbox's run slots (default 40, above the 32-handler cap). */
  maxConcurrentRuns?: number;
  /** `deployment`: the api's own bot check (proof of work, cli/botcheck.ts) instead of the fixed answer. */
  botCheck?: 'fixed' | 'deployment';
  /**
   * With `deployment`: the clock (ms since the epoch) the bot check verifies answers by — the
   * deployment's BotCheck composed by cli/botcheck.ts as startApiRole composes it, given this clock.
   * Challenges from /botcheck/challenge are still issued on the real clock.
   */
  botCheckClock?: () => number;
  /** server.body_read_timeout: how long a body read before its request authenticated may take. */
  bodyReadTimeout?: string;
  /** server.allowed_origins: the origins the platform's own CORS layer (/mcp) allows. */
  allowedOrigins?: string[];
  /**
   * The hosted_a (Turnstile) siteverify URL (bot_check.hosted_a_verify_url); with it the admin
   * routes are on (`root` is an administrator) and secrets have an encryption key, so a test can
   * store the provider's secret and choose the provider.
   */
  hostedAVerifyUrl?: string;
}

export async function startEndpointRig(opts: RigOptions = {}): Promise<EndpointRig> {
  const database = await createTestDatabase();
  const signingKey = randomBytes(32).toString('base64');
  const held = { arrived: () => undefined as void, waiting: [] as Array<() => void> };
  const http = await startHttpServer(held);
  const config = testConfig(configYaml(database.dsn, signingKey, opts));
  const log = silentLogger();
  const replicas: RunningApiRole[] = [];
  let db: Db | undefined;
  const stop = async () => {
    for (const replica of replicas.reverse()) await replica.stop();
    await db?.end();
    await database.drop();
    await new Promise((resolve) => http.close(resolve));
  };
  try {
    db = (await openDatabase(config, log))!;
    const opened = db;
    const clocked =
      opts.botCheck === 'deployment' && opts.botCheckClock
        ? (await createBotCheckServices({ config, db: opened, log, endpoints: { publicEndpoint: (name) => readPublicEndpoint(opened, name) }, clock: opts.botCheckClock })).check
        : undefined;
    const gate = opts.botCheck === 'deployment' ? clocked : fixedBotCheck;
    const start = async () => {
      const replica = await startApiRole({ config, log, db: opened, ...(gate ? { botCheck: gate } : {}) });
      replicas.push(replica);
      return replica;
    };
    const api = await start();
    const sessions = new BrowserSessions({ signingKey: decodeBase64Key(signingKey)!, ttlSeconds: 3600, idpIssuer });
    const rest = (user: User, method: string, path: string, body?: unknown) => restJson(`${api.url}/api/v1/portal/scripts${path}`, keys[user], method, body);
    const script = async (name: string, source: string) => {
      const created = await rest('alice', 'POST', '', { name, source });
      if (created.status !== 201) throw new Error(`script ${name} not created: ${JSON.stringify(created.body)}`);
      return created.body.script.id as string;
    };
    const bind = async (scriptId: string, endpoint: string, fields: BindingFields = {}) => {
      const f = { methods: ['GET'], path: '', auth_mode: 'public', open_reads: false, timeout_seconds: 10, max_memory_bytes: 64 * 1024 * 1024, max_body_bytes: 1024 * 1024, allowed_origins: [], rate_limit: 600, caller_rate_limit: 120, enabled: true, ...fields };
      await opened.query(
        `INSERT INTO endpoint_bindings (endpoint, script_id, methods, path, auth_mode, open_reads, timeout_seconds, max_memory_bytes, max_body_bytes,
                                        allowed_origins, rate_limit, caller_rate_limit, enabled, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'apikey:root', 'apikey:root')`,
        [endpoint, scriptId, f.methods, f.path, f.auth_mode, f.open_reads, f.timeout_seconds, f.max_memory_bytes, f.max_body_bytes, f.allowed_origins, f.rate_limit, f.caller_rate_limit, f.enabled],
      );
    };
    return {
      db: opened,
      config,
      api,
      httpPort: (http.address() as AddressInfo).port,
      script,
      bind,
      async endpoint(endpoint, source, fields) {
        const id = await script(endpoint.replace(/_/g, '-').replace(/^[^a-z]/, 'e'), source);
        await bind(id, endpoint, fields);
        return id;
      },
      rest,
      call(path, init = {}, base = api.url) {
        const { user, via, ...rest } = init;
        const headers = new Headers(rest.headers);
        if (user) headers.set(via === 'x-api-key' ? 'x-api-key' : 'authorization', via === 'x-api-key' ? keys[user] : `Bearer ${keys[user]}`);
        return fetch(`${base}${path}`, { ...rest, headers });
      },
      async session(email = 'ada@example.com') {
        const { token, session } = await sessions.issue({ sub: 'ada', email, roles: ['staff'] });
        return { cookie: `${config.auth.browser_session.cookie_name}=${token}`, csrf: sessions.csrfToken(session), subject: session.caller.subject };
      },
      holdRequests(count) {
        return new Promise<() => void>((resolve) => {
          held.arrived = () => {
            if (held.waiting.length >= count) resolve(() => held.waiting.splice(0).forEach((answer) => answer()));
          };
        });
      },
      replica: start,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The answer's JSON body. */
export async function jsonOf(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}
