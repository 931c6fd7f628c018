import { describe, expect, it } from 'vitest';
import { jsonTextMayHoldNul, MAX_JSON_DEPTH, nestsDeeperThan, nulField, nulInTarget, parseCallerJson } from '../../shared/inbound/index.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON nesting', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, arrays and objects alike`, () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('counts depth, not the number of brackets: siblings do not add up', () => {
    expect(nestsDeeperThan(`[${Array.from({ length: 1000 }, () => '[[]]').join(',')}]`)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ s: '['.repeat(10_000), t: '\\"[[[' }))).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['"'.repeat(5) + '{'.repeat(500)]))).toBe(false);
  });

  it('refuses 400,000 levels before parsing, and tells too deep from not JSON without quoting the input', () => {
    expect(parseCallerJson(nested(400_000))).toEqual({ ok: false, error: 'too_deep', reason: `body nests deeper than ${MAX_JSON_DEPTH} levels` });
    expect(parseCallerJson('{"secret": nope}', 'payload field')).toEqual({ ok: false, error: 'invalid_json', reason: 'payload field is not valid JSON' });
    expect(parseCallerJson('{"a":[1,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
  });
});

describe('NUL characters', () => {
  it('finds a NUL in the request target, raw or percent-encoded in either case', () => {
    expect(nulInTarget('/hooks/a%00b')).toBe('the path');
    expect(nulInTarget('/api/v1/resources/search?q=a%00b')).toBe('the query parameter q');
    expect(nulInTarget('/x?a=1&change_summary=%00')).toBe('the query parameter change_summary');
    expect(nulInTarget('/x?a%00=1')).toBe('a query parameter name');
    expect(nulInTarget('/x\u0000')).toBe('the path');
    expect(nulInTarget('/x?q=%2500')).toBeUndefined();
    expect(nulInTarget('/x?q=100%25&r=a0')).toBeUndefined();
  });

  it('finds a NUL in any string or key of a parsed body, at any depth, and skips bytes', () => {
    expect(nulField({ grant_type: 'authorization_code', code: 'a\u0000b' })).toBe('code');
    expect(nulField({ 'a\u0000': 1 })).toBe('a key');
    expect(nulField([1, [2, [{ x: ['\u0000'] }]]])).toBe('[1][1][0].x[0]');
    expect(nulField({ tags: ['a', 'b\u0000'] })).toBe('tags[1]');
    expect(nulField({ a: 'b', c: [1, null, true, { d: 'e' }] })).toBeUndefined();
    expect(nulField(Buffer.from([0, 0, 0]))).toBeUndefined();
    expect(nulField('plain')).toBeUndefined();
    expect(nulField(Array.from({ length: 300_000 }, () => 'x'))).toBeUndefined();
  });

  it('a JSON text can yield a NUL only through the escape \\u0000, which the quick check looks for', () => {
    const texts = [
      '{"a":"b\\u0000"}',
      '{"a\\u0000":1}',
      '[1,["\\u0000x"]]',
      '"\\\\u0000"',
      '{"a":"\\u0001","b":"\\u00000"}',
      '{"a":"b","c":[1,null,true,{"d":"e"}]}',
      '{"a":"\\\\","b":"u0000","c":"\\u0030"}',
    ];
    for (const text of texts) {
      if (!jsonTextMayHoldNul(text)) expect(nulField(JSON.parse(text))).toBeUndefined();
    }
    expect(texts.map(jsonTextMayHoldNul)).toEqual([true, true, true, true, true, false, false]);
    // Raw NULs are not JSON at all: nothing parses with one.
    for (const raw of ['"a\u0000b"', '{"a\u0000":1}', '[1,\u00002]']) expect(() => JSON.parse(raw)).toThrow();
  });
});
