/**
 * The production api role (cli/services.ts) with every surface that has routes — OAuth with DCR,
 * browser sign-in, admin, webhooks, resources, scripts and endpoints, object-store URLs, the bot
 * check, knowledge review — and the list of its registered routes, so a rule for every route is tested on every
 * route (a route added later is walked too).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import { parseConfig } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { objstoreYaml, startBackend, type Backend } from '../integration/objstore-fixtures.js';

export interface Route {
  /** The template, e.g. /api/v1/resources/:id/versions/:version/restore or /endpoints/:name/* */
  url: string;
  methods: string[];
}

/** Methods that carry a body. */
export const withBody: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'QUERY']);

/** Routes whose body is content (webhook and endpoint bytes, uploads), not fields a caller names. */
export const rawBodies: ReadonlySet<string> = new Set(['/hooks/:source', '/hooks/:source/:secret', '/endpoints/:name', '/endpoints/:name/*', '/*', '/api/v1/resources/:id/content']);

export interface Answer {
  status: number;
  body: string;
}

export interface EveryRouteRig {
  api: RunningApiRole;
  /** The administrator's API key (persona admin). */
  apiKey: string;
  routes: Route[];
  /** One request, sent as given (the target is not normalised; any method). */
  send(method: string, target: string, opts?: { headers?: Record<string, string>; body?: string | Buffer }): Promise<Answer>;
  stop(): Promise<void>;
}

/**
 * The routes of `printRoutes({ commonPrefix: false })`: a tree whose every line is one path segment
 * run under its parent, `(METHODS)` on the lines that are routes.
 */
export function routesOf(tree: string): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    parents.length = depth;
    const parent = parents[depth - 1] ?? '';
    const segment = match[2]!;
    // A wildcard or parameter prints without the slash before it; static text without one continues
    // its parent's segment (`/run` is a route and `s/:runId/retry` under it is `/runs/:runId/retry`).
    const continues = segment.startsWith('/') || parent.endsWith('/') || !/^[*:]/.test(segment);
    const url = continues ? parent + segment : `${parent}/${segment}`;
    parents.push(url);
    if (match[3]) routes.push({ url, methods: match[3].split(', ') });
  }
  return routes;
}

/** Targets with `value` in each path parameter (the wildcard included) in turn; the others get `filler`. */
export function targetsWithParam(url: string, value: string, filler = 'x'): string[] {
  const slots = url.split('/').map((segment, i) => (segment.startsWith(':') || segment === '*' ? i : -1)).filter((i) => i >= 0);
  return slots.map((slot) =>
    url
      .split('/')
      .map((segment, i) => (i === slot ? value : segment.startsWith(':') || segment === '*' ? filler : segment))
      .join('/'),
  );
}

/** The route with every parameter filled with `filler`. */
export function plainTarget(url: string, filler = 'x'): string {
  return url.split('/').map((segment) => (segment.startsWith(':') || segment === '*' ? filler : segment)).join('/');
}

export async function startEveryRouteRig(): Promise<EveryRouteRig> {
  const apiKey = `every-${randomBytes(12).toString('hex')}`;
  const backend: Backend = await startBackend('filesystem');
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'every-route-'));
  const yaml = `
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
data_dir: ${JSON.stringify(dataDir)}
database:
  dsn: ${JSON.stringify(database.dsn)}
auth:
  oidc:
    enabled: true
    issuer: https://idp.every-route.test
    client_id: portal
  browser_session:
    enabled: true
    signing_key: ${randomBytes(32).toString('base64')}
  api_keys:
    enabled: true
    keys:
      - { key: ${apiKey}, name: root, roles: [admin] }
personas:
  definitions:
    admin: { roles: [admin] }
admin:
  enabled: true
  persona: admin
oauth:
  enabled: true
  issuer: http://127.0.0.1:1
  signing_key: ${randomBytes(32).toString('base64')}
  dcr:
    enabled: true
    allowed_redirect_patterns: ['http://127\\.0\\.0\\.1(:\\d+)?/callback']
webhooks:
  receiver:
    enabled: true
portal:
  enabled: true
  s3_bucket: portal
knowledge:
  enabled: true
  apply: { enabled: true }
resources:
  managed:
    connection: main
${objstoreYaml({ main: backend.instance() })}`;
  const config = parseConfig(yaml, {}).config;
  const db: Db = (await openDatabase(config, silentLogger()))!;
  const api = await startApiRole({ config, log: silentLogger(), db });
  const { port } = new URL(api.url);

  function send(method: string, target: string, opts: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
      const req = httpRequest(
        { host: '127.0.0.1', port, method, path: target, headers: { ...opts.headers, ...(body ? { 'content-length': String(body.length) } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  return {
    api,
    apiKey,
    routes: routesOf(api.app.printRoutes({ commonPrefix: false })),
    send,
    async stop() {
      await api.stop();
      await db.end();
      await database.drop();
      await backend.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
