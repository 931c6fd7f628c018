/**
 * Consent before a dynamically registered client's first authorization (MCP security best
 * practices, confused deputy): the page, its protections, and that the decision is what moves the
 * flow on — approve goes upstream and is remembered per client in this browser, deny goes back to
 * the client as access_denied, a forged post goes nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../support/login-provider.js';
import { authorizeBySignIn, pkcePair, startMemoryRig, type OAuthRig } from './fixtures.js';

const redirect = 'http://127.0.0.1:50999/callback';
let rig: OAuthRig;

beforeAll(async () => {
  rig = await startMemoryRig();
});
afterAll(async () => {
  await rig?.stop();
});

async function registerClient(name: string): Promise<string> {
  const response = await fetch(`${rig.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' }),
  });
  return ((await response.json()) as { client_id: string }).client_id;
}

function authorizeUrl(clientId: string): string {
  const params = { response_type: 'code', client_id: clientId, redirect_uri: redirect, state: 'st', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' };
  return `${rig.url}/oauth/authorize?${new URLSearchParams(params).toString()}`;
}

/** GET the authorize URL as a browser with `jar`; answers the response and its page's form fields. */
async function visit(url: string, jar: CookieJar): Promise<{ response: Response; html: string; fields: URLSearchParams }> {
  const target = new URL(url);
  const cookie = jar.header(target);
  const response = await fetch(target, { redirect: 'manual', ...(cookie ? { headers: { cookie } } : {}) });
  jar.store(target, response.headers.getSetCookie());
  const html = await response.text();
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields.append(m[1]!, m[2]!.replace(/&#(\d+);/g, (_x, c: string) => String.fromCharCode(Number(c))));
  return { response, html, fields };
}

async function decide(fields: URLSearchParams, decision: string, jar: CookieJar): Promise<Response> {
  const target = new URL(`${rig.url}/oauth/authorize`);
  const cookie = jar.header(target);
  const body = new URLSearchParams(fields);
  body.set('decision', decision);
  const response = await fetch(target, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: body.toString(),
  });
  jar.store(target, response.headers.getSetCookie());
  return response;
}

describe('consent for dynamically registered clients', () => {
  it('shows a page naming the client (escaped) and the redirect host, that cannot be framed, before going upstream', async () => {
    const clientId = await registerClient('<script>alert(1)</script> Tool');
    const { response, html } = await visit(authorizeUrl(clientId), new CookieJar());
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; Tool');
    expect(html).toContain('127.0.0.1:50999');
  });

  it('approve: on to the upstream provider, and remembered for this client in this browser only', async () => {
    const jar = new CookieJar();
    const clientId = await registerClient('Approved tool');
    const page = await visit(authorizeUrl(clientId), jar);
    const approved = await decide(page.fields, 'approve', jar);
    expect(approved.status).toBe(302);
    expect(new URL(approved.headers.get('location')!).origin).toBe(rig.idp.issuer);
    // Next time in the same browser: straight upstream.
    const again = await visit(authorizeUrl(clientId), jar);
    expect(again.response.status).toBe(302);
    expect(new URL(again.response.headers.get('location')!).origin).toBe(rig.idp.issuer);
    // Another client, or another browser, is asked again.
    expect((await visit(authorizeUrl(await registerClient('Other tool')), jar)).response.status).toBe(200);
    expect((await visit(authorizeUrl(clientId), new CookieJar())).response.status).toBe(200);
  });

  it('deny: back to the client with access_denied and its state', async () => {
    const jar = new CookieJar();
    const page = await visit(authorizeUrl(await registerClient('Denied tool')), jar);
    const denied = await decide(page.fields, 'deny', jar);
    expect(denied.status).toBe(302);
    const back = new URL(denied.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(redirect);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st');
  });

  it('a forged approval (no consent page in this browser, or a token for another client) goes nowhere', async () => {
    const clientId = await registerClient('Target');
    const page = await visit(authorizeUrl(clientId), new CookieJar());
    // Cross-site: the attacker's page posts the fields without the victim's CSRF cookie.
    const forged = await decide(page.fields, 'approve', new CookieJar());
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
    // A token minted for one client does not approve another.
    const jar = new CookieJar();
    const own = await visit(authorizeUrl(await registerClient('Attacker')), jar);
    const swapped = new URLSearchParams(own.fields);
    swapped.set('client_id', clientId);
    expect((await decide(swapped, 'approve', jar)).status).toBe(403);
  });

  it('the SDK-style sign-in answers the page once, then the browser remembers', async () => {
    const clientId = await registerClient('Desktop');
    const jar = new CookieJar();
    const before = rig.idp.consentPages();
    const params = { response_type: 'code', client_id: clientId, redirect_uri: redirect, state: 's', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' };
    const first = await rig.idp.signIn(`${rig.url}/oauth/authorize?${new URLSearchParams(params).toString()}`, { username: 'alice', password: 'wonderland' }, { cookies: jar, stopAt: (u) => u.href.startsWith(redirect) });
    expect(first.searchParams.get('code')).toBeTruthy();
    const second = await authorizeBySignIn(rig, params);
    expect(second.searchParams.get('code')).toBeTruthy();
    expect(rig.idp.consentPages() - before).toBe(2);
    await rig.idp.signIn(`${rig.url}/oauth/authorize?${new URLSearchParams(params).toString()}`, { username: 'alice', password: 'wonderland' }, { cookies: jar, stopAt: (u) => u.href.startsWith(redirect) });
    expect(rig.idp.consentPages() - before).toBe(2);
  });
});
