import { describe, expect, it } from 'vitest';
import { AccessDenied, NoSuchBucket, NoSuchKey, NotFound, S3ServiceException } from '@aws-sdk/client-s3';
import { ObjstoreError, mapS3Error } from '../../shared/objstore/errors.js';
import {
  assertContentType,
  bucketNameProblem,
  clampExpiresIn,
  clampMaxKeys,
  completeUtf8Length,
  encodeContent,
  etagMatches,
  formatTimestamp,
  guessContentType,
  hasControlCharacter,
  isTextContent,
  normalizeMetadata,
  readObjstoreEnv,
  tighterLimit,
  assertKey,
  decodeMetadataValue,
  encodeMetadataValue,
} from '../../shared/objstore/rules.js';
import {
  commonPrefixOf,
  compareKeys,
  decodeCursor,
  encodeCursor,
  escapeSegment,
  keyWanted,
  locateKey,
  parseEntry,
  sortEntries,
  subtreeWanted,
  unescapeSegment,
} from '../../shared/objstore/fs-layout.js';
import {
  buildPresignedUrl,
  derivePresignKey,
  parsePresignedRequest,
  presignPath,
  verifyPresigned,
} from '../../shared/objstore/presign-token.js';
import { parseConfig } from '../../shared/config/index.js';
import { embeddedObjstoreInstance, platformBucketKinds, platformBucketName, reservedBucketNames } from '../../shared/objstore/index.js';


function s3Error<T extends S3ServiceException>(Cls: new (o: never) => T, status: number, extra: Record<string, unknown> = {}): T {
  const e = new Cls({ message: '', $metadata: { httpStatusCode: status } } as never);
  Object.assign(e, extra);
  return e;
}

describe('bucket names (S3 rules, both drivers)', () => {
  it.each(['abc', 'my-bucket', 'my.bucket.2024', 'a'.repeat(63), '0bucket'])('accepts %s', (name) => {
    expect(bucketNameProblem(name)).toBeUndefined();
  });
  it.each([
    ['ab', /3 to 63/],
    ['a'.repeat(64), /3 to 63/],
    ['My-Bucket', /lowercase/],
    ['under_score', /lowercase/],
    ['-start', /start and end/],
    ['end-', /start and end/],
    ['two..dots', /adjacent dots/],
    ['dot.-dash', /dot next to a hyphen/],
    ['10.0.0.1', /IP address/],
    ['xn--punycode', /reserved prefix/],
    ['data-s3alias', /reserved suffix/],
  ])('refuses %s', (name, why) => {
    expect(bucketNameProblem(name)).toMatch(why);
  });
});

describe('keys and metadata', () => {
  it('refuses empty, over-long and ill-formed keys', () => {
    expect(() => assertKey('')).toThrow(ObjstoreError);
    expect(() => assertKey('é'.repeat(513))).toThrow(/1024 bytes/);
    expect(() => assertKey('x'.repeat(1024))).not.toThrow();
    expect(() => assertKey('bad\uD800')).toThrow(/Unicode/);
  });
  it('lower-cases metadata keys and refuses header-breaking ones', () => {
    expect(normalizeMetadata({ Owner: 'Ann', 'X-Team': 'd' })).toEqual({ owner: 'Ann', 'x-team': 'd' });
    expect(() => normalizeMetadata({ 'bad key': 'x' })).toThrow(/header token/);
    expect(() => normalizeMetadata({ ok: 'line\nbreak' })).toThrow(/control characters/);
  });
  it('issue 9 item 3: finds C0 controls (NUL, TAB, CR, LF), DEL and C1 controls, nothing else', () => {
    for (const c of ['\0', '\t', '\r', '\n', '\x1b', '\x7f', '\x80', '\x85', '\x9f']) expect(hasControlCharacter(`a${c}b`), JSON.stringify(c)).toBe(true);
    for (const v of ['', 'plain', 'café ✓ 数据', '\xa0non-breaking', '~']) expect(hasControlCharacter(v), v).toBe(false);
  });
  it('issue 9 item 3: refuses metadata values and content types that carry control characters (InvalidArgument)', () => {
    for (const v of ['a\0b', 'a\tb', 'a\rb', 'a\x7fb', 'a\u0085b']) {
      expect(() => normalizeMetadata({ note: v })).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
    }
    expect(normalizeMetadata({ note: 'café ✓' })).toEqual({ note: 'café ✓' });
    for (const t of ['text/html\r\nx-evil: 1', 'text/plain\t', 'text/plain\0', 'text/plain\x7f', 'text/\u0085plain', 'text/plaïn']) {
      expect(() => assertContentType(t), JSON.stringify(t)).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
    }
    for (const t of [undefined, '', 'text/csv', 'application/json; charset=utf-8']) expect(() => assertContentType(t)).not.toThrow();
  });
  it('RFC 2047-encodes non-ASCII metadata values for HTTP headers, and decodes them', () => {
    expect(encodeMetadataValue('plain value')).toBe('plain value');
    expect(encodeMetadataValue('café')).toBe('=?UTF-8?B?Y2Fmw6k=?=');
    for (const v of ['café ✓ 数据', 'tab\there', '']) expect(decodeMetadataValue(encodeMetadataValue(v))).toBe(v);
    expect(decodeMetadataValue('=?utf-8?b?Y2Fmw6k=?=')).toBe('café');
  });
  it('compares ETags quoted or not, lists and *', () => {
    expect(etagMatches('abc', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
  });
});

describe('tool argument rules', () => {
  it('max_keys: ≤ 0 or > 1000 becomes 1000', () => {
    expect([undefined, 0, -1, 1001, 5000].map(clampMaxKeys)).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect([1, 999, 1000].map(clampMaxKeys)).toEqual([1, 999, 1000]);
  });
  it('expires_in: < 1 becomes 3600; > 604800 becomes 604800', () => {
    expect([undefined, 0, -5].map(clampExpiresIn)).toEqual([3600, 3600, 3600]);
    expect(clampExpiresIn(604_801)).toBe(604_800);
    expect(clampExpiresIn(60)).toBe(60);
  });
  it('formats timestamps as YYYY-MM-DDTHH:MM:SSZ', () => {
    expect(formatTimestamp(new Date('2024-05-06T07:08:09.123Z'))).toBe('2024-05-06T07:08:09Z');
  });
  it('guesses content types from the key, else by body kind', () => {
    expect(guessContentType('a/b.CSV', false)).toBe('text/csv; charset=utf-8');
    expect(guessContentType('x.parquet', true)).toBe('application/vnd.apache.parquet');
    expect(guessContentType('noext', false)).toBe('text/plain; charset=utf-8');
    expect(guessContentType('noext', true)).toBe('application/octet-stream');
  });
});

describe('text or binary', () => {
  const b = (s: string | number[]) => (typeof s === 'string' ? Buffer.from(s) : Buffer.from(s));
  it.each([
    ['text/plain', b('hello'), true],
    ['application/json', b('{"a":1}'), true],
    ['application/vnd.api+json', b('{}'), true],
    ['application/octet-stream', b('plain utf-8 ✓'), true],
    ['application/octet-stream', b([]), true],
    ['application/octet-stream', b('nul\0byte'), false],
    ['application/octet-stream', b([0xff, 0xfe, 0x00]), false],
    ['image/png', b([0x89, 0x50, 0x4e, 0x47]), false],
    // A textual type whose bytes are not UTF-8 is still sent as base64, never mangled.
    ['text/plain', b([0x63, 0x61, 0x66, 0xe9]), false],
  ])('%s %j → text %s', (type, bytes, text) => {
    expect(isTextContent(type, bytes)).toBe(text);
  });

  it('a read cut inside a character stays text and ends at the last whole character', () => {
    const full = Buffer.from('aé✓😀');
    for (let n = 1; n <= full.length; n++) {
      const cut = full.subarray(0, n);
      expect(isTextContent('text/plain', cut, true)).toBe(true);
      const { content, isBase64 } = encodeContent('text/plain', cut, true);
      expect(isBase64).toBe(false);
      expect('aé✓😀'.startsWith(content)).toBe(true);
    }
    expect(completeUtf8Length(Buffer.from([0x61, 0xe2, 0x9c]))).toBe(1);
    expect(completeUtf8Length(Buffer.from('a✓'))).toBe(4);
  });
});

describe('environment overrides', () => {
  it('reads the read-only switch and byte limits', () => {
    expect(readObjstoreEnv({})).toEqual({ readOnly: false });
    expect(readObjstoreEnv({ MCP_OBJSTORE_EXT_READONLY: 'TRUE', MCP_OBJSTORE_MAX_GET_SIZE: '100', MCP_OBJSTORE_MAX_PUT_SIZE: ' 5 ' })).toEqual({
      readOnly: true,
      maxGetSize: 100,
      maxPutSize: 5,
    });
    expect(readObjstoreEnv({ MCP_OBJSTORE_EXT_READONLY: 'false' }).readOnly).toBe(false);
  });
  it('issue 9 item 5: MCP_OBJSTORE_EXT_READONLY takes exactly true/1/yes/on and false/0/no/off (any case); unset or empty is off', () => {
    for (const v of ['true', 'TRUE', ' 1 ', 'yes', 'On']) expect(readObjstoreEnv({ MCP_OBJSTORE_EXT_READONLY: v }).readOnly, v).toBe(true);
    for (const v of ['false', '0', 'no', 'OFF', '', '  ']) expect(readObjstoreEnv({ MCP_OBJSTORE_EXT_READONLY: v }).readOnly, v).toBe(false);
    for (const v of ['ture', 'y', 'enabled', '2', 'true!']) {
      expect(() => readObjstoreEnv({ MCP_OBJSTORE_EXT_READONLY: v }), v).toThrow(/^MCP_OBJSTORE_EXT_READONLY must be/);
    }
  });
  it('issue 9 item 5: a size of 0, a negative, fractional or unparsable size is refused naming the variable', () => {
    for (const name of ['MCP_OBJSTORE_MAX_GET_SIZE', 'MCP_OBJSTORE_MAX_PUT_SIZE']) {
      for (const v of ['0', '00', '-1', '1.5', '1e6', '0x10', '10MB', 'unlimited', '9007199254740993']) {
        expect(() => readObjstoreEnv({ [name]: v }), `${name}=${v}`).toThrow(new RegExp(`^${name} must be a whole number of bytes above 0`));
      }
      expect(readObjstoreEnv({ [name]: '' })).toEqual({ readOnly: false });
    }
  });
  it('takes the tighter of two limits, 0 meaning none', () => {
    expect(tighterLimit(10, 5)).toBe(5);
    expect(tighterLimit(0, 5)).toBe(5);
    expect(tighterLimit(10, undefined)).toBe(10);
    expect(tighterLimit(0, undefined)).toBeUndefined();
  });
});

describe('S3 error mapping (by error name and status, never message text)', () => {
  it('maps modelled errors by name', () => {
    expect(mapS3Error(s3Error(NoSuchKey, 404), { bucket: 'b', key: 'k' })).toMatchObject({ code: 'NoSuchKey', message: 'object not found: b/k' });
    expect(mapS3Error(s3Error(NoSuchBucket, 404), { bucket: 'b' })).toMatchObject({ code: 'NoSuchBucket', message: 'bucket not found: b' });
    expect(mapS3Error(s3Error(AccessDenied, 403), { bucket: 'b' }).code).toBe('AccessDenied');
  });
  it('maps unmodelled codes carried as the error name', () => {
    for (const [name, code] of [
      ['InvalidBucketName', 'InvalidBucketName'],
      ['EntityTooLarge', 'EntityTooLarge'],
      ['SignatureDoesNotMatch', 'AccessDenied'],
      ['InvalidAccessKeyId', 'AccessDenied'],
      ['PreconditionFailed', 'PreconditionFailed'],
      ['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'],
      ['SlowDown', 'ServiceUnavailable'],
    ] as const) {
      const e = new S3ServiceException({ name, $fault: 'client', message: 'whatever the text says', $metadata: { httpStatusCode: 400 } });
      expect(mapS3Error(e).code, name).toBe(code);
    }
  });
  it('tells a bodiless HEAD 404 apart by asking whether the bucket exists', () => {
    const e = s3Error(NotFound, 404);
    expect(mapS3Error(e, { bucket: 'b', key: 'k', bucketExists: true }).code).toBe('NoSuchKey');
    expect(mapS3Error(e, { bucket: 'b', key: 'k', bucketExists: false }).code).toBe('NoSuchBucket');
    expect(mapS3Error(e, { bucket: 'b' }).code).toBe('NoSuchBucket');
  });
  it('falls back on the status, and names the bucket S3 names', () => {
    const e = new S3ServiceException({ name: 'Unknown', $fault: 'client', message: 'Unknown', $metadata: { httpStatusCode: 403 } });
    expect(mapS3Error(e, { bucket: 'b' })).toMatchObject({ code: 'AccessDenied', message: 'access denied to b' });
    const withBucket = s3Error(NoSuchBucket, 404, { BucketName: 'other' });
    expect(mapS3Error(withBucket, { bucket: 'b' }).message).toBe('bucket not found: other');
    const network = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(mapS3Error(network).code).toBe('ServiceUnavailable');
    expect(mapS3Error(new Error('boom')).code).toBe('InternalError');
  });
  it('carries the {error, message, hint} body', () => {
    expect(new ObjstoreError('ReadOnlyMode', 'blocked').toJSON()).toEqual({ error: 'ReadOnlyMode', message: 'blocked', hint: expect.stringContaining('read-only') });
  });
});

describe('filesystem layout', () => {
  it('escapes segments reversibly into safe, case-proof names', () => {
    for (const s of ['', '.', '..', 'Hello World', 'ünï/©', '%41', 'a_b-c', '😀']) {
      const e = escapeSegment(s);
      expect(e).toMatch(/^[a-z0-9_%A-F-]*$/);
      expect(unescapeSegment(e)).toBe(s);
    }
    expect(escapeSegment('A')).not.toBe(escapeSegment('a'));
  });
  it('maps keys to folders and leaves; refuses over-long segments', () => {
    expect(locateKey('a/b/c.csv')).toEqual({ dirs: ['d_a', 'd_b'], leaf: 'c%2Ecsv' });
    expect(locateKey('dir/')).toEqual({ dirs: ['d_dir'], leaf: '' });
    expect(() => locateKey(`x/${'y'.repeat(231)}`)).toThrow(/too long/);
  });
  it('parses directory entries', () => {
    expect(parseEntry('d_a%2Eb', true)).toEqual({ kind: 'dir', segment: 'a.b', name: 'd_a%2Eb' });
    expect(parseEntry('m_c%2Ecsv.json', false)).toEqual({ kind: 'object', segment: 'c.csv' });
    expect(parseEntry('o_c%2Ecsv.0123', false)).toBeUndefined();
    expect(parseEntry('.bucket.json', false)).toBeUndefined();
  });
  it('sorts a folder in S3 key order (folders compare as "name/")', () => {
    const entries = sortEntries([
      { kind: 'dir', segment: 'c', name: 'd_c' },
      { kind: 'object', segment: 'c-x.txt' },
      { kind: 'object', segment: 'c' },
      { kind: 'dir', segment: 'b', name: 'd_b' },
      { kind: 'object', segment: 'a.txt' },
    ]);
    expect(entries.map((e) => `${e.kind}:${e.segment}`)).toEqual(['object:a.txt', 'dir:b', 'object:c', 'object:c-x.txt', 'dir:c']);
  });
  it('orders by UTF-8 bytes, not UTF-16 units', () => {
    expect(compareKeys('\uFFFF', '😀')).toBeLessThan(0);
    expect('\uFFFF' < '😀').toBe(false);
  });
  it('round-trips cursors and refuses made-up ones', () => {
    expect(decodeCursor(encodeCursor({ after: 'a/b', skipPrefix: 'a/' }))).toEqual({ after: 'a/b', skipPrefix: 'a/' });
    expect(() => decodeCursor('garbage')).toThrow(ObjstoreError);
  });
  it('decides which subtrees and keys a page still wants', () => {
    expect(subtreeWanted('a/', 'a/b', {})).toBe(true);
    expect(subtreeWanted('b/', 'a/', {})).toBe(false);
    expect(subtreeWanted('a/', '', { after: 'a/x' })).toBe(true);
    expect(subtreeWanted('a/', '', { after: 'b' })).toBe(false);
    expect(subtreeWanted('b/', '', { after: 'a/z' })).toBe(true);
    expect(subtreeWanted('a/b/', '', { skipPrefix: 'a/' })).toBe(false);
    expect(keyWanted('a/1', 'a/', { after: 'a/1' })).toBe(false);
    expect(keyWanted('a/2', 'a/', { after: 'a/1' })).toBe(true);
    expect(commonPrefixOf('a/b/c', 'a/', '/')).toBe('a/b/');
    expect(commonPrefixOf('a/b', 'a/', '/')).toBeUndefined();
    expect(commonPrefixOf('a/b', 'a/', undefined)).toBeUndefined();
  });
});

describe('filesystem presigned URLs', () => {
  const key = derivePresignKey(Buffer.alloc(32, 1));
  const now = new Date('2024-01-01T00:00:00Z');
  const expires = Math.floor(now.getTime() / 1000) + 60;
  const url = buildPresignedUrl('http://h:1/', key, { method: 'GET', connection: 'local', bucket: 'docs', key: 'a b/ü?.txt', expires });

  it('builds a platform URL that parses back to the same claims', () => {
    expect(url.startsWith('http://h:1/objstore/local/docs/a%20b/%C3%BC%3F.txt?X-Objstore-Method=GET&X-Objstore-Expires=')).toBe(true);
    const parsed = parsePresignedRequest(url.slice('http://h:1'.length))!;
    expect(parsed).toMatchObject({ connection: 'local', bucket: 'docs', key: 'a b/ü?.txt', method: 'GET', expires });
    expect(verifyPresigned(key, parsed, 'GET', now)).toEqual({ ok: true, method: 'GET' });
    expect(verifyPresigned(key, parsed, 'HEAD', now).ok).toBe(true);
  });
  it('refuses a changed claim, method, expiry or key', () => {
    const parsed = parsePresignedRequest(url.slice('http://h:1'.length))!;
    expect(verifyPresigned(key, { ...parsed, key: 'other' }, 'GET', now)).toMatchObject({ ok: false, reason: 'signature does not match' });
    expect(verifyPresigned(key, { ...parsed, expires: expires + 1 }, 'GET', now).ok).toBe(false);
    expect(verifyPresigned(key, { ...parsed, method: 'PUT' }, 'PUT', now).ok).toBe(false);
    expect(verifyPresigned(key, parsed, 'PUT', now)).toMatchObject({ ok: false, reason: 'the URL was signed for GET' });
    expect(verifyPresigned(key, parsed, 'GET', new Date(now.getTime() + 61_000))).toMatchObject({ ok: false, reason: 'the URL has expired' });
    expect(verifyPresigned(derivePresignKey(Buffer.alloc(32, 2)), parsed, 'GET', now).ok).toBe(false);
    expect(verifyPresigned(key, { ...parsed, signature: undefined } as never, 'GET', now).ok).toBe(false);
  });
  it('keeps empty segments and trailing slashes; refuses dot segments', () => {
    expect(parsePresignedRequest(`${presignPath('c', 'bkt', 'a//b/')}?x=1`)).toMatchObject({ key: 'a//b/' });
    expect(() => presignPath('c', 'bkt', 'a/../b')).toThrow(/cannot be presigned/);
    expect(parsePresignedRequest('/elsewhere/x/y/z')).toBeUndefined();
  });
});

describe('embedded default', () => {
  it('is a filesystem instance named local under the data dir, seeding bucket "default"', () => {
    const e = embeddedObjstoreInstance('/data');
    expect(e.name).toBe('local');
    expect(e.instance).toMatchObject({ driver: 'filesystem', root: '/data/objstore', read_only: false, max_get_size: 10_485_760, max_put_size: 104_857_600 });
    expect(e.seedBuckets).toEqual({ local: ['default'] });
  });
  it('names platform buckets after the bucket_prefix', () => {
    expect(platformBucketName({ bucketPrefix: 'acme-' }, 'artifacts')).toBe('acme-artifacts');
    expect(platformBucketName({}, 'resources')).toBe('resources');
  });
  it('issue 9 item 1: reserves every platform bucket kind under every instance\'s bucket_prefix, and portal.s3_bucket', () => {
    const { config } = parseConfig('toolkits:\n  objstore:\n    a: {}\n    b: { bucket_prefix: team-, internal: true }\nportal:\n  s3_bucket: portal-art\n', {});
    const expected = [...platformBucketKinds, ...platformBucketKinds.map((k) => `team-${k}`), 'portal-art'];
    expect([...reservedBucketNames(config)].sort()).toEqual(expected.sort());
    expect(platformBucketKinds).toEqual(['resources', 'webhooks', 'artifacts']);
  });
});
