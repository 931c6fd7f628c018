/**
 * Spec document 3, "Endpoint auth modes" and CORS of "Scripted endpoints": signed_in endpoints take
 * an API key (Authorization: Bearer or X-API-Key) or a browser session (writes with its CSRF token,
 * from the platform's own origin only), never an anonymous caller; public endpoints take the bot
 * check unless open_reads covers GET/HEAD; an endpoint answers its own cross-origin requests from
 * allowed_origins and never allows credentials; the platform's other CORS layers leave /endpoints/ alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFLIGHT_ALLOWED_HEADERS } from '../../shared/endpoints/index.js';
import { BOT_PASS, jsonOf, startEndpointRig, type EndpointRig } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;
const whoami = 'export function handle(req) { return { json: { method: req.method, caller: req.caller } } }';
const app = 'https://app.example';
/** On server.allowed_origins: the platform's own CORS layer (the one /mcp uses) allows it. */
const mcpClient = 'https://mcp-client.example';

beforeAll(async () => {
  // Anonymous callers are allowed by the deployment: signed_in endpoints still refuse them.
  rig = await startEndpointRig({ allowAnonymous: true, allowedOrigins: [mcpClient] });
  await rig.endpoint('members', whoami, { methods: ['GET', 'POST'], auth_mode: 'signed_in', allowed_origins: [app] });
  await rig.endpoint('open-form', whoami, { methods: ['GET', 'POST'], open_reads: true, allowed_origins: [app, 'http://localhost:5173'] });
  await rig.endpoint('closed', whoami, { methods: ['GET'] });
});

afterAll(async () => {
  await rig?.stop();
});

describe('signed_in', () => {
  it('accepts an API key in Authorization: Bearer and in X-API-Key', async () => {
    for (const via of ['bearer', 'x-api-key'] as const) {
      const response = await rig.call('/endpoints/members', { user: 'alice', via });
      expect(response.status).toBe(200);
      expect((await jsonOf(response)).caller).toEqual({ user_id: 'apikey:alice', email: null, auth_type: 'apikey' });
    }
  });

  it('refuses an anonymous caller with 401 even where the deployment allows anonymous callers', async () => {
    const response = await rig.call('/endpoints/members');
    expect(response.status).toBe(401);
    expect((await jsonOf(response)).error).toBe('unauthorized');
  });

  it('accepts a browser session: reads freely, writes only with its CSRF token', async () => {
    const { cookie, csrf } = await rig.session();
    expect((await rig.call('/endpoints/members', { headers: { cookie } })).status).toBe(200);
    const without = await rig.call('/endpoints/members', { method: 'POST', headers: { cookie } });
    expect([without.status, (await jsonOf(without)).error]).toEqual([403, 'csrf_required']);
    const wrong = await rig.call('/endpoints/members', { method: 'POST', headers: { cookie, 'x-csrf-token': 'guess' } });
    expect([wrong.status, (await jsonOf(wrong)).error]).toEqual([403, 'csrf_invalid']);
    const right = await rig.call('/endpoints/members', { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } });
    expect(right.status).toBe(200);
    expect((await jsonOf(right)).caller.auth_type).toBe('browser_session');
  });

  it('refuses a browser session from another origin, listed or not: a cross-origin caller uses an API key', async () => {
    const { cookie, csrf } = await rig.session();
    const own = new URL(rig.api.url).origin;
    expect((await rig.call('/endpoints/members', { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, origin: own } })).status).toBe(200);
    for (const origin of [app, 'https://elsewhere.example']) {
      const refused = await rig.call('/endpoints/members', { headers: { cookie, origin } });
      expect([refused.status, (await jsonOf(refused)).error]).toEqual([403, 'cross_origin_session']);
    }
    const byKey = await rig.call('/endpoints/members', { user: 'alice', via: 'x-api-key', headers: { origin: app } });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('access-control-allow-origin')).toBe(app);
  });
});

describe('public', () => {
  it('needs the bot check for every method, unless open_reads covers GET and HEAD', async () => {
    expect((await rig.call('/endpoints/closed')).status).toBe(403);
    expect((await rig.call('/endpoints/closed', { method: 'HEAD' })).status).toBe(403);
    expect((await rig.call('/endpoints/closed', { headers: { 'x-bot-check': BOT_PASS } })).status).toBe(200);
    expect((await rig.call('/endpoints/open-form')).status).toBe(200);
    expect((await rig.call('/endpoints/open-form', { method: 'HEAD' })).status).toBe(200);
    expect((await rig.call('/endpoints/open-form', { method: 'POST' })).status).toBe(403);
    expect((await rig.call('/endpoints/open-form', { method: 'POST', headers: { 'x-bot-check': BOT_PASS } })).status).toBe(200);
  });

  it('gives the handler no caller, whatever credentials came along', async () => {
    const response = await rig.call('/endpoints/open-form', { user: 'alice' });
    expect((await jsonOf(response)).caller).toBeNull();
  });
});

describe('CORS', () => {
  it('answers a preflight from a listed origin with its methods and the four headers, never credentials', async () => {
    const response = await rig.call('/endpoints/open-form', { method: 'OPTIONS', headers: { origin: app, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-bot-check' } });
    expect(response.status).toBe(204);
    expect(Object.fromEntries(['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'vary'].map((h) => [h, response.headers.get(h)]))).toEqual({
      'access-control-allow-origin': app,
      'access-control-allow-methods': 'GET, POST, HEAD',
      'access-control-allow-headers': PREFLIGHT_ALLOWED_HEADERS,
      vary: 'Origin',
    });
    expect(PREFLIGHT_ALLOWED_HEADERS).toBe('Content-Type, Authorization, X-API-Key, X-Bot-Check');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('refuses a preflight from an unlisted origin, and from any origin where none is listed', async () => {
    for (const [path, origin] of [['/endpoints/open-form', 'https://evil.example'], ['/endpoints/closed', app]] as const) {
      const response = await rig.call(path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('echoes a listed origin on answers and refusals alike, and no other', async () => {
    const listed = await rig.call('/endpoints/open-form', { headers: { origin: 'http://localhost:5173' } });
    expect([listed.status, listed.headers.get('access-control-allow-origin'), listed.headers.get('vary')]).toEqual([200, 'http://localhost:5173', 'Origin']);
    const refused = await rig.call('/endpoints/members', { headers: { origin: app } });
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, app]);
    const unlisted = await rig.call('/endpoints/open-form', { headers: { origin: 'https://evil.example' } });
    expect([unlisted.status, unlisted.headers.get('access-control-allow-origin'), unlisted.headers.get('vary')]).toEqual([200, null, 'Origin']);
    for (const response of [listed, refused, unlisted]) expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('is the endpoint\'s own: an OPTIONS that is not a preflight is just a method the endpoint does not answer', async () => {
    const response = await rig.call('/endpoints/open-form', { method: 'OPTIONS' });
    expect([response.status, response.headers.get('allow'), response.headers.get('access-control-allow-origin')]).toEqual([405, 'GET, POST, HEAD', null]);
  });

  describe("the platform's CORS layer (server.allowed_origins) leaves /endpoints/ alone", () => {
    const allowed = (response: Response) => ({
      origin: response.headers.get('access-control-allow-origin'),
      credentials: response.headers.get('access-control-allow-credentials'),
      expose: response.headers.get('access-control-expose-headers'),
    });

    it('an endpoint that does not list the origin grants it nothing: no Access-Control-Allow-Origin, its preflight 403', async () => {
      // The platform's layer does allow the origin: on /mcp its preflight is answered for it.
      const mcp = await fetch(`${rig.api.url}/mcp`, { method: 'OPTIONS', headers: { origin: mcpClient, 'access-control-request-method': 'POST' } });
      expect([mcp.status, mcp.headers.get('access-control-allow-origin')]).toEqual([204, mcpClient]);
      // open-form and members list other origins; closed lists none.
      const plain = [
        await rig.call('/endpoints/open-form', { headers: { origin: mcpClient } }),
        await rig.call('/endpoints/members', { user: 'alice', headers: { origin: mcpClient } }),
        await rig.call('/endpoints/closed', { headers: { origin: mcpClient, 'x-bot-check': BOT_PASS } }),
      ];
      for (const response of plain) {
        expect(response.status).toBe(200);
        expect(allowed(response)).toEqual({ origin: null, credentials: null, expose: null });
      }
      for (const path of ['/endpoints/open-form', '/endpoints/members', '/endpoints/closed']) {
        const preflight = await rig.call(path, { method: 'OPTIONS', headers: { origin: mcpClient, 'access-control-request-method': 'GET' } });
        expect([preflight.status, (await jsonOf(preflight)).error], path).toEqual([403, 'origin_not_allowed']);
        expect(allowed(preflight), path).toEqual({ origin: null, credentials: null, expose: null });
        expect(preflight.headers.get('access-control-allow-methods'), path).toBeNull();
      }
    });

    it("an endpoint that lists the origin answers its preflight itself: the endpoint's methods, the four headers, never credentials", async () => {
      await rig.endpoint('mcp-friendly', whoami, { methods: ['GET', 'PUT', 'DELETE'], auth_mode: 'signed_in', allowed_origins: [mcpClient] });
      const preflight = await rig.call('/endpoints/mcp-friendly', { method: 'OPTIONS', headers: { origin: mcpClient, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' } });
      expect(preflight.status).toBe(204);
      expect(allowed(preflight)).toEqual({ origin: mcpClient, credentials: null, expose: null });
      expect(preflight.headers.get('access-control-allow-methods')!.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
      expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type, Authorization, X-API-Key, X-Bot-Check');
      const put = await rig.call('/endpoints/mcp-friendly', { method: 'PUT', user: 'alice', via: 'x-api-key', headers: { origin: mcpClient } });
      expect(put.status).toBe(200);
      expect(allowed(put)).toEqual({ origin: mcpClient, credentials: null, expose: null });
    });
  });
});
