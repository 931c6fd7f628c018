/**
 * The storage API other domains use (resources, webhooks, exports), against both drivers (MinIO
 * through the S3 driver, and the filesystem driver): streamed and multipart-sized puts with their
 * digests, ranged and conditional reads and writes, buckets, listing after a key, copies.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { S3ObjectStore, ensurePlatformBucket, readAll } from '../../shared/objstore/index.js';
import { expectCode, quotedEtag, useObjstore } from './objstore-fixtures.js';

describe.each(['s3', 'filesystem'] as const)('object-store storage API: %s driver', (driver) => {
  const rig = useObjstore(driver, (backend) => ({ main: backend.instance(), prefixed: backend.instance(['bucket_prefix: team-']) }));
  beforeAll(() => rig.store.createBucket('beta'));

  describe('storage API', () => {
    it('streams a put with SHA-256 and size; ranged and conditional reads', async () => {
      const chunks = Array.from({ length: 5 }, (_, i) => Buffer.alloc(100_000, i + 1));
      const all = Buffer.concat(chunks);
      const put = await rig.store.putObject('beta', 'api/stream.bin', Readable.from(chunks), { contentType: 'application/x-test', metadata: { Kind: 'test' } });
      expect(put).toMatchObject({ size: all.length, sha256: createHash('sha256').update(all).digest('hex') });
      expect(put.etag).toMatch(quotedEtag);

      const head = await rig.store.headObject('beta', 'api/stream.bin');
      expect(head).toMatchObject({ bucket: 'beta', key: 'api/stream.bin', size: all.length, etag: put.etag, contentType: 'application/x-test', metadata: { kind: 'test' } });

      const mid = await rig.store.getObject('beta', 'api/stream.bin', { range: { start: 99_990, end: 100_009 } });
      expect(mid.range).toEqual({ start: 99_990, end: 100_009 });
      expect(mid.contentLength).toBe(20);
      expect(mid.head.size).toBe(all.length);
      expect((await readAll(mid.body)).bytes.equals(all.subarray(99_990, 100_010))).toBe(true);
      const tail = await rig.store.getObject('beta', 'api/stream.bin', { range: { start: all.length - 5 } });
      expect((await readAll(tail.body)).bytes.equals(all.subarray(all.length - 5))).toBe(true);
      await expectCode(rig.store.getObject('beta', 'api/stream.bin', { range: { start: all.length } }), 'InvalidRange');

      await expectCode(rig.store.getObject('beta', 'api/stream.bin', { ifMatch: '"0123456789abcdef0123456789abcdef"' }), 'PreconditionFailed');
      const matched = await rig.store.getObject('beta', 'api/stream.bin', { ifMatch: put.etag, range: { start: 0, end: 0 } });
      matched.body.destroy();
      await expectCode(rig.store.headObject('beta', 'api/stream.bin', { ifNoneMatch: put.etag }), 'NotModified');
      await expectCode(rig.store.getObject('beta', 'api/stream.bin', { ifNoneMatch: put.etag }), 'NotModified');
    });

    it('multipart-sized streamed puts, and a size ceiling that stores nothing', async () => {
      const part = Buffer.alloc(1024 * 1024, 7);
      const twenty = () => Readable.from(Array.from({ length: 20 }, () => part));
      const put = await rig.store.putObject('beta', 'api/twenty.bin', twenty());
      expect(put.size).toBe(20 * part.length);
      const hash = createHash('sha256');
      for (let i = 0; i < 20; i++) hash.update(part);
      expect(put.sha256).toBe(hash.digest('hex'));
      expect((await rig.store.headObject('beta', 'api/twenty.bin')).size).toBe(20 * part.length);

      await expectCode(rig.store.putObject('beta', 'api/too-big.bin', twenty(), { maxBytes: 12 * part.length }), 'EntityTooLarge');
      await expectCode(rig.store.headObject('beta', 'api/too-big.bin'), 'NoSuchKey');
      if (rig.store instanceof S3ObjectStore) {
        const uploads = await rig.store.client.send(new ListMultipartUploadsCommand({ Bucket: 'beta' }));
        expect(uploads.Uploads ?? []).toEqual([]);
      }
    });

    it('conditional writes: if-none-match * creates once; if-match needs the current ETag', async () => {
      const first = await rig.store.putObject('beta', 'api/once', 'one', { ifNoneMatch: '*' });
      await expectCode(rig.store.putObject('beta', 'api/once', 'two', { ifNoneMatch: '*' }), 'PreconditionFailed');
      await expectCode(rig.store.putObject('beta', 'api/once', 'two', { ifMatch: '"00000000000000000000000000000000"' }), 'PreconditionFailed');
      const second = await rig.store.putObject('beta', 'api/once', 'two', { ifMatch: first.etag });
      expect(second.etag).not.toBe(first.etag);
      expect((await readAll((await rig.store.getObject('beta', 'api/once')).body)).bytes.toString()).toBe('two');
      await expectCode(rig.store.putObject('beta', 'api/never-there', 'x', { ifMatch: first.etag }), 'NoSuchKey');

      // Concurrent creators: exactly one wins.
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => rig.store.putObject('beta', 'api/race', `w${i}`, { ifNoneMatch: '*' })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });

    it('buckets: create, exists, ensure (idempotent, concurrent), delete only when empty', async () => {
      await rig.store.createBucket('scratch-bucket');
      await expectCode(rig.store.createBucket('scratch-bucket'), 'BucketAlreadyExists');
      expect(await rig.store.bucketExists('scratch-bucket')).toBe(true);
      expect(await rig.store.bucketExists('never-made-bucket')).toBe(false);
      await Promise.all([rig.store.ensureBucket('ensured-bucket'), rig.store.ensureBucket('ensured-bucket'), rig.store.ensureBucket('ensured-bucket')]);
      expect(await rig.store.bucketExists('ensured-bucket')).toBe(true);
      await rig.store.putObject('scratch-bucket', 'a/b', 'x');
      await expectCode(rig.store.deleteBucket('scratch-bucket'), 'BucketNotEmpty');
      await rig.store.deleteObject('scratch-bucket', 'a/b');
      await rig.store.deleteBucket('scratch-bucket');
      expect(await rig.store.bucketExists('scratch-bucket')).toBe(false);

      const main = rig.connections.get('main');
      expect(await ensurePlatformBucket(main, 'resources')).toBe('resources');
      expect(await rig.store.bucketExists('resources')).toBe(true);
      expect(await ensurePlatformBucket(rig.connections.get('prefixed'), 'webhooks')).toBe('team-webhooks');
    });

    it('startAfter and copy with a content type change', async () => {
      for (const k of ['sa/1', 'sa/2', 'sa/3']) await rig.store.putObject('beta', k, k);
      const page = await rig.store.listObjects('beta', { prefix: 'sa/', startAfter: 'sa/1' });
      expect(page.objects.map((o) => o.key)).toEqual(['sa/2', 'sa/3']);
      await rig.store.copyObject({ bucket: 'beta', key: 'sa/1' }, { bucket: 'beta', key: 'sa/1.json' }, { contentType: 'application/json' });
      expect((await rig.store.headObject('beta', 'sa/1.json')).contentType).toBe('application/json');
    });
  });
});
