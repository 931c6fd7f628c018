/**
 * What only the filesystem driver has to prove: its on-disk layout, crash leftovers, atomic
 * replacement under concurrent readers, and the api route that serves its presigned URLs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import {
  FilesystemObjectStore,
  ObjstoreError,
  createObjstoreConnections,
  embeddedObjstoreInstance,
  readAll,
  type ObjstoreConnections,
} from '../../shared/objstore/index.js';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { objstoreRoutes } from '../../api/objstore/routes.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'objstore-fs-unit-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function text(store: FilesystemObjectStore, bucket: string, key: string): Promise<string> {
  return (await readAll((await store.getObject(bucket, key)).body)).bytes.toString();
}

async function keys(store: FilesystemObjectStore, bucket: string, prefix = ''): Promise<string[]> {
  return (await store.listObjects(bucket, { prefix })).objects.map((o) => o.key);
}

/** Every file below dir, relative. */
async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(join(e.parentPath, e.name).slice(dir.length + 1));
  }
  return out.sort();
}

describe('filesystem layout', () => {
  it('holds an object "a" and a key "a/b" side by side; deleting prunes empty folders', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await store.putObject('bkt', 'a', 'A');
    await store.putObject('bkt', 'a/b', 'AB');
    await store.putObject('bkt', 'a/b/c', 'ABC');
    expect(await keys(store, 'bkt')).toEqual(['a', 'a/b', 'a/b/c']);
    expect(await text(store, 'bkt', 'a')).toBe('A');
    expect(await text(store, 'bkt', 'a/b')).toBe('AB');
    const delimited = await store.listObjects('bkt', { delimiter: '/' });
    expect(delimited.objects.map((o) => o.key)).toEqual(['a']);
    expect(delimited.commonPrefixes).toEqual(['a/']);

    await store.deleteObject('bkt', 'a/b/c');
    await store.deleteObject('bkt', 'a/b');
    expect(await readdir(join(root, 'bkt'))).toEqual(expect.arrayContaining(['m_a.json']));
    expect(await readdir(join(root, 'bkt'))).not.toContain('d_a');
    expect(await keys(store, 'bkt')).toEqual(['a']);
  });

  it('stores bytes, a JSON sidecar, and nothing else once a put is done', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await store.putObject('bkt', 'Dir/File.CSV', 'x,y\n', { contentType: 'text/csv', metadata: { Who: 'me' } });
    await store.putObject('bkt', 'Dir/File.CSV', 'x,y\n1,2\n', { contentType: 'text/csv' });
    const all = await files(join(root, 'bkt'));
    expect(all.filter((f) => f.includes('m_'))).toEqual(['d_%44ir/m_%46ile%2E%43%53%56.json']);
    expect(all.filter((f) => f.includes('o_'))).toHaveLength(1); // the replaced version is gone
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('refuses a path segment too long for a file name', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await expect(store.putObject('bkt', `x/${'Y'.repeat(100)}`, 'x')).rejects.toMatchObject({ code: 'KeyTooLong' });
    await expect(store.putObject('bkt', `x/${'y'.repeat(200)}`, 'x')).resolves.toMatchObject({ size: 1 });
  });
});

describe('crash safety', () => {
  it('clears stale temp files at start and ignores unreferenced leftovers', async () => {
    await mkdir(join(root, '.tmp'), { recursive: true });
    await mkdir(join(root, 'bkt', 'd_left'), { recursive: true });
    await writeFile(join(root, '.tmp', 'old'), 'half an upload');
    await writeFile(join(root, '.tmp', 'recent'), 'upload in progress elsewhere');
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(join(root, '.tmp', 'old'), old, old);
    // A data file whose sidecar was never written (crash between the two renames).
    await writeFile(join(root, 'bkt', 'o_ghost.0123456789abcdef'), 'orphan');
    const store = new FilesystemObjectStore({ root });
    expect(await store.listBuckets()).toMatchObject([{ name: 'bkt' }]);
    expect(await readdir(join(root, '.tmp'))).toEqual(['recent']);
    const page = await store.listObjects('bkt', { delimiter: '/' });
    // Neither the orphan nor the empty leftover folder shows.
    expect(page).toEqual({ objects: [], commonPrefixes: [], isTruncated: false });
    await expect(store.headObject('bkt', 'ghost')).rejects.toMatchObject({ code: 'NoSuchKey' });
  });

  it('a refused or failed upload leaves no trace', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await store.putObject('bkt', 'k', 'original');
    await expect(store.putObject('bkt', 'k', 'x'.repeat(100), { maxBytes: 10 })).rejects.toMatchObject({ code: 'EntityTooLarge' });
    await expect(store.putObject('bkt', 'k', 'new', { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'PreconditionFailed' });
    expect(await text(store, 'bkt', 'k')).toBe('original');
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    expect((await files(join(root, 'bkt'))).filter((f) => f.startsWith('o_'))).toHaveLength(1);
  });
});

describe('bodies in memory', () => {
  it('bytes, a string and a stream of the same content store the same object: size, ETag, SHA-256 and bytes', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    const bytes = randomBytes(70_000);
    const fromBytes = await store.putObject('bkt', 'bytes', bytes);
    const fromStream = await store.putObject('bkt', 'stream', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(fromBytes).toEqual(fromStream);
    expect(fromBytes).toEqual({ size: bytes.length, etag: `"${createHash('md5').update(bytes).digest('hex')}"`, sha256: createHash('sha256').update(bytes).digest('hex') });
    // A view into a larger buffer is stored as the view, not the buffer under it.
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset + 10, 20);
    expect(await store.putObject('bkt', 'view', view)).toMatchObject({ size: 20 });
    expect((await readAll((await store.getObject('bkt', 'view')).body)).bytes).toEqual(Buffer.from(view));
    expect(await store.putObject('bkt', 'text', 'é')).toMatchObject({ size: 2 });
    expect(await text(store, 'bkt', 'text')).toBe('é');
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('a put already aborted, or to a bucket that does not exist, stores nothing and leaves no temp file', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await store.putObject('bkt', 'k', 'original');
    await expect(store.putObject('bkt', 'k', Buffer.from('new'), { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ServiceUnavailable' });
    // Whatever the reason given, as the stream path answers.
    await expect(store.putObject('bkt', 'k', 'new', { signal: AbortSignal.abort(new Error('shutting down')) })).rejects.toMatchObject({ code: 'ServiceUnavailable' });
    await expect(store.putObject('none', 'k', Buffer.from('new'))).rejects.toMatchObject({ code: 'NoSuchBucket' });
    expect(await text(store, 'bkt', 'k')).toBe('original');
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('overwrites and conditional writes of bytes keep one data file per object', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    const first = await store.putObject('bkt', 'k', Buffer.from('one'));
    await store.putObject('bkt', 'k', Buffer.from('two'), { ifMatch: first.etag });
    await expect(store.putObject('bkt', 'k', Buffer.from('three'), { ifMatch: first.etag })).rejects.toMatchObject({ code: 'PreconditionFailed' });
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.putObject('bkt', 'k', Buffer.from(`v${i}`))));
    expect((await files(join(root, 'bkt'))).filter((f) => f.startsWith('o_'))).toHaveLength(1);
    expect(await text(store, 'bkt', 'k')).toMatch(/^v\d$/);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('create-only writes of bytes (if-none-match *): new keys in new and existing folders; an existing key is refused and left as it was, even by racing stores on one root', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    const created = await store.putObject('bkt', 'raw/dt=1/a.gz', Buffer.from('a'), { ifNoneMatch: '*' });
    await store.putObject('bkt', 'raw/dt=1/b.gz', Buffer.from('b'), { ifNoneMatch: '*' });
    expect(await keys(store, 'bkt')).toEqual(['raw/dt=1/a.gz', 'raw/dt=1/b.gz']);
    await expect(store.putObject('bkt', 'raw/dt=1/a.gz', Buffer.from('again'), { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'PreconditionFailed' });
    expect(await store.headObject('bkt', 'raw/dt=1/a.gz')).toMatchObject({ etag: created.etag, size: 1 });
    expect(await text(store, 'bkt', 'raw/dt=1/a.gz')).toBe('a');
    // Two stores on one root share no in-process lock (two replicas): the link decides alone.
    const other = new FilesystemObjectStore({ root });
    const race = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? store : other).putObject('bkt', 'raw/dt=2/c.gz', Buffer.from(`c${i}`), { ifNoneMatch: '*' })),
    );
    const won = race.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(race.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(7).fill('PreconditionFailed'));
    expect(await text(store, 'bkt', 'raw/dt=2/c.gz')).toMatch(/^c\d$/);
    // One data file and one sidecar per object; nothing left in the temp directory.
    const stored = await files(join(root, 'bkt'));
    expect(stored.filter((f) => /(^|\/)o_/.test(f))).toHaveLength(3);
    expect(stored.filter((f) => /(^|\/)m_/.test(f))).toHaveLength(3);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    // A bucket that does not exist is not made by a create-only write.
    await expect(store.putObject('gone', 'raw/x.gz', Buffer.from('x'), { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'NoSuchBucket' });
    expect(await readdir(root)).not.toContain('gone');
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });
});

describe('atomic replacement', () => {
  it('readers see whole versions (bytes match their ETag) while writers replace the object', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await store.putObject('bkt', 'hot', randomBytes(50_000));
    const writers = Array.from({ length: 20 }, () => store.putObject('bkt', 'hot', randomBytes(50_000 + Math.floor(Math.random() * 1000))));
    const readers = Array.from({ length: 40 }, async () => {
      const res = await store.getObject('bkt', 'hot');
      const { bytes } = await readAll(res.body);
      expect(bytes.length).toBe(res.head.size);
      expect(`"${createHash('md5').update(bytes).digest('hex')}"`).toBe(res.head.etag);
    });
    await Promise.all([...writers, ...readers]);
    expect((await files(join(root, 'bkt'))).filter((f) => f.startsWith('o_'))).toHaveLength(1);
  });

  it('an open read keeps its version when the object is replaced or deleted', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await store.putObject('bkt', 'k', 'version one');
    const reading = await store.getObject('bkt', 'k');
    await store.putObject('bkt', 'k', 'version two');
    await store.deleteObject('bkt', 'k');
    expect((await readAll(reading.body)).bytes.toString()).toBe('version one');
  });
});

describe('presign without the api', () => {
  it('fails with a clear error when no base URL and key were given', async () => {
    const store = new FilesystemObjectStore({ root });
    await store.createBucket('bkt');
    await expect(store.presign('bkt', 'k', { method: 'GET', expiresIn: 60 })).rejects.toSatisfy(
      (e: unknown) => e instanceof ObjstoreError && /public base URL/.test(e.message),
    );
  });
});

describe('the /objstore presigned-URL route', () => {
  const key = randomBytes(32);
  let app: App;
  let connections: ObjstoreConnections;

  function build(env: Record<string, string> = {}): ObjstoreConnections {
    const { config } = parseConfig(
      `toolkits:\n  objstore:\n    local:\n      driver: filesystem\n      root: ${JSON.stringify(root)}\n      max_put_size: 1000\n` +
        `    remote:\n      endpoint: http://127.0.0.1:9\n`,
      {},
    );
    return createObjstoreConnections(config, { env, presign: { baseUrl: 'http://platform.test', key }, seedBuckets: { local: ['default'] } });
  }

  beforeEach(async () => {
    connections = build();
    app = await buildHttpApp({
      log: silentLogger(),
      metrics: createMetrics({ defaultMetrics: false }),
      readiness: new Readiness(),
      bodyLimit: 100,
      version: 't',
      serveMetrics: false,
    });
    await app.register(objstoreRoutes, { connections: connections.tools });
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
    await connections.close();
  });

  const path = (url: string) => url.slice('http://platform.test'.length);

  it('creates the seed bucket on first use and serves GET, HEAD and ranges with S3-like headers', async () => {
    const store = connections.get('local').store;
    const put = await connections.get('local').store.presign('default', 'docs/a.txt', { method: 'PUT', expiresIn: 60 });
    // Bodies above server.body_limit (100 bytes here) stream through; metadata headers are kept.
    const up = await app.inject({ method: 'PUT', url: path(put.url), payload: 'z'.repeat(500), headers: { 'content-type': 'text/plain', 'x-amz-meta-owner': 'ann' } });
    expect(up.statusCode).toBe(200);
    expect(up.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await store.headObject('default', 'docs/a.txt')).toMatchObject({ size: 500, contentType: 'text/plain', metadata: { owner: 'ann' } });

    const get = await store.presign('default', 'docs/a.txt', { method: 'GET', expiresIn: 60 });
    const full = await app.inject({ method: 'GET', url: path(get.url) });
    expect(full.statusCode).toBe(200);
    expect(full.headers).toMatchObject({ 'content-type': 'text/plain', 'content-length': '500', 'x-amz-meta-owner': 'ann', 'accept-ranges': 'bytes' });
    expect(full.body).toBe('z'.repeat(500));
    const head = await app.inject({ method: 'HEAD', url: path(get.url) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('500');
    expect(head.body).toBe('');
    const suffix = await app.inject({ method: 'GET', url: path(get.url), headers: { range: 'bytes=-5' } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe('bytes 495-499/500');
    const beyond = await app.inject({ method: 'GET', url: path(get.url), headers: { range: 'bytes=900-' } });
    expect(beyond.statusCode).toBe(416);
  });

  it('answers 403 for malformed, unsigned, unknown-connection and non-filesystem URLs; 404 for missing objects', async () => {
    const store = connections.get('local').store;
    const get = await store.presign('default', 'missing.txt', { method: 'GET', expiresIn: 60 });
    expect((await app.inject({ method: 'GET', url: path(get.url) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: path(get.url) })).json()).toMatchObject({ error: 'NoSuchKey' });
    for (const url of [
      '/objstore/local',
      '/objstore/local/default/missing.txt',
      path(get.url).replace('/local/', '/nope/'),
      path(get.url).replace('/local/', '/remote/'),
      path(get.url).replace('X-Objstore-Method=GET', 'X-Objstore-Method=PUT'),
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({ error: 'AccessDenied' });
    }
  });

  it('refuses uploads when the connection became read-only, and above max_put_size', async () => {
    const put = await connections.get('local').store.presign('default', 'x.bin', { method: 'PUT', expiresIn: 60 });
    const readOnly = build({ MCP_OBJSTORE_EXT_READONLY: 'true' });
    const roApp = await buildHttpApp({ log: silentLogger(), metrics: createMetrics({ defaultMetrics: false }), readiness: new Readiness(), bodyLimit: 100, version: 't', serveMetrics: false });
    await roApp.register(objstoreRoutes, { connections: readOnly.tools });
    try {
      const res = await roApp.inject({ method: 'PUT', url: path(put.url), payload: 'x' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ReadOnlyMode' });
    } finally {
      await roApp.close();
      await readOnly.close();
    }
    const big = await app.inject({ method: 'PUT', url: path(put.url), payload: 'x'.repeat(1001) });
    expect(big.statusCode).toBe(413);
    await expect(connections.get('local').store.headObject('default', 'x.bin')).rejects.toMatchObject({ code: 'NoSuchKey' });
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/objstore/'))).toBe(true);
  });
});

describe('embedded default', () => {
  it('gives `platform dev` a working store with bucket "default" on first use', async () => {
    const embedded = embeddedObjstoreInstance(root);
    const { config } = parseConfig('', {});
    config.toolkits.objstore[embedded.name] = embedded.instance;
    const conns = createObjstoreConnections(config, { env: {}, seedBuckets: embedded.seedBuckets });
    const local = conns.get();
    expect(local.name).toBe('local');
    await local.ready();
    expect((await local.store.listBuckets()).map((b) => b.name)).toEqual(['default']);
    await local.store.putObject('default', 'hello.txt', 'hi');
    expect(await readdir(join(root, 'objstore'))).toEqual(expect.arrayContaining(['default']));
  });
});
