/**
 * A portal rig for browser tests (test/browser/portal-*.test.ts): the api and worker roles as
 * `platform serve` and `platform worker` compose them (real Postgres, a real Temporal dev server,
 * filesystem object storage), the built portal at /portal/, people signed in through the one-time
 * sign-in links of api/portal-auth/dev-sign-in.ts (the same browser sessions and CSRF tokens as
 * the identity provider's sign-in), and Debian's Chromium through playwright-core.
 *
 * People are named by their session's `sub`; their subjects are `oidc:platform-dev#<sub>`. The
 * default personas: `admin` (role admin, the platform administrators), `sales` (role sales; its
 * administrators hold persona-admin:sales) and `support` (role support).
 */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DevSignIn, devIdentityIssuer } from '../../api/portal-auth/index.js';
import { openDatabase, startApiRole, startWorkerRole, type RunningApiRole, type WorkerRole } from '../../cli/services.js';
import { openPlatformServices, type PlatformServices } from '../../cli/platform-services.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import type { SessionUser } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { testConfig, type Json } from './api.js';
import { createTestDatabase } from './postgres.js';
import { startTestTemporal, type TestTemporal } from './temporal.js';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(chromiumPath);
if (!haveChromium) console.warn(`browser tests skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);

export const people = {
  admin: { sub: 'ada', name: 'Ada Admin', roles: ['admin'] },
  alice: { sub: 'alice', name: 'Alice Analyst', roles: ['sales'] },
  bob: { sub: 'bob', name: 'Bob Curator', roles: ['sales', 'persona-admin:sales'] },
  carol: { sub: 'carol', name: 'Carol Support', roles: ['support'] },
} satisfies Record<string, SessionUser>;

/** The subject the platform gives a person signed in on this rig. */
export function subjectOf(user: SessionUser): string {
  return `oidc:${devIdentityIssuer}#${user.sub}`;
}

export interface BrowserOptions {
  theme?: 'light' | 'dark';
  width?: number;
  height?: number;
}

/** REST as a signed-in person: their session cookie, and the CSRF token on writes. */
export type RestAs = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: Json; headers: Headers }>;

export interface PortalRig {
  url: string;
  config: PlatformConfig;
  db: Db;
  api: RunningApiRole;
  signIn: DevSignIn;
  browser: Browser;
  /** A fresh browser context signed in as `user` (none: signed out), and a page in it. */
  open(user: SessionUser | undefined, options?: BrowserOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** The services the api and worker share when the rig was started with `sql` (as `platform dev` shares them). */
  services?: PlatformServices;
  /** REST calls as `user` through a real session (for setting up what a page then shows). */
  restAs(user: SessionUser): Promise<RestAs>;
  /** Uploads a file as `user` (POST /api/v1/resources); answers the stored resource. */
  upload(user: SessionUser, file: { library?: string; path?: string; name: string; content: string | Buffer; type?: string; displayName?: string; tags?: string[]; description?: string }): Promise<Json>;
  stop(): Promise<void>;
}

const defaultPersonas = `
personas:
  definitions:
    admin: { display_name: Administrators, roles: [admin], priority: 100, tools: { allow: ["*"] } }
    sales: { display_name: Sales, roles: [sales], priority: 10, tools: { allow: ["*"] } }
    support: { display_name: Support, roles: [support], priority: 5, tools: { allow: ["*"] } }
admin: { enabled: true, persona: admin }
`;

export async function startPortalRig(
  opts: {
    extraYaml?: string;
    personasYaml?: string;
    /** More keys of `portal:` (flow style), e.g. `implementor: { name: Acme }`. */
    portalYaml?: string;
    /**
     * An embedded DuckDB SQL connection `local` (webhook sources' tables, scripts' sql): the api and
     * the worker then share one set of services, as `platform dev` does (one process opens the file once).
     */
    sql?: boolean;
    /** temporal.ui_url: the Temporal UI the portal links workflows to. */
    temporalUiUrl?: string;
  } = {},
): Promise<PortalRig> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-rig-'));
  const temporal: TestTemporal = await startTestTemporal();
  const database = await createTestDatabase();
  const config = testConfig(`
data_dir: ${JSON.stringify(dir)}
server: { address: "127.0.0.1:0", transport: http, shutdown: { pre_shutdown_delay: 0s, grace_period: 5s } }
database: { dsn: ${JSON.stringify(database.dsn)} }
temporal: { address: ${JSON.stringify(temporal.address)}, namespace: default, task_queue: portal-${randomBytes(4).toString('hex')}${opts.temporalUiUrl ? `, ui_url: ${JSON.stringify(opts.temporalUiUrl)}` : ''} }
portal: { enabled: true, s3_bucket: portal, title: "Test Portal"${opts.portalYaml ? `, ${opts.portalYaml}` : ''} }
${opts.personasYaml ?? defaultPersonas}
toolkits:
  objstore:
    local: { driver: filesystem, root: ${JSON.stringify(join(dir, 'objects'))} }
${opts.sql ? '  sql:\n    local: { engine: duckdb }\n' : ''}${opts.extraYaml ?? ''}
`);
  const log = silentLogger();
  const db = (await openDatabase(config, log))!;
  const handle: TemporalHandle = await connectTemporal(config.temporal);
  const signIn = new DevSignIn({ cookie: { name: 'mcp_session', secure: false }, ttlSeconds: 3600 });
  const services = opts.sql ? await openPlatformServices({ config, log, db, temporal: handle }) : undefined;
  const api = await startApiRole({ config, log, db, temporal: handle, signIn, ...(services ? { services } : {}) });
  const worker: WorkerRole = await startWorkerRole({ config, log, db, temporal: handle, ...(services ? { services } : {}) });
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });

  /** The session cookie a one-time link sets for `user`. */
  async function sessionCookie(user: SessionUser): Promise<string> {
    const answer = await fetch(`${api.url}${signIn.link(user)}`, { redirect: 'manual' });
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('mcp_session='));
    if (answer.status !== 302 || !cookie) throw new Error(`sign-in link answered ${answer.status}`);
    return cookie.split(';', 1)[0]!.slice('mcp_session='.length);
  }

  async function restAs(user: SessionUser): Promise<RestAs> {
    const cookie = `mcp_session=${await sessionCookie(user)}`;
    const session = await (await fetch(`${api.url}/api/v1/portal/session`, { headers: { cookie } })).json();
    return async (method, path, body, headers = {}) => {
      const isForm = body instanceof FormData;
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: { cookie, 'x-csrf-token': session.csrf_token, ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: isForm ? body : JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the text itself
      }
      return { status: response.status, body: parsed, headers: response.headers };
    };
  }

  return {
    url: api.url,
    config,
    db,
    api,
    signIn,
    browser,
    ...(services ? { services } : {}),
    async open(user, options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        colorScheme: options.theme ?? 'light',
        baseURL: api.url,
      });
      if (user) await context.addCookies([{ name: 'mcp_session', value: await sessionCookie(user), url: api.url, httpOnly: true, sameSite: 'Lax' }]);
      const page = await context.newPage();
      return { context, page };
    },
    restAs,
    async upload(user, file) {
      const rest = await restAs(user);
      const form = new FormData();
      form.set('library', file.library ?? 'personal');
      form.set('path', file.path ?? '');
      if (file.displayName) form.set('display_name', file.displayName);
      if (file.description) form.set('description', file.description);
      for (const tag of file.tags ?? []) form.append('tags', tag);
      form.set('file', new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], { type: file.type ?? 'text/plain' }), file.name);
      const answer = await rest('POST', '/api/v1/resources', form);
      if (answer.status !== 201 && answer.status !== 200) throw new Error(`upload of ${file.name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async stop() {
      await browser.close();
      await worker.shutdown();
      await api.stop();
      await services?.close();
      await handle.connection.close();
      await db.end();
      await database.drop();
      await temporal.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** axe-core on the page as it is: the serious and critical violations (PORTAL.md: there must be none). */
export async function seriousViolations(page: Page): Promise<Array<{ id: string; impact: string | null | undefined; nodes: string[] }>> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/** Collects the page's CSP violations and uncaught errors (each portal test asserts there are none). */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  return problems;
}
