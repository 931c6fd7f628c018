import { describe, expect, it } from 'vitest';
import { fieldsHaveNul, MAX_JSON_DEPTH, nestsDeeperThan, parseCallerJson, targetHasNul } from '../../shared/inbound/index.js';

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
    expect(targetHasNul('/hooks/a%00b')).toBe(true);
    expect(targetHasNul('/api/v1/resources/search?q=a%00b')).toBe(true);
    expect(targetHasNul('/x?q=%00')).toBe(true);
    expect(targetHasNul('/x\u0000')).toBe(true);
    expect(targetHasNul('/x?q=%2500')).toBe(false);
    expect(targetHasNul('/x?q=100%25&r=a0')).toBe(false);
  });

  it('finds a NUL in any string or key of a parsed body, at any depth, and skips bytes', () => {
    expect(fieldsHaveNul({ grant_type: 'authorization_code', code: 'a\u0000b' })).toBe(true);
    expect(fieldsHaveNul({ 'a\u0000': 1 })).toBe(true);
    expect(fieldsHaveNul([1, [2, [{ x: ['\u0000'] }]]])).toBe(true);
    expect(fieldsHaveNul({ a: 'b', c: [1, null, true, { d: 'e' }] })).toBe(false);
    expect(fieldsHaveNul(Buffer.from([0, 0, 0]))).toBe(false);
    expect(fieldsHaveNul('plain')).toBe(false);
    expect(fieldsHaveNul(Array.from({ length: 300_000 }, () => 'x'))).toBe(false);
  });
});
