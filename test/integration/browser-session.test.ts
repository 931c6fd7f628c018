/**
 * Browser sessions end to end: the real api role (cli/services.ts) on Postgres and a filesystem
 * object store, an `oidc-provider` with a login page as the identity provider. A person signs in
 * at /portal/auth/login, the callback sets the session cookie, and the cookie then authenticates
 * the portal REST routes as `browser_session` — writes only with the session's CSRF token — but
 * never /mcp. Expired, tampered and foreign-key cookies are refused; logout clears the cookie and
 * goes to the provider's end_session endpoint; the callback refuses a foreign state, and the
 * return path cannot leave the site.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase64Key, parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import { BrowserSessions } from '../../shared/identity/index.js';
import { createLogger, silentLogger } from '../../shared/logging/index.js';
import { openDatabase, startApiRole } from '../../cli/services.js';
import type { RunningApi } from '../../api/start.js';
import { CookieJar, startLoginProvider, type LoginProvider } from '../support/login-provider.js';
import { createTestDatabase } from '../support/postgres.js';
import { objstoreYaml, startBackend, type Backend } from './objstore-fixtures.js';

const signingKey = randomBytes(32).toString('base64');
const apiKey = `bot-${randomBytes(12).toString('hex')}`;
const clientSecret = randomBytes(16).toString('hex');
const ada = { username: 'ada', password: 'correct horse', name: 'Ada Lovelace', email: 'ada@example.com', roles: ['analyst'] };
const ttlSeconds = 8 * 3600;

let provider: LoginProvider;
let backend: Backend;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let db: Db;
let config: PlatformConfig;
let api: RunningApi;
/** What the api under test logged (the production logger), one JSON line each. */
const logLines: string[] = [];
const log = createLogger({
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  }),
});

function configYaml(key: string): string {
  return `
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
    issuer: ${provider.issuer}
    client_id: portal
    client_secret: ${clientSecret}
    role_claim_path: realm_access.roles
    scopes: [openid, profile, email]
  api_keys:
    enabled: true
    keys:
      - { key: ${apiKey}, name: bot, roles: [analyst] }
  browser_session:
    enabled: true
    signing_key: ${key}
    ttl: 8h
    secure: true
    domain: 127.0.0.1
personas:
  definitions:
    analyst: { roles: [analyst] }
resources:
  managed:
    connection: main
${objstoreYaml({ main: backend.instance() })}`;
}

async function startPlatform(key: string, logger = silentLogger()): Promise<{ api: RunningApi; config: PlatformConfig }> {
  const parsed = parseConfig(configYaml(key), {}).config;
  return { api: await startApiRole({ config: parsed, log: logger, db }), config: parsed };
}

beforeAll(async () => {
  provider = await startLoginProvider();
  provider.addUser(ada);
  backend = await startBackend('filesystem');
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'browser-session-data-'));
  config = parseConfig(configYaml(signingKey), {}).config;
  db = (await openDatabase(config, silentLogger()))!;
  ({ api, config } = await startPlatform(signingKey, log));
  await provider.addClient({ clientId: 'portal', clientSecret, redirectUris: [`${api.url}/portal/auth/callback`] });
});

afterAll(async () => {
  await api?.stop();
  await db?.end();
  await database?.drop();
  await backend?.stop();
  await provider?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A Set-Cookie line of the answer by cookie name. */
function setCookie(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

function cookieValue(line: string): string {
  return line.slice(line.indexOf('=') + 1, line.indexOf(';'));
}

/** Starts a sign-in without finishing it: the login-state cookie and the provider URL. */
async function startLogin(query = ''): Promise<{ loginCookie: string; state: string; response: Response }> {
  const response = await fetch(`${api.url}/portal/auth/login${query}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const line = setCookie(response, 'mcp_session_login')!;
  return { loginCookie: `mcp_session_login=${cookieValue(line)}`, state: new URL(response.headers.get('location')!).searchParams.get('state')!, response };
}

/** Signs ada in through the provider's login page, up to the redirect back to our callback. */
async function callbackOfSignIn(returnTo?: string): Promise<{ callback: URL; jar: CookieJar }> {
  const jar = new CookieJar();
  const start = `${api.url}/portal/auth/login${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`;
  const callback = await provider.signIn(start, ada, { cookies: jar, stopAt: (url) => url.pathname === '/portal/auth/callback' });
  return { callback, jar };
}

/** A full sign-in; the callback's answer and the session cookie (`name=value`). */
async function signIn(returnTo?: string): Promise<{ response: Response; cookie: string }> {
  const { callback, jar } = await callbackOfSignIn(returnTo);
  const response = await fetch(callback, { redirect: 'manual', headers: { cookie: jar.header(callback)! } });
  expect(response.status, await response.clone().text()).toBe(302);
  return { response, cookie: `mcp_session=${cookieValue(setCookie(response, 'mcp_session')!)}` };
}

async function sessionOf(cookie: string, url = api.url): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/v1/portal/session`, { headers: { cookie } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function createFolder(headers: Record<string, string>, path: string): Promise<Response> {
  return fetch(`${api.url}/api/v1/resources/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ library: 'personal', path }),
  });
}

async function personalFolders(cookie: string): Promise<string[]> {
  const response = await fetch(`${api.url}/api/v1/resources/facets`, { headers: { cookie } });
  expect(response.status).toBe(200);
  const { folders } = (await response.json()) as { folders: { library: string; path: string }[] };
  // Facet paths are <library>/<folder path>: the folder paths of the caller's own library.
  return folders.filter((f) => f.library.startsWith('person:')).map((f) => f.path.slice(f.path.indexOf('/') + 1));
}

describe('sign-in', () => {
  it('the callback sets an HttpOnly, SameSite=Lax, Secure session cookie for ttl on the domain, and returns to return_to', async () => {
    const { response } = await signIn('/api/v1/portal/session');
    expect(response.headers.get('location')).toBe('/api/v1/portal/session');
    const line = setCookie(response, 'mcp_session')!;
    expect(cookieValue(line)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const attributes = line.split(';').slice(1).map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining([`max-age=${ttlSeconds}`, 'domain=127.0.0.1', 'path=/', 'httponly', 'secure', 'samesite=lax']));
    // The login state is used up.
    expect(setCookie(response, 'mcp_session_login')).toMatch(/Max-Age=0/);
  });

  it('lands on /portal/ without a return path', async () => {
    const { response } = await signIn();
    expect(response.headers.get('location')).toBe('/portal/');
  });

  it('the session names the person by their OIDC subject, as browser_session, with a CSRF token', async () => {
    const { cookie } = await signIn();
    const { status, body } = await sessionOf(cookie);
    expect(status).toBe(200);
    expect(body).toEqual({
      subject: `oidc:${provider.issuer}#ada`,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      roles: ['analyst'],
      auth_type: 'browser_session',
      csrf_token: expect.stringMatching(/^[\w-]{43}$/),
      expires_at: expect.any(String),
    });
    const expiresIn = Date.parse(body.expires_at as string) - Date.now();
    expect(expiresIn).toBeGreaterThan((ttlSeconds - 60) * 1000);
    expect(expiresIn).toBeLessThanOrEqual(ttlSeconds * 1000);
  });

  it('the cookie reads the portal REST routes', async () => {
    const { cookie } = await signIn();
    const response = await fetch(`${api.url}/api/v1/resources?path=global`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ items: expect.any(Array) });
  });

  it('the session endpoint is in the OpenAPI document', async () => {
    const document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/v1/portal/session', '/portal/auth/login', '/portal/auth/callback', '/portal/auth/logout']));
  });
});

describe('CSRF on cookie-authenticated writes', () => {
  it('a write without X-CSRF-Token is 403 csrf_required and changes nothing; a wrong token 403 csrf_invalid; the session token 201', async () => {
    const { cookie } = await signIn();
    const csrf = (await sessionOf(cookie)).body.csrf_token as string;

    const without = await createFolder({ cookie }, 'no-token');
    expect(without.status).toBe(403);
    expect(await without.json()).toMatchObject({ error: 'csrf_required', message: expect.stringContaining('X-CSRF-Token') });

    const other = (await sessionOf((await signIn()).cookie)).body.csrf_token as string;
    const wrong = await createFolder({ cookie, 'x-csrf-token': other }, 'wrong-token');
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ error: 'csrf_invalid' });
    const folders = await personalFolders(cookie);
    expect(folders).not.toContain('no-token');
    expect(folders).not.toContain('wrong-token');

    const allowed = await createFolder({ cookie, 'x-csrf-token': csrf }, 'with-token');
    expect(allowed.status).toBe(201);
    expect(await allowed.json()).toMatchObject({ library: `person:oidc:${provider.issuer}#ada`, path: 'with-token' });
    expect(await personalFolders(cookie)).toContain('with-token');
  });

  it('an upload without the token is refused before anything is stored; with it the file is the person’s', async () => {
    const { cookie } = await signIn();
    const csrf = (await sessionOf(cookie)).body.csrf_token as string;
    const form = () => {
      const data = new FormData();
      data.append('path', 'uploads');
      data.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
      return data;
    };
    const refused = await fetch(`${api.url}/api/v1/resources`, { method: 'POST', headers: { cookie }, body: form() });
    expect(refused.status).toBe(403);
    const uploads = async () => {
      const listed = await fetch(`${api.url}/api/v1/resources?path=personal/uploads`, { headers: { cookie } });
      expect(listed.status).toBe(200);
      return ((await listed.json()) as { items: { file_name: string }[] }).items.map((item) => item.file_name);
    };
    expect(await uploads()).toEqual([]);

    const stored = await fetch(`${api.url}/api/v1/resources`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf }, body: form() });
    expect(stored.status).toBe(201);
    expect(await stored.json()).toMatchObject({ library: `person:oidc:${provider.issuer}#ada`, uploader: `oidc:${provider.issuer}#ada` });
    expect(await uploads()).toEqual(['hello.txt']);
  });

  it('API-key writes need no CSRF token, and a header credential wins over a cookie', async () => {
    const byKey = await createFolder({ authorization: `Bearer ${apiKey}` }, 'by-key');
    expect(byKey.status).toBe(201);
    expect(await byKey.json()).toMatchObject({ library: 'person:apikey:bot', path: 'by-key' });
    const { cookie } = await signIn();
    const keyWithCookie = await createFolder({ authorization: `Bearer ${apiKey}`, cookie }, 'key-and-cookie');
    expect(((await keyWithCookie.json()) as { library: string }).library).toBe('person:apikey:bot');
    const badKeyWithCookie = await createFolder({ authorization: 'Bearer not-a-key', cookie }, 'bad-key');
    expect(badKeyWithCookie.status).toBe(401);
  });
});

describe('refused cookies', () => {
  const mint = (at: number, key = decodeBase64Key(signingKey)!) =>
    new BrowserSessions({ signingKey: key, ttlSeconds, idpIssuer: provider.issuer, clock: () => at }).issue({ sub: 'ada', roles: ['analyst'] });

  it('an expired session cookie is 401; the same cookie minted now is accepted', async () => {
    const expired = await mint(Date.now() - ttlSeconds * 1000 - 60_000);
    const refused = await sessionOf(`mcp_session=${expired.token}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized', message: expect.stringContaining('session expired') });
    expect((await sessionOf(`mcp_session=${(await mint(Date.now())).token}`)).status).toBe(200);
  });

  it('a tampered cookie (roles raised in the payload) is 401', async () => {
    const { cookie } = await signIn();
    const [header, payload, signature] = cookie.slice('mcp_session='.length).split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const raised = Buffer.from(JSON.stringify({ ...claims, roles: ['admin'] })).toString('base64url');
    const refused = await sessionOf(`mcp_session=${header}.${raised}.${signature}`);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/signature invalid/);
  });

  it('rotating the signing key signs everyone out', async () => {
    const { cookie } = await signIn();
    const rotated = await startPlatform(randomBytes(32).toString('base64'));
    try {
      expect((await sessionOf(cookie, rotated.api.url)).status).toBe(401);
      expect((await sessionOf(cookie)).status).toBe(200);
    } finally {
      await rotated.api.stop();
    }
  });

  it('the cookie does not authenticate /mcp', async () => {
    const { cookie } = await signIn();
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    });
    expect(response.status).toBe(401);
  });
});

describe('logs', () => {
  it('no log line holds the code, the state, either cookie or the CSRF token', async () => {
    const before = logLines.length;
    const { callback, jar } = await callbackOfSignIn();
    const response = await fetch(callback, { redirect: 'manual', headers: { cookie: jar.header(callback)! } });
    const cookie = cookieValue(setCookie(response, 'mcp_session')!);
    const csrf = (await sessionOf(`mcp_session=${cookie}`)).body.csrf_token as string;
    const failed = await startLogin();
    await fetch(`${api.url}/portal/auth/callback?state=${failed.state}&code=secret-looking-code`, { headers: { cookie: failed.loginCookie } });
    await expect.poll(() => logLines.slice(before).filter((l) => l.includes('"request completed"')).length).toBeGreaterThanOrEqual(3);
    const written = logLines.slice(before).join('\n');
    expect(written).toContain('browser sign-in');
    for (const secret of [callback.searchParams.get('code')!, callback.searchParams.get('state')!, cookie, csrf, failed.state, failed.loginCookie.split('=')[1]!, 'secret-looking-code']) {
      expect(written).not.toContain(secret);
    }
  });
});

describe('logout', () => {
  it('clears the cookie with the same attributes and redirects to the provider’s end_session endpoint', async () => {
    const { cookie } = await signIn();
    const response = await fetch(`${api.url}/portal/auth/logout`, { redirect: 'manual', headers: { cookie } });
    expect(response.status).toBe(302);
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { end_session_endpoint: string };
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(discovery.end_session_endpoint);
    expect(location.searchParams.get('client_id')).toBe('portal');
    const cleared = setCookie(response, 'mcp_session')!;
    expect(cookieValue(cleared)).toBe('');
    const attributes = cleared.split(';').slice(1).map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['max-age=0', 'domain=127.0.0.1', 'path=/', 'httponly', 'secure', 'samesite=lax']));
  });
});

describe('the callback and the return path', () => {
  it('a callback whose state is not this browser’s sign-in is 400 and exchanges no code', async () => {
    const { callback } = await callbackOfSignIn();
    const other = await startLogin();
    const before = provider.tokenRequests.ok;
    const response = await fetch(callback, { redirect: 'manual', headers: { cookie: other.loginCookie } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'state_mismatch' });
    expect(setCookie(response, 'mcp_session')).toBeUndefined();
    expect(provider.tokenRequests.ok).toBe(before);
  });

  it('a callback without a sign-in started in this browser is 400', async () => {
    const { callback } = await callbackOfSignIn();
    const response = await fetch(callback, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'login_state_missing' });
  });

  it('relays a sign-in the provider refused as 400, and a failed code exchange as 502', async () => {
    const refused = await startLogin();
    const denied = await fetch(`${api.url}/portal/auth/callback?state=${refused.state}&error=access_denied`, { headers: { cookie: refused.loginCookie } });
    expect(denied.status).toBe(400);
    expect(await denied.json()).toMatchObject({ error: 'sign_in_refused', message: expect.stringContaining('access_denied') });

    const bogus = await startLogin();
    const failed = await fetch(`${api.url}/portal/auth/callback?state=${bogus.state}&code=not-a-code`, { headers: { cookie: bogus.loginCookie } });
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ error: 'token_exchange_failed' });
    expect(setCookie(failed, 'mcp_session')).toBeUndefined();
  });

  it.each(['//evil.example/', 'https://evil.example/', '/\\evil.example', 'portal', '/portal/\u2028', '/portal/\u2029', '/portal/\u0085', '/portal/\u00e9'])('return_to %j is refused with 400 before any redirect', async (returnTo) => {
    const response = await fetch(`${api.url}/portal/auth/login?return_to=${encodeURIComponent(returnTo)}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_return_to' });
    expect(response.headers.get('location')).toBeNull();
  });

  it('sends the provider our callback URL with state, nonce and an S256 challenge', async () => {
    const { response } = await startLogin('?return_to=%2Fportal%2Ffiles');
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('redirect_uri')).toBe(`${api.url}/portal/auth/callback`);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('scope')).toBe('openid profile email');
    expect(location.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    const login = setCookie(response, 'mcp_session_login')!.split(';').map((a) => a.trim().toLowerCase());
    expect(login).toEqual(expect.arrayContaining(['max-age=600', 'path=/portal/auth', 'httponly', 'samesite=lax']));
  });
});
