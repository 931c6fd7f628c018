/**
 * The pure rules of endpoint requests (spec document 3, "Handler request", "Handler response",
 * CORS, "Limits"): template matching, req building, response checking, CORS answers, rate buckets
 * and the handler cap.
 */
import { describe, expect, it } from 'vitest';
import {
  answeredMethods,
  corsHeaders,
  EndpointRateLimits,
  handlerAnswer,
  handlerHeaders,
  handlerRequest,
  HandlerSlots,
  isForbiddenResponseHeader,
  isJsonMediaType,
  matchTemplate,
  preflightAnswer,
  protectiveHeaders,
  refusal,
  REFUSALS,
  statusClass,
  type ArrivedRequest,
} from '../../shared/endpoints/index.js';
import { MAX_JSON_DEPTH } from '../../shared/inbound/index.js';

describe('matchTemplate', () => {
  it.each([
    ['', '', {}],
    ['', '/', {}],
    ['/{id}', '/42', { id: '42' }],
    ['/{id}', '/42/', { id: '42' }],
    ['/items/{id}', '/items/a%2Fb', { id: 'a/b' }],
    ['/items/{id}/parts/{part}', '/items/1/parts/x', { id: '1', part: 'x' }],
    ['/{__proto__}', '/x', { ['__proto__']: 'x' }],
  ])('template %j matches %j', (template, rest, params) => {
    const matched = matchTemplate(template, rest);
    expect(matched).toEqual(params);
    if (template === '/{__proto__}') expect(Object.getOwnPropertyNames(matched)).toEqual(['__proto__']);
  });

  it.each([
    ['', '/x'],
    ['/{id}', ''],
    ['/{id}', '//'],
    ['/{id}', '/a/b'],
    ['/items/{id}', '/other/1'],
    ['/items/{id}', '/items/%E0%A4%A'],
    ['/items', 'items'],
  ])('template %j does not match %j', (template, rest) => {
    expect(matchTemplate(template, rest)).toBeUndefined();
  });
});

const arrived = (over: Partial<ArrivedRequest> = {}): ArrivedRequest => ({
  method: 'POST',
  path: '/endpoints/x',
  params: {},
  rawQuery: '',
  rawHeaders: [],
  body: new Uint8Array(),
  caller: null,
  ...over,
});

describe('handlerRequest', () => {
  it('joins repeated headers, lower-cases names and leaves out the credential headers', () => {
    expect(handlerHeaders(['X-A', '1', 'x-a', '2', 'Authorization', 's', 'COOKIE', 's', 'X-Api-Key', 's', 'Proxy-Authorization', 's', 'Host', 'h'])).toEqual({ 'x-a': '1, 2', host: 'h' });
  });

  it('recognises JSON media types', () => {
    expect(['application/json', 'application/ld+json', 'application/vnd.x+json'].every(isJsonMediaType)).toBe(true);
    expect(['text/json', 'application/jsonx', 'text/plain', ''].some(isJsonMediaType)).toBe(false);
  });

  it('parses JSON, keeps a byte order mark in body only, and refuses a body that claims JSON and is not', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
    const ok = handlerRequest(arrived({ rawHeaders: ['Content-Type', 'Application/JSON; charset=utf-8'], body: bom }));
    expect(ok).toMatchObject({ ok: true, req: { json: { a: 1 }, body: { base64: bom.toString('base64') }, form: null } });
    expect(handlerRequest(arrived({ rawHeaders: ['content-type', 'application/json'], body: Buffer.from('{') }))).toMatchObject({ ok: false });
    expect(handlerRequest(arrived({ rawHeaders: ['content-type', 'application/json'], body: Buffer.from([0xff]) }))).toMatchObject({ ok: false });
    expect(handlerRequest(arrived({ rawHeaders: ['content-type', 'text/plain'], body: Buffer.from('{') }))).toMatchObject({ ok: true, req: { json: null } });
  });

  it(`refuses a JSON body nested deeper than ${MAX_JSON_DEPTH} levels before the script runs, and takes one at the limit`, () => {
    const nested = (depth: number) => Buffer.from('['.repeat(depth) + ']'.repeat(depth));
    const json = ['content-type', 'application/json'];
    expect(handlerRequest(arrived({ rawHeaders: json, body: nested(400_000) }))).toEqual({ ok: false, reason: `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels` });
    expect(handlerRequest(arrived({ rawHeaders: json, body: nested(MAX_JSON_DEPTH) }))).toMatchObject({ ok: true });
    expect(REFUSALS.invalid_json.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('reads forms and queries as first values, bytes as base64, and the caller only from authentication', () => {
    const form = handlerRequest(arrived({ rawQuery: 'a=1&a=2&b', rawHeaders: ['content-type', 'application/x-www-form-urlencoded'], body: Buffer.from('x=1&x=2&y=%20') }));
    expect(form).toMatchObject({ ok: true, req: { query: { a: '1', b: '' }, form: { x: '1', y: ' ' }, json: null } });
    const bytes = handlerRequest(arrived({ body: Buffer.from([0xff, 0x00]) }));
    expect(bytes).toMatchObject({ ok: true, req: { body: { base64: '/wA=' }, caller: null } });
    // UTF-8 text crosses as bytes too: the handler decides how to read it.
    expect(handlerRequest(arrived({ body: Buffer.from('hi') }))).toMatchObject({ ok: true, req: { body: { base64: 'aGk=' } } });
    const signed = handlerRequest(arrived({ caller: { subject: 'apikey:a', roles: ['r'], authType: 'apikey', email: 'a@x' } }));
    expect(signed).toMatchObject({ ok: true, req: { caller: { user_id: 'apikey:a', email: 'a@x', auth_type: 'apikey' } } });
  });
});

describe('handlerAnswer', () => {
  it('defaults to 200 and fills in the content type of json, text and bytes', () => {
    expect(handlerAnswer({ json: { a: 1 } })).toEqual({ ok: true, answer: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('{"a":1}') } });
    expect(handlerAnswer({ json: null })).toMatchObject({ ok: true, answer: { body: Buffer.from('null') } });
    expect(handlerAnswer({ status: 599, body: 'é' })).toMatchObject({ ok: true, answer: { status: 599, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from('é') } });
    expect(handlerAnswer({ body: { base64: '/wA=' }, headers: { 'Content-Type': 'image/png' } })).toMatchObject({ ok: true, answer: { headers: { 'content-type': 'image/png' }, body: Buffer.from([0xff, 0]) } });
  });

  it('strips forbidden headers', () => {
    const answered = handlerAnswer({ body: '', headers: { 'Set-Cookie': 'a', 'Access-Control-Max-Age': '1', 'X-Frame-Options': 'x', 'X-Ok': 'y' } });
    expect(answered).toMatchObject({ ok: true, answer: { headers: { 'content-type': 'text/plain; charset=utf-8', 'x-ok': 'y' } } });
    expect(['Connection', 'transfer-encoding', 'Content-Length', 'content-security-policy', 'X-Content-Type-Options', 'access-control-allow-origin'].every(isForbiddenResponseHeader)).toBe(true);
    expect(isForbiddenResponseHeader('cache-control')).toBe(false);
  });

  it.each([
    [undefined],
    [[{ json: 1 }]],
    [{}],
    [{ json: 1, body: '' }],
    [{ status: '200', json: 1 }],
    [{ status: 100, json: 1 }],
    [{ status: 600, json: 1 }],
    [{ headers: 'x', json: 1 }],
    [{ headers: { a: 1 }, json: 1 }],
    [{ headers: { 'a b': 'v' }, json: 1 }],
    [{ headers: { a: 'v\r\nx: y' }, json: 1 }],
    [{ headers: { a: 'v\u0000' }, json: 1 }],
    [{ headers: { a: '\u2028' }, json: 1 }],
    [{ headers: { 'X-A': '1', 'x-a': '2' }, json: 1 }],
    [{ body: ['a'] }],
    [{ body: { base64: 'a' } }],
    [{ body: { base64: 'aaaa', extra: 1 } }],
    [{ json: 1, cookies: {} }],
  ])('refuses %j as a non-response', (result) => {
    expect(handlerAnswer(result)).toMatchObject({ ok: false, reason: expect.any(String) });
  });

  it('adds the protective headers; Cache-Control only when none was set', () => {
    expect(protectiveHeaders({ 'content-security-policy': 'x' })).toEqual({
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
    });
    expect(protectiveHeaders({ 'cache-control': 'max-age=5' })['cache-control']).toBe('max-age=5');
  });
});

describe('CORS', () => {
  const binding = { methods: ['GET', 'POST'] as ('GET' | 'POST')[], allowedOrigins: ['https://a.example'] };

  it('answers HEAD wherever GET', () => {
    expect(answeredMethods({ methods: ['GET', 'POST'] })).toEqual(['GET', 'POST', 'HEAD']);
    expect(answeredMethods({ methods: ['PUT'] })).toEqual(['PUT']);
  });

  it('echoes only a listed origin, says Vary whenever origins are listed, never credentials', () => {
    expect(corsHeaders(binding, 'https://a.example')).toEqual({ 'access-control-allow-origin': 'https://a.example', vary: 'Origin' });
    expect(corsHeaders(binding, 'https://b.example')).toEqual({ vary: 'Origin' });
    expect(corsHeaders({ allowedOrigins: [] }, 'https://a.example')).toEqual({});
    const preflight = preflightAnswer(binding, 'https://a.example');
    expect(preflight).toMatchObject({ ok: true, headers: { 'access-control-allow-methods': 'GET, POST, HEAD', 'access-control-allow-headers': 'Content-Type, Authorization, X-API-Key, X-Bot-Check' } });
    expect(JSON.stringify(preflight)).not.toMatch(/credentials/i);
    expect(preflightAnswer(binding, undefined)).toEqual({ ok: false });
  });
});

describe('limits', () => {
  it('lets a minute\'s worth through, then says when the next one may come', () => {
    const limits = new EndpointRateLimits();
    expect([0, 1, 2].map(() => limits.endpoint('e', 3, 0).ok)).toEqual([true, true, true]);
    expect(limits.endpoint('e', 3, 0)).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(limits.endpoint('e', 3, 20_000).ok).toBe(true);
  });

  it('counts callers of an endpoint apart from each other and from the endpoint', () => {
    const limits = new EndpointRateLimits();
    expect(limits.caller('e', 'alice', 1, 0).ok).toBe(true);
    expect(limits.caller('e', 'alice', 1, 0).ok).toBe(false);
    expect(limits.caller('e', 'bob', 1, 0).ok).toBe(true);
    expect(limits.caller('f', 'alice', 1, 0).ok).toBe(true);
    expect(limits.endpoint('e', 1, 0).ok).toBe(true);
  });

  it('counts refusals per endpoint and client network (IPv6 by /64), apart from the endpoint\'s own bucket', () => {
    const limits = new EndpointRateLimits();
    expect([0, 1].map(() => limits.refusal('e', '203.0.113.9', 2, 0).ok)).toEqual([true, true]);
    expect(limits.refusal('e', '::ffff:203.0.113.9', 2, 0)).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(limits.refusal('e', '203.0.113.10', 2, 0).ok).toBe(true);
    expect(limits.refusal('f', '203.0.113.9', 2, 0).ok).toBe(true);
    expect(limits.endpoint('e', 2, 0).ok).toBe(true);
    expect([0, 1].map(() => limits.refusal('e', '2001:db8:1:2::1', 2, 0).ok)).toEqual([true, true]);
    expect(limits.refusal('e', '2001:db8:1:2:ffff::9', 2, 0).ok).toBe(false);
    expect(limits.refusal('e', '2001:db8:1:3::1', 2, 0).ok).toBe(true);
  });

  it('leaves `keep` tokens of the endpoint\'s bucket to others, saying when one beyond them is there', () => {
    const limits = new EndpointRateLimits();
    expect([0, 1, 2].map(() => limits.endpoint('e', 6, 0, 3).ok)).toEqual([true, true, true]);
    expect(limits.endpoint('e', 6, 0, 3)).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect([0, 1, 2].map(() => limits.endpoint('e', 6, 0).ok)).toEqual([true, true, true]);
    expect(limits.endpoint('e', 6, 0)).toEqual({ ok: false, retryAfterSeconds: 10 });
  });

  it('gives back an endpoint token taken for a request refused after all, never past the bucket\'s size', () => {
    const limits = new EndpointRateLimits();
    expect(limits.endpoint('e', 1, 0).ok).toBe(true);
    limits.giveBack('e');
    limits.giveBack('e');
    expect([limits.endpoint('e', 1, 0).ok, limits.endpoint('e', 1, 0).ok]).toEqual([true, false]);
  });

  it('holds at most maxBuckets, forgetting the least recently used', () => {
    const limits = new EndpointRateLimits(2);
    limits.caller('e', 'a', 1, 0);
    limits.caller('e', 'b', 1, 0);
    limits.caller('e', 'a', 1, 0);
    limits.caller('e', 'c', 1, 0);
    expect(limits.size).toBe(2);
    // b was forgotten (starts full again); a was kept (still empty).
    expect(limits.caller('e', 'b', 1, 0).ok).toBe(true);
    expect(limits.caller('e', 'c', 1, 0).ok).toBe(false);
  });

  it('caps the handlers running at once', () => {
    const slots = new HandlerSlots(2);
    expect([slots.take(), slots.take(), slots.take()]).toEqual([true, true, false]);
    slots.release();
    expect([slots.running, slots.take()]).toEqual([1, true]);
  });
});

describe('answers', () => {
  it('gives every refusal a JSON body of its own code and message, with no script detail', () => {
    for (const code of Object.keys(REFUSALS) as (keyof typeof REFUSALS)[]) {
      const answer = refusal(code, { 'retry-after': '1' });
      expect(answer.status).toBe(REFUSALS[code].status);
      expect(answer.headers).toEqual({ 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
      expect(JSON.parse(answer.body.toString())).toEqual({ error: code, message: REFUSALS[code].message });
    }
    expect([statusClass(200), statusClass(404), statusClass(504)]).toEqual(['2xx', '4xx', '5xx']);
  });
});
