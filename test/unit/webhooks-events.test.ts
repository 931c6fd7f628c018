import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JsonPathError, parseJsonPath, readJsonPath } from '../../shared/webhooks/json-path.js';
import { canonicalJson, describeEvent, parseWebhookBody, splitEvents } from '../../shared/webhooks/events.js';
import { MAX_JSON_DEPTH } from '../../shared/inbound/index.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('JSON path grammar: $, .name, [\'name\'], ["name"], [n]', () => {
  it.each([
    ['$', []],
    ['$.data', [{ kind: 'member', name: 'data' }]],
    ['$._id2', [{ kind: 'member', name: '_id2' }]],
    ['$[0]', [{ kind: 'index', index: 0 }]],
    ["$['x-y']", [{ kind: 'member', name: 'x-y' }]],
    ['$["x y"]', [{ kind: 'member', name: 'x y' }]],
    ["$['']", [{ kind: 'member', name: '' }]],
    ["$['it\\'s']", [{ kind: 'member', name: "it's" }]],
    ["$['a\\\\b']", [{ kind: 'member', name: 'a\\b' }]],
    ["$['a.b[0]']", [{ kind: 'member', name: 'a.b[0]' }]],
    [
      "$.data.items[12]['x-y']",
      [
        { kind: 'member', name: 'data' },
        { kind: 'member', name: 'items' },
        { kind: 'index', index: 12 },
        { kind: 'member', name: 'x-y' },
      ],
    ],
  ])('parses %s', (text, steps) => {
    expect(parseJsonPath(text)).toEqual({ text, steps });
  });

  it.each([
    ['', /character 1: expected \$/],
    ['data', /character 1: expected \$/],
    ['$.', /character 3: expected a name/],
    ['$..a', /character 3: expected a name/],
    ['$.x-y', /character 4: expected '\.' or '\['/],
    ['$.1a', /character 3: expected a name/],
    ['$[-1]', /character 3: expected a quoted name or an index/],
    ['$[01]', /character 3: expected a quoted name or an index/],
    ['$[*]', /character 3: expected a quoted name or an index/],
    ['$[0', /character 3: expected a quoted name or an index/],
    ["$['a", /unterminated name/],
    ["$['a'", /character 6: expected '\]' after the closing '/],
    ["$['a\"]", /unterminated name/],
    ["$['a\\n']", /'\\' may only escape ' or '\\'/],
    ['$[99999999999999999999]', /index is too large/],
    [' $.a', /character 1: expected \$/],
    ['$.a ', /character 4: expected '\.' or '\['/],
  ])('refuses %j with a clear error', (text, message) => {
    expect(() => parseJsonPath(text)).toThrow(JsonPathError);
    expect(() => parseJsonPath(text)).toThrow(message);
  });

  it('readJsonPath walks members and elements, and gives undefined for anything absent', () => {
    const doc = { data: { items: [{ 'x-y': 'found' }, null], n: 0 }, list: [1, 2] };
    expect(readJsonPath(doc, parseJsonPath("$.data.items[0]['x-y']"))).toBe('found');
    expect(readJsonPath(doc, parseJsonPath('$.data.items[1]'))).toBeNull();
    expect(readJsonPath(doc, parseJsonPath('$.data.n'))).toBe(0);
    expect(readJsonPath(doc, parseJsonPath('$'))).toBe(doc);
    expect(readJsonPath(doc, parseJsonPath('$.data.items[2]'))).toBeUndefined();
    expect(readJsonPath(doc, parseJsonPath('$.missing.deeper'))).toBeUndefined();
    expect(readJsonPath(doc, parseJsonPath('$.list.length'))).toBeUndefined();
    expect(readJsonPath(doc, parseJsonPath('$.data[0]'))).toBeUndefined();
    expect(readJsonPath(doc, parseJsonPath("$.list['0']"))).toBeUndefined();
    expect(readJsonPath('text', parseJsonPath('$.length'))).toBeUndefined();
    expect(readJsonPath({}, parseJsonPath('$.toString'))).toBeUndefined();
    expect(readJsonPath(JSON.parse('{"__proto__":{"a":1}}'), parseJsonPath('$.__proto__.a'))).toBe(1);
  });
});

describe('body: JSON, or the payload field of a form post', () => {
  it('reads JSON under a JSON content type, a +json type, with parameters, or none', () => {
    for (const contentType of [undefined, '', 'application/json', 'Application/JSON; charset=utf-8', 'application/cloudevents+json', 'text/json']) {
      expect(parseWebhookBody(bytes('{"a":[1,2]}'), contentType)).toEqual({ ok: true, value: { a: [1, 2] } });
    }
  });

  it('reads a JSON body with a byte order mark', () => {
    expect(parseWebhookBody(bytes('\uFEFF{"a":1}'), 'application/json')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('reads the JSON of a form post\'s payload field (Slack/GitHub form style), decoding + and %XX', () => {
    const form = new URLSearchParams({ payload: '{"text":"a b & c","n":1}', other: 'x' }).toString();
    expect(parseWebhookBody(bytes(form), 'application/x-www-form-urlencoded')).toEqual({ ok: true, value: { text: 'a b & c', n: 1 } });
    expect(parseWebhookBody(bytes('payload=%7B%22a%22%3A1%7D'), 'application/x-www-form-urlencoded; charset=utf-8')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('refuses a form post without a payload field, with two, or with one that is not JSON', () => {
    const form = 'application/x-www-form-urlencoded';
    expect(parseWebhookBody(bytes('text=hello'), form)).toEqual({ ok: false, reason: 'form post has no payload field' });
    expect(parseWebhookBody(bytes('payload=1&payload=2'), form)).toEqual({ ok: false, reason: 'form post has more than one payload field' });
    expect(parseWebhookBody(bytes('payload=not-json'), form)).toEqual({ ok: false, reason: 'payload field is not valid JSON' });
    expect(parseWebhookBody(bytes('payload='), form)).toEqual({ ok: false, reason: 'payload field is empty' });
  });

  it('refuses invalid JSON, an empty body and invalid UTF-8 without quoting the body', () => {
    expect(parseWebhookBody(bytes('{"card":"4111111111111111"'), 'application/json')).toEqual({ ok: false, reason: 'body is not valid JSON' });
    expect(parseWebhookBody(bytes('  '), undefined)).toEqual({ ok: false, reason: 'body is empty' });
    expect(parseWebhookBody(new Uint8Array([0x22, 0xff, 0xfe, 0x22]), undefined)).toEqual({ ok: false, reason: 'body is not valid UTF-8' });
  });

  it('refuses a content type that is neither JSON nor a form post, naming it only when it is a plain media type', () => {
    expect(parseWebhookBody(bytes('{}'), 'text/plain')).toEqual({ ok: false, reason: 'content type text/plain is neither JSON nor a form post' });
    expect(parseWebhookBody(bytes('{}'), 'multipart/form-data; boundary=x')).toEqual({
      ok: false,
      reason: 'content type multipart/form-data is neither JSON nor a form post',
    });
    expect(parseWebhookBody(bytes('{}'), 'garbage <script>')).toEqual({ ok: false, reason: 'content type is neither JSON nor a form post' });
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels, counting brackets inside strings for nothing`, () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(parseWebhookBody(bytes(nested(MAX_JSON_DEPTH)), undefined).ok).toBe(true);
    expect(parseWebhookBody(bytes(nested(100_000)), undefined)).toEqual({ ok: false, reason: `body nests deeper than ${MAX_JSON_DEPTH} levels` });
    const bracketsInStrings = JSON.stringify({ s: '['.repeat(1000), t: '\\"[[[' });
    expect(parseWebhookBody(bytes(bracketsInStrings), undefined).ok).toBe(true);
  });
});

describe('split', () => {
  it('unset: the body is one event, whatever it is', () => {
    expect(splitEvents({ a: 1 }, undefined)).toEqual({ ok: true, events: [{ a: 1 }] });
    expect(splitEvents([1, 2], undefined)).toEqual({ ok: true, events: [[1, 2]] });
  });

  it('$: the body itself is the array of events; an empty array is zero events', () => {
    expect(splitEvents([{ id: 1 }, { id: 2 }], parseJsonPath('$'))).toEqual({ ok: true, events: [{ id: 1 }, { id: 2 }] });
    expect(splitEvents([], parseJsonPath('$'))).toEqual({ ok: true, events: [] });
  });

  it('$ on a body that is not an array is refused', () => {
    expect(splitEvents({ id: 1 }, parseJsonPath('$'))).toEqual({ ok: false, reason: 'body is not an array (split is $)' });
  });

  it('a path to an array: each element is an event', () => {
    const body = { batch: { events: [{ id: 'a' }, { id: 'b' }, 3] } };
    expect(splitEvents(body, parseJsonPath('$.batch.events'))).toEqual({ ok: true, events: [{ id: 'a' }, { id: 'b' }, 3] });
  });

  it('a path missing from the body or naming a non-array is refused', () => {
    expect(splitEvents({ batch: {} }, parseJsonPath('$.batch.events'))).toEqual({ ok: false, reason: 'split path $.batch.events is missing from the body' });
    expect(splitEvents({ events: { id: 1 } }, parseJsonPath('$.events'))).toEqual({ ok: false, reason: 'split path $.events is not an array' });
    expect(splitEvents({ events: null }, parseJsonPath('$.events'))).toEqual({ ok: false, reason: 'split path $.events is not an array' });
    expect(splitEvents([1], parseJsonPath('$.events'))).toEqual({ ok: false, reason: 'split path $.events is missing from the body' });
  });
});

describe('canonical JSON', () => {
  it('sorts object keys at every level and keeps array order, with no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    // Keys already in order, empty containers, arrays in arrays.
    expect(canonicalJson({ a: [], b: {}, c: [[1, [2]], [{}]] })).toBe('{"a":[],"b":{},"c":[[1,[2]],[{}]]}');
    expect(canonicalJson([])).toBe('[]');
  });

  it('gives the same text for the same content however keys were ordered or spaced', () => {
    const one = JSON.parse('{ "type": "x", "id": 1, "data": {"k": "v", "a": true} }');
    const two = JSON.parse('{"data":{"a":true,"k":"v"},"id":1,"type":"x"}');
    expect(canonicalJson(one)).toBe(canonicalJson(two));
  });

  it('writes scalars, numbers and escapes as JSON.stringify does', () => {
    expect(canonicalJson('a"b\n')).toBe('"a\\"b\\n"');
    expect(canonicalJson(1.5e21)).toBe('1.5e+21');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson({ '10': 1, '9': 2, b: 3, B: 4 })).toBe('{"10":1,"9":2,"B":4,"b":3}');
  });
});

describe('event id, type, key, content hash and payload', () => {
  const paths = { eventIdPath: parseJsonPath('$.id'), eventTypePath: parseJsonPath('$.type'), keyPath: parseJsonPath("$.data['customer-id']") };

  it('reads the id, type and key from their paths; content_hash is SHA-256 of the canonical JSON; payload is the event JSON', () => {
    const event = JSON.parse('{"type":"order.created","id":"evt_1","data":{"customer-id":"c42"}}');
    expect(describeEvent(event, paths)).toEqual({
      eventId: 'evt_1',
      eventType: 'order.created',
      key: 'c42',
      contentHash: sha256('{"data":{"customer-id":"c42"},"id":"evt_1","type":"order.created"}'),
      payload: '{"type":"order.created","id":"evt_1","data":{"customer-id":"c42"}}',
    });
  });

  it('without event_id_path, or with the id absent or null, the event id is the content hash', () => {
    const event = { b: 2, a: 1 };
    const hash = sha256('{"a":1,"b":2}');
    expect(describeEvent(event, {})).toEqual({ eventId: hash, eventType: null, key: null, contentHash: hash, payload: '{"b":2,"a":1}' });
    expect(describeEvent(event, paths).eventId).toBe(hash);
    expect(describeEvent({ ...event, id: null }, paths).eventId).toBe(describeEvent({ ...event, id: null }, {}).contentHash);
    expect(describeEvent({ id: '' }, paths).eventId).toBe(sha256('{"id":""}'));
  });

  it('the same content sent with keys in another order has the same content hash and id', () => {
    expect(describeEvent(JSON.parse('{"x":1,"y":[1,{"q":1,"p":2}]}'), {}).eventId).toBe(describeEvent(JSON.parse('{"y":[1,{"p":2,"q":1}],"x":1}'), {}).eventId);
  });

  it('numbers and booleans are rendered with String, objects and arrays as canonical JSON', () => {
    expect(describeEvent({ id: 12345, type: true, data: { 'customer-id': 7.5 } }, paths)).toMatchObject({ eventId: '12345', eventType: 'true', key: '7.5' });
    expect(describeEvent({ id: { n: 1, a: 2 }, type: ['x', 'y'] }, paths)).toMatchObject({ eventId: '{"a":2,"n":1}', eventType: '["x","y"]', key: null });
  });

  it('type and key are null when unset, absent or null', () => {
    expect(describeEvent({ id: 'e', type: null }, paths)).toMatchObject({ eventType: null, key: null });
    expect(describeEvent({ id: 'e', type: 'x', data: { 'customer-id': 'c' } }, {})).toMatchObject({ eventType: null, key: null });
  });

  it('an event that is not an object (a split element) is described too', () => {
    expect(describeEvent(3, paths)).toEqual({ eventId: sha256('3'), eventType: null, key: null, contentHash: sha256('3'), payload: '3' });
  });
});
