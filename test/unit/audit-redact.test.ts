import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { MAX_STRING_CHARS, REDACTED, contentDigest, isSecretKey, keyWords, redactParameters } from '../../shared/audit/index.js';

describe('isSecretKey', () => {
  it.each([
    'password',
    'PASSWORD',
    'db_password',
    'passwordHash',
    'passwd',
    'secret',
    'client_secret',
    'clientSecret',
    'token',
    'auth_token',
    'accessToken',
    'session_token',
    'SessionToken',
    'api_key',
    'apiKey',
    'APIKey',
    'apikey',
    'x-api-key',
    'X-API-KEY',
    'access_key',
    'accessKeyId',
    'secret_key',
    'secretAccessKey',
    'private_key',
    'privateKey',
    'authorization',
    'Authorization',
    'credential',
    'credentials',
    'aws_credentials',
    'cookie',
    'Set-Cookie',
  ])('%s is secret', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each(['key', 'object_key', 'sort_key', 'partition_key', 'keys', 'max_tokens', 'tokenizer', 'query', 'sql', 'bucket', 'author', 'session_id', 'monkey'])(
    '%s is not secret',
    (key) => {
      expect(isSecretKey(key)).toBe(false);
    },
  );

  it('splits camelCase, acronyms and separators into words', () => {
    expect(keyWords('secretAccessKey')).toEqual(['secret', 'access', 'key']);
    expect(keyWords('X-API-Key')).toEqual(['x', 'api', 'key']);
    expect(keyWords('APIKey')).toEqual(['api', 'key']);
    expect(keyWords('s3_bucket.name')).toEqual(['s3', 'bucket', 'name']);
  });
});

describe('redactParameters', () => {
  it('replaces secret values at any depth, in objects and arrays, and keeps the rest', () => {
    const input = {
      sql: 'SELECT 1',
      password: 'hunter2',
      connection: { host: 'db', Password: 'p', options: { api_key: 'k', timeout: 5 } },
      headers: [{ Authorization: 'Bearer abc' }, { cookie: 'a=b' }, { accept: 'text/plain' }],
      credentials: { user: 'u', pass: 'v' },
      key: 'reports/2024/q1.csv',
      nested: [[{ client_secret: 's', id: 1 }]],
    };
    expect(redactParameters(input)).toEqual({
      sql: 'SELECT 1',
      password: REDACTED,
      connection: { host: 'db', Password: REDACTED, options: { api_key: REDACTED, timeout: 5 } },
      headers: [{ Authorization: REDACTED }, { cookie: REDACTED }, { accept: 'text/plain' }],
      credentials: REDACTED,
      key: 'reports/2024/q1.csv',
      nested: [[{ client_secret: REDACTED, id: 1 }]],
    });
  });

  it('does not modify its input', () => {
    const input = { token: 't', list: [{ secret: 's' }] };
    const copy = structuredClone(input);
    redactParameters(input);
    expect(input).toEqual(copy);
  });

  it('truncates long strings with a marker saying how much was cut', () => {
    const long = 'x'.repeat(MAX_STRING_CHARS + 500);
    const out = redactParameters({ body: long }) as { body: string };
    expect(out.body.startsWith('x'.repeat(MAX_STRING_CHARS))).toBe(true);
    expect(out.body.endsWith('…[truncated 500 chars]')).toBe(true);
    expect(redactParameters('y'.repeat(MAX_STRING_CHARS))).toBe('y'.repeat(MAX_STRING_CHARS));
  });

  it('never cuts a surrogate pair in half', () => {
    const s = 'a'.repeat(MAX_STRING_CHARS - 1) + '😀' + 'b';
    const out = redactParameters(s) as string;
    expect(out.startsWith('a'.repeat(MAX_STRING_CHARS - 1) + '…')).toBe(true);
    expect(out).toContain('[truncated 3 chars]');
  });

  it('hides passwords inside URLs but keeps the user and host', () => {
    expect(redactParameters({ dsn: 'postgres://app:s3cr3t@db.internal:5432/x', note: 'see https://example.com/a@b' })).toEqual({
      dsn: `postgres://app:${REDACTED}@db.internal:5432/x`,
      note: 'see https://example.com/a@b',
    });
  });

  it('hides secret query parameters in URLs, as log lines do (presigned URLs passed as arguments)', () => {
    expect(redactParameters({ source: 'https://s3.example.com/b/k.csv?X-Amz-Credential=AKIA1&X-Amz-Signature=abc&X-Amz-Date=1' })).toEqual({
      source: `https://s3.example.com/b/k.csv?X-Amz-Credential=${REDACTED}&X-Amz-Signature=${REDACTED}&X-Amz-Date=1`,
    });
  });

  // Issue 9 item 7: content is stored as its size and SHA-256, never the bytes.
  it('reduces declared content arguments to size and SHA-256, at the top level only', () => {
    const body = 'name,amount\nada,42\n';
    const sha256 = createHash('sha256').update(body).digest('hex');
    const out = redactParameters({ bucket: 'b', key: 'k.csv', body, nested: { body } }, { contentArguments: ['body', 'absent'] });
    expect(out).toEqual({ bucket: 'b', key: 'k.csv', body: { size: Buffer.byteLength(body), sha256 }, nested: { body } });
    expect(redactParameters({ body }, { contentArguments: [] })).toEqual({ body });
  });

  it('digests content of any shape, and a secret-named content argument stays redacted', () => {
    const digestOf = (text: string) => ({ size: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') });
    expect(contentDigest('é')).toEqual(digestOf('é'));
    expect(contentDigest(Buffer.from('abc'))).toEqual(digestOf('abc'));
    expect(contentDigest({ big: 'object' })).toEqual(digestOf('{"big":"object"}'));
    expect(contentDigest(42)).toEqual(digestOf('42'));
    expect(redactParameters({ token: 'x' }, { contentArguments: ['token'] })).toEqual({ token: REDACTED });
  });

  it('makes values storable in jsonb: NUL, lone surrogates, NaN, bigint, dates, bytes, cycles', () => {
    const cyclic: Record<string, unknown> = { name: 'c' };
    cyclic.self = cyclic;
    const shared = { v: 1 };
    const out = redactParameters({
      nul: 'a\u0000b',
      lone: 'x\uD800y',
      nan: Number.NaN,
      big: 12n,
      when: new Date('2024-05-01T00:00:00Z'),
      bytes: Buffer.from('abc'),
      gone: undefined,
      fn: () => 1,
      cyclic,
      twice: [shared, shared],
      set: new Set([1, 2]),
      map: new Map([['token', 'x'], ['a', 'b']]),
    });
    expect(out).toEqual({
      nul: 'a\uFFFDb',
      lone: 'x\uFFFDy',
      nan: 'NaN',
      big: '12',
      when: '2024-05-01T00:00:00.000Z',
      bytes: '[3 bytes]',
      cyclic: { name: 'c', self: '[circular]' },
      twice: [{ v: 1 }, { v: 1 }],
      set: [1, 2],
      map: { token: REDACTED, a: 'b' },
    });
    expect(() => JSON.parse(JSON.stringify(out))).not.toThrow();
  });

  it('bounds depth and array length', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 50; i++) deep = { d: deep };
    expect(JSON.stringify(redactParameters(deep))).toContain('[too deep]');
    const out = redactParameters(Array.from({ length: 1005 }, (_, i) => i)) as unknown[];
    expect(out).toHaveLength(1001);
    expect(out[1000]).toBe('…[5 more items]');
  });
});
