/**
 * `platform dev`'s one-time sign-in link (issue 36, "The app"; api/portal-auth/dev-sign-in.ts):
 * the link signs its person in once, for 15 minutes, only from this machine; it starts an ordinary
 * browser session (cookie attributes, CSRF token); sign-out ends it; the portal's settings say
 * people sign in by link. (That `platform dev` prints the link is test/integration/dev.test.ts.)
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevSignIn, isLoopbackPeer } from '../../api/portal-auth/index.js';
import type { RunningApi } from '../../api/start.js';
import { startTestApi, testConfig } from '../support/api.js';

let now = Date.parse('2026-11-29T08:00:00Z');
const clock = () => now;
const signIn = new DevSignIn({ cookie: { name: 'mcp_session', secure: false }, ttlSeconds: 8 * 3600, clock });
const ada = { sub: 'ada', name: 'Ada Admin', roles: ['admin'] };
let api: RunningApi;

beforeAll(async () => {
  api = await startTestApi({
    config: testConfig(`
server: { address: "127.0.0.1:0", transport: http, shutdown: { pre_shutdown_delay: 0s, grace_period: 5s } }
database: { dsn: "postgresql://postgres@127.0.0.1:5432/unused" }
toolkits:
  objstore:
    local: { driver: filesystem, root: /tmp/unused-portal-objects }
portal: { enabled: true, s3_bucket: portal }
`),
    signIn,
    clock,
  });
});

afterAll(async () => api?.stop());

function open(link: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}${link}`, { redirect: 'manual', headers });
}

/** A request whose Host header says what a browser elsewhere would send (fetch cannot set Host). */
function withHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the one-time sign-in link', () => {
  it('signs its person in with an ordinary browser session, and lands on /portal/', async () => {
    const link = signIn.link(ada);
    expect(link).toMatch(/^\/portal\/auth\/link\?token=[\w-]{40,}$/);
    const answer = await open(link);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/portal/');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const setCookie = answer.headers.getSetCookie().find((c) => c.startsWith('mcp_session='))!;
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Max-Age=28800/);
    const cookie = setCookie.split(';', 1)[0]!;
    const session = await (await fetch(`${api.url}/api/v1/portal/session`, { headers: { cookie } })).json();
    expect(session).toEqual({
      subject: 'oidc:platform-dev#ada',
      name: 'Ada Admin',
      roles: ['admin'],
      auth_type: 'browser_session',
      csrf_token: expect.any(String),
      expires_at: '2026-11-29T16:00:00.000Z',
    });
  });

  it('works once: the second use, and any unknown token, are refused with how to get a new one', async () => {
    const link = signIn.link(ada);
    expect((await open(link)).status).toBe(302);
    for (const target of [link, '/portal/auth/link?token=made-up', '/portal/auth/link']) {
      const again = await open(target);
      expect(again.status, target).toBe(400);
      expect(again.headers.getSetCookie()).toEqual([]);
      expect(await again.text()).toContain('already used or has expired');
    }
  });

  it('lasts 15 minutes', async () => {
    const link = signIn.link(ada);
    now += 15 * 60_000;
    try {
      expect((await open(link)).status).toBe(400);
    } finally {
      now -= 15 * 60_000;
    }
    const fresh = signIn.link(ada);
    now += 15 * 60_000 - 1000;
    try {
      expect((await open(fresh)).status).toBe(302);
    } finally {
      now -= 15 * 60_000 - 1000;
    }
  });

  it('is refused when the browser addressed the platform by a name other than loopback, and stays unused', async () => {
    const link = signIn.link(ada);
    const elsewhere = await withHost(link, 'platform.example.com');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toContain('only in a browser on the machine running the platform');
    // Refused before the token was looked at: the link still works from this machine.
    expect((await open(link)).status).toBe(302);
  });

  it('accepts only peers on this machine', () => {
    for (const peer of ['127.0.0.1', '127.0.1.1', '::1', '::ffff:127.0.0.1']) expect(isLoopbackPeer(peer), peer).toBe(true);
    for (const peer of ['10.0.0.1', '::ffff:10.0.0.1', '192.168.1.20', 'fe80::1', '', undefined]) expect(isLoopbackPeer(peer), String(peer)).toBe(false);
  });

  it('signing out clears the session cookie and returns to /portal/', async () => {
    const cookie = (await open(signIn.link(ada))).headers.getSetCookie()[0]!.split(';', 1)[0]!;
    const out = await fetch(`${api.url}/portal/auth/logout`, { redirect: 'manual', headers: { cookie } });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/portal/');
    expect(out.headers.getSetCookie()[0]).toMatch(/^mcp_session=; .*Max-Age=0/);
  });

  it('the portal settings say people sign in by link', async () => {
    expect(await (await fetch(`${api.url}/api/v1/portal/settings`)).json()).toMatchObject({ sign_in: 'link' });
  });
});
