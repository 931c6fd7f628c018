/**
 * One rule for every route (shared/inbound/nul.ts, api/http/caller-input.ts): a NUL in the path, a
 * path parameter, the query or a form/JSON body field is refused with 400 before any handler — and
 * so any query — runs; never a 5xx (PostgreSQL refuses NUL in text with 22021). Every registered
 * route of the production api role is walked with a NUL in each place, as the administrator (so no
 * authentication step is what refuses it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainTarget, rawBodies, startEveryRouteRig, targetsWithParam, withBody, type EveryRouteRig } from './every-route-fixtures.js';

let rig: EveryRouteRig;

beforeAll(async () => {
  rig = await startEveryRouteRig();
});

afterAll(async () => {
  await rig?.stop();
});

const NUL = 'a%00b';

/** The requests that put a NUL in one place of `method url`, each named by where. */
function nulRequests(method: string, url: string): Array<{ where: string; target: string; headers?: Record<string, string>; body?: string; fields: boolean }> {
  const plain = plainTarget(url);
  const requests: Array<{ where: string; target: string; headers?: Record<string, string>; body?: string; fields: boolean }> = [
    ...targetsWithParam(url, NUL).map((target) => ({ where: 'path parameter', target, fields: false })),
    { where: 'path', target: `${plain}${plain.endsWith('/') ? '' : '/'}${NUL}`, fields: false },
    { where: 'query', target: `${plain}?q=${NUL}&client_id=${NUL}&return_to=%2F${NUL}&name=${NUL}`, fields: false },
  ];
  if (withBody.has(method)) {
    requests.push(
      {
        where: 'JSON body field',
        target: plain,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'a\u0000b', client_id: 'a\u0000b', redirect_uris: ['http://127.0.0.1/callback'], path: '/a', nested: { 'k\u0000': 1 } }),
        fields: true,
      },
      {
        where: 'form field',
        target: plain,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=authorization_code&client_id=${NUL}&code=${NUL}&redirect_uri=x`,
        fields: true,
      },
    );
  }
  return requests;
}

describe('a NUL anywhere a caller puts text', () => {
  it('walks a route table that has every surface on it', () => {
    const urls = rig.routes.map((route) => route.url);
    for (const url of ['/oauth/authorize', '/oauth/token', '/hooks/:source', '/api/v1/portal/scripts/:id', '/api/v1/resources/search', '/portal/auth/login', '/mcp', '/endpoints/:name', '/*']) {
      expect(urls).toContain(url);
    }
  });

  it('is refused with 400 on every route, in every place, before any handler runs; a raw body is content and never a 5xx', async () => {
    const wrong: string[] = [];
    for (const { url, methods } of rig.routes) {
      for (const method of methods) {
        for (const request of nulRequests(method, url)) {
          const answer = await rig.send(method, request.target, {
            headers: { authorization: `Bearer ${rig.apiKey}`, ...request.headers },
            ...(request.body !== undefined ? { body: request.body } : {}),
          });
          const rawContent = request.fields && rawBodies.has(url);
          // A route without a form parser refuses the media type (415) before any handler: also before any query.
          const refused = answer.status === 400 || (request.where === 'form field' && answer.status === 415);
          if (rawContent ? answer.status >= 500 : !refused) wrong.push(`${method} ${url} (${request.where}: ${request.target}) → ${answer.status} ${answer.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names the rule in the answer, in the surface’s own error shape', async () => {
    const auth = { authorization: `Bearer ${rig.apiKey}` };
    const rest = await rig.send('GET', `/api/v1/resources/search?q=${NUL}`, { headers: auth });
    expect(rest.status).toBe(400);
    // The resources' own word for a bad value is `invalid` (spec document 2, Errors).
    expect(JSON.parse(rest.body)).toEqual({ error: 'invalid', message: 'the query parameter q holds a NUL character, which is not accepted' });
    const scripts = await rig.send('GET', `/api/v1/portal/scripts?x=${NUL}`, { headers: auth });
    expect(scripts.status).toBe(400);
    expect(JSON.parse(scripts.body)).toMatchObject({ message: 'the query parameter x holds a NUL character, which is not accepted' });
    const token = await rig.send('POST', '/oauth/token', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=authorization_code&code=${NUL}&client_id=c` });
    expect(token.status).toBe(400);
    expect(JSON.parse(token.body)).toMatchObject({ error: 'invalid_request', error_description: 'the field code holds a NUL character, which is not accepted' });
    const mcp = await rig.send('POST', '/mcp', {
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x\u0000' } }),
    });
    expect(mcp.status).toBe(400);
    expect(JSON.parse(mcp.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: 'the field params.name holds a NUL character, which is not accepted' } });
  });
});
