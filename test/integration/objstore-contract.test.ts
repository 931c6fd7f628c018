/**
 * The object-store contract: one suite, run against both drivers (MinIO through the S3 driver,
 * and the filesystem driver), covering the nine tools, their fields and error codes, and presigned
 * URLs used with plain fetch (the storage API other domains use: objstore-storage-api.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ObjstoreConnections,
  type ObjectStore,
} from '../../shared/objstore/index.js';
import {
  connectionsFrom,
  objstoreYaml,
  presignKey,
  quotedEtag,
  startBackend,
  startPresignServer,
  toolCaller,
  type Backend,
  type Driver,
  type Json,
  type PresignServer,
} from './objstore-fixtures.js';

const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Runs `fn` over items with at most `limit` in flight. */
async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

function contractSuite(driver: Driver): void {
  let backend: Backend;
  let server: PresignServer;
  let connections: ObjstoreConnections;
  let call: ReturnType<typeof toolCaller>;
  let store: ObjectStore;
  const base = { url: '' };
  let yaml: string;

  beforeAll(async () => {
    backend = await startBackend(driver);
    yaml = objstoreYaml({
      main: backend.instance(),
      prefixed: backend.instance(['bucket_prefix: team-']),
      readonly: backend.instance(['read_only: true']),
      small: backend.instance(['max_get_size: 16', 'max_put_size: 32', 'connection_name: Small limits']),
    });
    connections = connectionsFrom(yaml, { presign: { baseUrl: () => base.url, key: presignKey } });
    server = await startPresignServer(connections);
    base.url = server.url;
    call = toolCaller(connections);
    store = connections.get('main').store;
    for (const b of ['alpha', 'beta', 'team-one', 'paging']) await store.createBucket(b);
  });

  afterAll(async () => {
    await server?.close();
    await connections?.close();
    await backend?.stop();
  });

  describe('objstore_list_connections', () => {
    it('lists every connection with region or endpoint and names the default', async () => {
      const { body, isError } = await call('objstore_list_connections');
      expect(isError).toBe(false);
      expect(Object.keys(body).sort()).toEqual(['connections', 'count', 'default_connection']);
      expect(body.count).toBe(4);
      expect(body.default_connection).toBe('main');
      expect(body.connections.map((c: { name: string }) => c.name)).toEqual(['main', 'prefixed', 'readonly', 'small']);
      for (const c of body.connections) {
        expect(c.region ?? c.endpoint).toBeTruthy();
        expect(c.driver).toBe(driver);
      }
      if (driver === 's3') expect(body.connections[0]).toMatchObject({ region: 'us-east-1', endpoint: backend.minio!.endpoint });
      expect(body.connections[0]).toMatchObject({ is_default: true, read_only: false });
      expect(body.connections[2]).toMatchObject({ name: 'readonly', read_only: true, is_default: false });
      expect(body.connections[3]).toMatchObject({ display_name: 'Small limits' });
    });

    it('answers ConnectionNotFound on every tool for an unknown connection', async () => {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['objstore_list_buckets', {}],
        ['objstore_list_objects', { bucket: 'alpha' }],
        ['objstore_get_object', { bucket: 'alpha', key: 'k' }],
        ['objstore_get_object_metadata', { bucket: 'alpha', key: 'k' }],
        ['objstore_put_object', { bucket: 'alpha', key: 'k', body: 'x' }],
        ['objstore_delete_object', { bucket: 'alpha', key: 'k' }],
        ['objstore_copy_object', { source_bucket: 'alpha', source_key: 'k', dest_bucket: 'alpha', dest_key: 'k2' }],
        ['objstore_presign_url', { bucket: 'alpha', key: 'k' }],
      ];
      for (const [name, args] of calls) {
        const { body, isError } = await call(name, { ...args, connection: 'nope' });
        expect(isError, name).toBe(true);
        expect(body, name).toEqual({ error: 'ConnectionNotFound', message: 'connection not found: nope', hint: expect.stringContaining('main') });
      }
    });
  });

  describe('objstore_list_buckets', () => {
    it('lists buckets with creation dates; bucket_prefix filters the listing', async () => {
      const { body } = await call('objstore_list_buckets');
      expect(Object.keys(body).sort()).toEqual(['buckets', 'connection', 'count']);
      const names = body.buckets.map((b: { name: string }) => b.name);
      expect(names).toEqual(expect.arrayContaining(['alpha', 'beta', 'team-one', 'paging']));
      expect(body.count).toBe(body.buckets.length);
      for (const b of body.buckets) expect(b.creation_date).toMatch(timestamp);

      const prefixed = await call('objstore_list_buckets', { connection: 'prefixed' });
      expect(prefixed.body).toMatchObject({ connection: 'prefixed', count: 1, buckets: [{ name: 'team-one' }] });
    });

    it('refuses buckets outside bucket_prefix with AccessDenied', async () => {
      const { body, isError } = await call('objstore_list_objects', { bucket: 'alpha', connection: 'prefixed' });
      expect(isError).toBe(true);
      expect(body).toMatchObject({ error: 'AccessDenied', message: expect.stringContaining('bucket_prefix'), hint: expect.any(String) });
      const ok = await call('objstore_list_objects', { bucket: 'team-one', connection: 'prefixed' });
      expect(ok.isError).toBe(false);
    });
  });

  describe('put, get, metadata, delete', () => {
    it('round-trips text with content type, user metadata and every documented field', async () => {
      const put = await call('objstore_put_object', {
        bucket: 'alpha',
        key: 'docs/readme.md',
        body: '# Hello\nwörld ✓\n',
        content_type: 'text/markdown',
        metadata: { Owner: 'ann', 'x-team': 'data', note: 'café ✓ 数据' },
      });
      expect(put.isError).toBe(false);
      expect(Object.keys(put.body).sort()).toEqual(['bucket', 'etag', 'key', 'size', 'version_id']);
      expect(put.body).toMatchObject({ bucket: 'alpha', key: 'docs/readme.md', size: Buffer.byteLength('# Hello\nwörld ✓\n'), version_id: null });
      expect(put.body.etag).toMatch(quotedEtag);

      const got = await call('objstore_get_object', { bucket: 'alpha', key: 'docs/readme.md' });
      expect(Object.keys(got.body).sort()).toEqual(
        ['bucket', 'content', 'content_type', 'etag', 'is_base64', 'key', 'last_modified', 'metadata', 'size', 'truncated'].sort(),
      );
      expect(got.body).toMatchObject({
        bucket: 'alpha',
        key: 'docs/readme.md',
        content_type: 'text/markdown',
        content: '# Hello\nwörld ✓\n',
        is_base64: false,
        truncated: false,
        size: put.body.size,
        etag: put.body.etag,
        metadata: { owner: 'ann', 'x-team': 'data', note: 'café ✓ 数据' },
      });
      expect(got.body.last_modified).toMatch(timestamp);

      const head = await call('objstore_get_object_metadata', { bucket: 'alpha', key: 'docs/readme.md' });
      expect(Object.keys(head.body).sort()).toEqual(
        ['bucket', 'content_length', 'content_type', 'etag', 'key', 'last_modified', 'metadata', 'size'].sort(),
      );
      expect(head.body).toMatchObject({
        content_type: 'text/markdown',
        content_length: put.body.size,
        size: put.body.size,
        etag: put.body.etag,
        last_modified: got.body.last_modified,
        metadata: { owner: 'ann', 'x-team': 'data', note: 'café ✓ 数据' },
      });
      expect(head.body).not.toHaveProperty('content');
    });

    it('returns binary as base64 and text as-is, by content type and by bytes', async () => {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0xff, 0xfe]);
      const cases: Array<{ key: string; body: string; is_base64?: boolean; content_type?: string; expectBase64: boolean; expectContent: string }> = [
        { key: 'bin/image.png', body: png.toString('base64'), is_base64: true, expectBase64: true, expectContent: png.toString('base64') },
        { key: 'bin/nul.txt', body: Buffer.from('a\0b').toString('base64'), is_base64: true, content_type: 'application/octet-stream', expectBase64: true, expectContent: Buffer.from('a\0b').toString('base64') },
        { key: 'bin/latin1', body: Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('base64'), is_base64: true, expectBase64: true, expectContent: 'Y2Fm6Q==' },
        { key: 'text/utf8.bin', body: Buffer.from('plain words').toString('base64'), is_base64: true, content_type: 'application/octet-stream', expectBase64: false, expectContent: 'plain words' },
        { key: 'text/data.json', body: '{"a":1}', expectBase64: false, expectContent: '{"a":1}' },
        { key: 'text/empty', body: '', content_type: 'application/octet-stream', expectBase64: false, expectContent: '' },
      ];
      for (const c of cases) {
        const put = await call('objstore_put_object', {
          bucket: 'alpha',
          key: c.key,
          body: c.body,
          ...(c.is_base64 ? { is_base64: true } : {}),
          ...(c.content_type ? { content_type: c.content_type } : {}),
        });
        expect(put.isError, c.key).toBe(false);
        const got = await call('objstore_get_object', { bucket: 'alpha', key: c.key });
        expect(got.body, c.key).toMatchObject({ is_base64: c.expectBase64, content: c.expectContent, truncated: false });
      }
      // Content types guessed from the key when the caller gives none.
      expect((await call('objstore_get_object_metadata', { bucket: 'alpha', key: 'text/data.json' })).body.content_type).toBe('application/json');
      expect((await call('objstore_get_object_metadata', { bucket: 'alpha', key: 'bin/image.png' })).body.content_type).toBe('image/png');
      expect((await call('objstore_get_object_metadata', { bucket: 'alpha', key: 'bin/latin1' })).body.content_type).toBe('application/octet-stream');
    });

    it('refuses a body that is not base64 when is_base64 is set', async () => {
      const { body, isError } = await call('objstore_put_object', { bucket: 'alpha', key: 'x', body: 'not base64!', is_base64: true });
      expect(isError).toBe(true);
      expect(body.error).toBe('InvalidArgument');
    });

    it('deletes: existed true, then false; the key is gone', async () => {
      await call('objstore_put_object', { bucket: 'alpha', key: 'tmp/gone.txt', body: 'bye' });
      const first = await call('objstore_delete_object', { bucket: 'alpha', key: 'tmp/gone.txt' });
      expect(first.body).toEqual({ bucket: 'alpha', key: 'tmp/gone.txt', deleted: true, existed: true });
      const again = await call('objstore_delete_object', { bucket: 'alpha', key: 'tmp/gone.txt' });
      expect(again.body).toEqual({ bucket: 'alpha', key: 'tmp/gone.txt', deleted: true, existed: false });
      const get = await call('objstore_get_object', { bucket: 'alpha', key: 'tmp/gone.txt' });
      expect(get.body.error).toBe('NoSuchKey');
    });

    // (MinIO cannot list both "a" and "a/b"; the filesystem driver's own test covers that pair.)
    it('keeps odd keys apart: case, dots, trailing slash, spaces, unicode, percent signs', async () => {
      const keys = ['odd/a', 'odd/a.b', 'odd/a-b/c', 'odd/dir/', 'odd/with space', 'odd/ünï ©/%41?#', 'odd/A'];
      for (const key of keys) expect((await call('objstore_put_object', { bucket: 'alpha', key, body: `v:${key}` })).isError, key).toBe(false);
      for (const key of keys) expect((await call('objstore_get_object', { bucket: 'alpha', key })).body.content, key).toBe(`v:${key}`);
      const listed = await call('objstore_list_objects', { bucket: 'alpha', prefix: 'odd/' });
      const expected = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      expect(listed.body.objects.map((o: { key: string }) => o.key)).toEqual(expected);
    });
  });

  describe('error codes', () => {
    it('NoSuchBucket on every bucket tool, NoSuchKey on reads of a missing key', async () => {
      const missing = 'no-such-bucket-here';
      for (const [name, args] of [
        ['objstore_list_objects', { bucket: missing }],
        ['objstore_get_object', { bucket: missing, key: 'k' }],
        ['objstore_get_object_metadata', { bucket: missing, key: 'k' }],
        ['objstore_put_object', { bucket: missing, key: 'k', body: 'x' }],
        ['objstore_delete_object', { bucket: missing, key: 'k' }],
        ['objstore_copy_object', { source_bucket: missing, source_key: 'k', dest_bucket: 'alpha', dest_key: 'k' }],
      ] as const) {
        const { body, isError } = await call(name, args);
        expect(isError, name).toBe(true);
        expect(body, name).toEqual({ error: 'NoSuchBucket', message: `bucket not found: ${missing}`, hint: expect.any(String) });
      }
      await call('objstore_put_object', { bucket: 'alpha', key: 'exists', body: 'x' });
      const copyToMissing = await call('objstore_copy_object', { source_bucket: 'alpha', source_key: 'exists', dest_bucket: missing, dest_key: 'k' });
      expect(copyToMissing.body).toMatchObject({ error: 'NoSuchBucket', message: `bucket not found: ${missing}` });

      for (const name of ['objstore_get_object', 'objstore_get_object_metadata']) {
        const { body } = await call(name, { bucket: 'alpha', key: 'missing/key.txt' });
        expect(body, name).toEqual({ error: 'NoSuchKey', message: 'object not found: alpha/missing/key.txt', hint: expect.any(String) });
      }
      const copy = await call('objstore_copy_object', { source_bucket: 'alpha', source_key: 'missing', dest_bucket: 'alpha', dest_key: 'x' });
      expect(copy.body.error).toBe('NoSuchKey');
    });

    it('InvalidBucketName before any request is made', async () => {
      for (const bucket of ['Bad_Bucket', 'ab', 'a..b', '192.168.1.1', '-dash']) {
        const { body } = await call('objstore_list_objects', { bucket });
        expect(body.error, bucket).toBe('InvalidBucketName');
        expect(body.hint).toMatch(/3-63 characters/);
      }
      expect((await call('objstore_put_object', { bucket: 'UPPER', key: 'k', body: 'x' })).body.error).toBe('InvalidBucketName');
    });

    it('AccessDenied from the store itself (bad credentials) on S3', async () => {
      if (driver !== 's3') return; // the filesystem store has no credentials; bucket_prefix covers it above
      const bad = connectionsFrom(
        objstoreYaml({
          bad: [`endpoint: ${backend.minio!.endpoint}`, 'use_path_style: true', `access_key_id: ${backend.minio!.accessKeyId}`, 'secret_access_key: wrong-secret'],
        }),
      );
      try {
        const { body } = await toolCaller(bad)('objstore_list_objects', { bucket: 'alpha' });
        expect(body).toMatchObject({ error: 'AccessDenied', message: 'access denied to alpha' });
      } finally {
        await bad.close();
      }
    });
  });

  describe('objstore_copy_object', () => {
    it('copies keeping metadata, or replaces it when metadata is given; content type kept', async () => {
      await call('objstore_put_object', { bucket: 'alpha', key: 'src.csv', body: 'a,b\n1,2\n', content_type: 'text/csv', metadata: { source: 'erp', stage: 'raw' } });
      const src = (await call('objstore_get_object_metadata', { bucket: 'alpha', key: 'src.csv' })).body;

      const kept = await call('objstore_copy_object', { source_bucket: 'alpha', source_key: 'src.csv', dest_bucket: 'beta', dest_key: 'copies/kept.csv' });
      expect(Object.keys(kept.body).sort()).toEqual(['dest_bucket', 'dest_key', 'etag', 'last_modified', 'source_bucket', 'source_key', 'version_id']);
      expect(kept.body).toMatchObject({ source_bucket: 'alpha', source_key: 'src.csv', dest_bucket: 'beta', dest_key: 'copies/kept.csv', etag: src.etag, version_id: null });
      expect(kept.body.last_modified).toMatch(timestamp);
      expect((await call('objstore_get_object', { bucket: 'beta', key: 'copies/kept.csv' })).body).toMatchObject({
        content: 'a,b\n1,2\n',
        content_type: 'text/csv',
        metadata: { source: 'erp', stage: 'raw' },
      });

      const replaced = await call('objstore_copy_object', {
        source_bucket: 'alpha',
        source_key: 'src.csv',
        dest_bucket: 'alpha',
        dest_key: 'src-clean.csv',
        metadata: { stage: 'clean ✓' },
      });
      expect(replaced.isError).toBe(false);
      const head = (await call('objstore_get_object_metadata', { bucket: 'alpha', key: 'src-clean.csv' })).body;
      expect(head.metadata).toEqual({ stage: 'clean ✓' });
      expect(head.content_type).toBe('text/csv');
      expect(head.size).toBe(src.size);

      // In place: replace the metadata of the object itself.
      await call('objstore_copy_object', { source_bucket: 'alpha', source_key: 'src.csv', dest_bucket: 'alpha', dest_key: 'src.csv', metadata: {} });
      expect((await call('objstore_get_object_metadata', { bucket: 'alpha', key: 'src.csv' })).body.metadata).toEqual({});
      expect((await call('objstore_get_object', { bucket: 'alpha', key: 'src.csv' })).body.content).toBe('a,b\n1,2\n');
    });
  });

  describe('objstore_list_objects', () => {
    const count = 2_600;
    beforeAll(async () => {
      const keys = Array.from({ length: count }, (_, i) => `many/${String(i).padStart(5, '0')}.txt`);
      await inParallel(keys, 16, (key) => store.putObject('paging', key, key));
      const tree = ['tree/a.txt', 'tree/b/1.txt', 'tree/b/2.txt', 'tree/c/d/e.txt', 'tree/c-x.txt', 'tree/c/f.txt', 'top.txt'];
      for (const key of tree) await store.putObject('paging', key, 'x');
    }, 180_000);

    it('pages through more than 2,500 objects with continuation tokens', async () => {
      const seen: string[] = [];
      const pages: number[] = [];
      let token: string | null = null;
      do {
        const { body, isError }: { body: Record<string, Json>; isError: boolean } = await call('objstore_list_objects', {
          bucket: 'paging',
          prefix: 'many/',
          ...(token ? { continuation_token: token } : {}),
        });
        expect(isError).toBe(false);
        expect(Object.keys(body).sort()).toEqual(['bucket', 'common_prefixes', 'count', 'is_truncated', 'next_continuation_token', 'objects', 'prefix']);
        expect(body.count).toBe(body.objects.length);
        expect(body.is_truncated).toBe(body.next_continuation_token !== null);
        pages.push(body.count);
        seen.push(...body.objects.map((o: { key: string }) => o.key));
        token = body.next_continuation_token;
      } while (token);
      expect(pages).toEqual([1000, 1000, 600]);
      expect(seen).toHaveLength(count);
      expect(new Set(seen).size).toBe(count);
      expect(seen).toEqual([...seen].sort());

      const first = (await call('objstore_list_objects', { bucket: 'paging', prefix: 'many/', max_keys: 3 })).body;
      expect(first.objects).toHaveLength(3);
      for (const o of first.objects) {
        expect(Object.keys(o).sort()).toEqual(['etag', 'key', 'last_modified', 'size', 'storage_class']);
        expect(o).toMatchObject({ size: 14, storage_class: 'STANDARD' });
        expect(o.etag).toMatch(quotedEtag);
        expect(o.last_modified).toMatch(timestamp);
      }
      // Out-of-range max_keys becomes 1000.
      for (const max_keys of [0, -5, 5000]) {
        expect((await call('objstore_list_objects', { bucket: 'paging', prefix: 'many/', max_keys })).body.count).toBe(1000);
      }
    });

    it('groups by delimiter into common_prefixes, in S3 order, across pages', async () => {
      const { body } = await call('objstore_list_objects', { bucket: 'paging', prefix: 'tree/', delimiter: '/' });
      expect(body).toMatchObject({
        bucket: 'paging',
        prefix: 'tree/',
        delimiter: '/',
        objects: [{ key: 'tree/a.txt' }, { key: 'tree/c-x.txt' }],
        common_prefixes: ['tree/b/', 'tree/c/'],
        count: 4,
        is_truncated: false,
        next_continuation_token: null,
      });

      const root = (await call('objstore_list_objects', { bucket: 'paging', delimiter: '/' })).body;
      expect(root.prefix).toBe('');
      expect(root.common_prefixes).toEqual(['many/', 'tree/']);
      expect(root.objects.map((o: { key: string }) => o.key)).toEqual(['top.txt']);

      // One entry per page: objects and prefixes interleave in key order.
      const sequence: string[] = [];
      let token: string | null = null;
      do {
        const page: Record<string, Json> = (
          await call('objstore_list_objects', { bucket: 'paging', prefix: 'tree/', delimiter: '/', max_keys: 1, ...(token ? { continuation_token: token } : {}) })
        ).body;
        sequence.push(...page.objects.map((o: { key: string }) => o.key), ...page.common_prefixes);
        token = page.next_continuation_token;
      } while (token);
      expect(sequence).toEqual(['tree/a.txt', 'tree/b/', 'tree/c-x.txt', 'tree/c/']);

      // A partial segment as prefix, and a deeper delimiter listing.
      const partial = (await call('objstore_list_objects', { bucket: 'paging', prefix: 'tree/c', delimiter: '/' })).body;
      expect(partial.objects.map((o: { key: string }) => o.key)).toEqual(['tree/c-x.txt']);
      expect(partial.common_prefixes).toEqual(['tree/c/']);
      const deep = (await call('objstore_list_objects', { bucket: 'paging', prefix: 'tree/c/', delimiter: '/' })).body;
      expect(deep.objects.map((o: { key: string }) => o.key)).toEqual(['tree/c/f.txt']);
      expect(deep.common_prefixes).toEqual(['tree/c/d/']);
    });

    it('lists without a delimiter in full key order; a non-"/" delimiter works too', async () => {
      const all = (await call('objstore_list_objects', { bucket: 'paging', prefix: 'tree/' })).body;
      expect(all.objects.map((o: { key: string }) => o.key)).toEqual([
        'tree/a.txt',
        'tree/b/1.txt',
        'tree/b/2.txt',
        'tree/c-x.txt',
        'tree/c/d/e.txt',
        'tree/c/f.txt',
      ]);
      expect(all.common_prefixes).toEqual([]);
      const dash = (await call('objstore_list_objects', { bucket: 'paging', prefix: 'tree/', delimiter: '-' })).body;
      expect(dash.common_prefixes).toEqual(['tree/c-']);
      expect(dash.objects).toHaveLength(5);
    });

    it('rejects a made-up continuation token', async () => {
      const { body, isError } = await call('objstore_list_objects', { bucket: 'paging', continuation_token: 'bm90LWEtdG9rZW4' });
      expect(isError).toBe(true);
      expect(body.error).toBe('InvalidArgument');
    });
  });

  describe('objstore_presign_url', () => {
    it('GET URL returns the bytes to plain fetch; fields and defaults', async () => {
      const bytes = randomBytes(3000);
      await store.putObject('alpha', 'share/blob.bin', bytes, { contentType: 'application/octet-stream' });
      const { body } = await call('objstore_presign_url', { bucket: 'alpha', key: 'share/blob.bin' });
      expect(Object.keys(body).sort()).toEqual(['bucket', 'expires_at', 'expires_in_seconds', 'key', 'method', 'url']);
      expect(body).toMatchObject({ bucket: 'alpha', key: 'share/blob.bin', method: 'GET', expires_in_seconds: 3600 });
      expect(body.expires_at).toMatch(timestamp);
      const expiresAt = Date.parse(body.expires_at);
      expect(Math.abs(expiresAt - (Date.now() + 3600_000))).toBeLessThan(5_000);

      const res = await fetch(body.url);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      const ranged = await fetch(body.url, { headers: { range: 'bytes=10-19' } });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    });

    it('clamps expires_in: below 1 → 3600, above seven days → 604800', async () => {
      expect((await call('objstore_presign_url', { bucket: 'alpha', key: 'k', expires_in: 0 })).body.expires_in_seconds).toBe(3600);
      expect((await call('objstore_presign_url', { bucket: 'alpha', key: 'k', expires_in: 10_000_000 })).body.expires_in_seconds).toBe(604_800);
      expect((await call('objstore_presign_url', { bucket: 'alpha', key: 'k', expires_in: 60 })).body.expires_in_seconds).toBe(60);
      const bad = await call('objstore_presign_url', { bucket: 'alpha', key: 'k', method: 'DELETE' });
      expect(bad.isError).toBe(true);
    });

    it('PUT URL stores what plain fetch uploads', async () => {
      const { body } = await call('objstore_presign_url', { bucket: 'alpha', key: 'uploads/new file.txt', method: 'PUT', expires_in: 300 });
      expect(body).toMatchObject({ method: 'PUT', expires_in_seconds: 300 });
      const res = await fetch(body.url, { method: 'PUT', body: 'uploaded by url', headers: { 'content-type': 'text/plain' } });
      expect(res.status).toBe(200);
      expect((await call('objstore_get_object', { bucket: 'alpha', key: 'uploads/new file.txt' })).body).toMatchObject({
        content: 'uploaded by url',
        content_type: 'text/plain',
      });
    });

    it('refuses tampered, wrong-method and expired URLs with 403', async () => {
      await store.putObject('alpha', 'share/secret.txt', 'secret');
      const url = (await call('objstore_presign_url', { bucket: 'alpha', key: 'share/secret.txt' })).body.url as string;
      const tamperedSignature = url.replace(/(Signature=)([^&])/, (_m, p: string, c: string) => `${p}${c === 'A' ? 'B' : 'A'}`);
      expect(tamperedSignature).not.toBe(url);
      const otherKey = url.replace('secret.txt', 'blob.bin');
      const longer = driver === 's3' ? url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=7200') : url.replace(/X-Objstore-Expires=(\d+)/, (_m, n: string) => `X-Objstore-Expires=${Number(n) + 3600}`);
      for (const bad of [tamperedSignature, otherKey, longer]) {
        const res = await fetch(bad);
        expect(res.status, bad).toBe(403);
        await res.arrayBuffer();
      }
      const wrongMethod = await fetch(url, { method: 'PUT', body: 'overwrite' });
      expect(wrongMethod.status).toBe(403);
      await wrongMethod.arrayBuffer();
      expect((await call('objstore_get_object', { bucket: 'alpha', key: 'share/secret.txt' })).body.content).toBe('secret');

      // Signed two hours ago for one hour: expired.
      const past = connectionsFrom(yaml, { clock: () => new Date(Date.now() - 2 * 3600_000), presign: { baseUrl: () => base.url, key: presignKey } });
      try {
        const old = (await toolCaller(past)('objstore_presign_url', { bucket: 'alpha', key: 'share/secret.txt', expires_in: 3600 })).body;
        expect(Date.parse(old.expires_at)).toBeLessThan(Date.now());
        const res = await fetch(old.url);
        expect(res.status).toBe(403);
        await res.arrayBuffer();
        const put = (await toolCaller(past)('objstore_presign_url', { bucket: 'alpha', key: 'share/late.txt', method: 'PUT' })).body;
        const late = await fetch(put.url, { method: 'PUT', body: 'late' });
        expect(late.status).toBe(403);
        await late.arrayBuffer();
      } finally {
        await past.close();
      }
      expect((await call('objstore_get_object', { bucket: 'alpha', key: 'share/late.txt' })).body.error).toBe('NoSuchKey');
    });
  });

  describe('read-only and size limits', () => {
    it('blocks put, delete, copy and presigned PUT on a read_only connection; reads still work', async () => {
      await store.putObject('alpha', 'ro/file.txt', 'keep me');
      const blocked: Array<[string, Record<string, unknown>]> = [
        ['objstore_put_object', { bucket: 'alpha', key: 'ro/new.txt', body: 'x' }],
        ['objstore_delete_object', { bucket: 'alpha', key: 'ro/file.txt' }],
        ['objstore_copy_object', { source_bucket: 'alpha', source_key: 'ro/file.txt', dest_bucket: 'alpha', dest_key: 'ro/copy.txt' }],
        ['objstore_presign_url', { bucket: 'alpha', key: 'ro/new.txt', method: 'PUT' }],
      ];
      for (const [name, args] of blocked) {
        const { body, isError } = await call(name, { ...args, connection: 'readonly' });
        expect(isError, name).toBe(true);
        expect(body, name).toEqual({ error: 'ReadOnlyMode', message: 'connection readonly is read-only; writes are blocked', hint: expect.any(String) });
      }
      expect((await call('objstore_get_object', { bucket: 'alpha', key: 'ro/file.txt', connection: 'readonly' })).body.content).toBe('keep me');
      expect((await call('objstore_presign_url', { bucket: 'alpha', key: 'ro/file.txt', connection: 'readonly' })).isError).toBe(false);
    });

    it('config max_get_size cuts the read (truncated); max_put_size refuses larger writes', async () => {
      const text = 'abcdefghijklmnopqrstuvwxyz0123456789ABCD'; // 40 bytes
      await store.putObject('alpha', 'limits/forty.txt', text, { contentType: 'text/plain' });
      const got = (await call('objstore_get_object', { bucket: 'alpha', key: 'limits/forty.txt', connection: 'small' })).body;
      expect(got).toMatchObject({ content: text.slice(0, 16), size: 40, truncated: true, is_base64: false });
      // A cut inside a multi-byte character ends at the last whole character.
      await store.putObject('alpha', 'limits/utf8.txt', 'ééééééééééé', { contentType: 'text/plain' }); // 22 bytes
      const cut = (await call('objstore_get_object', { bucket: 'alpha', key: 'limits/utf8.txt', connection: 'small' })).body;
      expect(cut).toMatchObject({ content: 'éééééééé', truncated: true, is_base64: false });
      // Empty objects read fine under a cap.
      await store.putObject('alpha', 'limits/empty', '');
      expect((await call('objstore_get_object', { bucket: 'alpha', key: 'limits/empty', connection: 'small' })).body).toMatchObject({ content: '', size: 0, truncated: false });

      const ok = await call('objstore_put_object', { bucket: 'alpha', key: 'limits/ok', body: 'x'.repeat(32), connection: 'small' });
      expect(ok.isError).toBe(false);
      const big = await call('objstore_put_object', { bucket: 'alpha', key: 'limits/big', body: 'x'.repeat(33), connection: 'small' });
      expect(big.body).toEqual({ error: 'EntityTooLarge', message: 'size limit exceeded: object size 33 bytes exceeds limit of 32 bytes', hint: expect.any(String) });
      expect((await call('objstore_get_object', { bucket: 'alpha', key: 'limits/big' })).body.error).toBe('NoSuchKey');
    });

    it('MCP_OBJSTORE_EXT_READONLY, MCP_OBJSTORE_MAX_GET_SIZE and MCP_OBJSTORE_MAX_PUT_SIZE from the environment', async () => {
      await store.putObject('alpha', 'env/forty.txt', 'x'.repeat(40));
      const env = connectionsFrom(yaml, { env: { MCP_OBJSTORE_EXT_READONLY: 'true' } });
      const limited = connectionsFrom(yaml, { env: { MCP_OBJSTORE_MAX_GET_SIZE: '39', MCP_OBJSTORE_MAX_PUT_SIZE: '8' } });
      try {
        const ro = toolCaller(env);
        expect((await ro('objstore_put_object', { bucket: 'alpha', key: 'env/x', body: 'x' })).body.error).toBe('ReadOnlyMode');
        expect((await ro('objstore_delete_object', { bucket: 'alpha', key: 'env/forty.txt' })).body.error).toBe('ReadOnlyMode');
        expect((await ro('objstore_copy_object', { source_bucket: 'alpha', source_key: 'env/forty.txt', dest_bucket: 'alpha', dest_key: 'env/c' })).body.error).toBe('ReadOnlyMode');
        expect((await ro('objstore_list_connections')).body.connections.every((c: { read_only: boolean }) => c.read_only)).toBe(true);
        expect((await ro('objstore_get_object', { bucket: 'alpha', key: 'env/forty.txt' })).body.size).toBe(40);

        const lim = toolCaller(limited);
        expect((await lim('objstore_get_object', { bucket: 'alpha', key: 'env/forty.txt' })).body).toEqual({
          error: 'EntityTooLarge',
          message: 'size limit exceeded: object size 40 bytes exceeds limit of 39 bytes',
          hint: expect.any(String),
        });
        expect((await lim('objstore_put_object', { bucket: 'alpha', key: 'env/nine', body: '123456789' })).body.error).toBe('EntityTooLarge');
        expect((await lim('objstore_put_object', { bucket: 'alpha', key: 'env/eight', body: '12345678' })).isError).toBe(false);
      } finally {
        await env.close();
        await limited.close();
      }
      // A presigned PUT above the limit is refused too (the filesystem route enforces it; S3 cannot).
      if (driver === 'filesystem') {
        const url = (await call('objstore_presign_url', { bucket: 'alpha', key: 'limits/url-big', method: 'PUT', connection: 'small' })).body.url as string;
        const res = await fetch(url, { method: 'PUT', body: 'y'.repeat(33) });
        expect(res.status).toBe(413);
        expect(await res.json()).toMatchObject({ error: 'EntityTooLarge' });
      }
    });
  });
}

describe.each(['s3', 'filesystem'] as const)('object-store contract: %s driver', (driver) => {
  contractSuite(driver);
});
