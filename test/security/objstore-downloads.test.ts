/**
 * Issue 9, item 3, for object storage: downloads cannot run script on our origin. Presigned GETs
 * of the filesystem driver (served by the api) carry nosniff, a sandboxing CSP and an attachment
 * disposition unless the type is safe inline; a 416 names the size; and content types and
 * metadata values with control characters are refused at write time on every write path
 * (objstore_put_object, objstore_copy_object, presigned PUT) on both drivers, with nothing stored.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjstoreConnections } from '../../shared/objstore/index.js';
import {
  connectionsFrom,
  objstoreYaml,
  presignKey,
  startBackend,
  startPresignServer,
  toolCaller,
  type Backend,
  type Driver,
  type PresignServer,
} from '../integration/objstore-fixtures.js';

/** One raw HTTP request (so header bytes go out exactly as given). */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Strings a header must not carry: C0 (NUL, TAB, CR, LF, ESC), DEL, C1. */
const controls = ['\0', '\t', '\r\n', '\x1b', '\x7f', '\u0085', '\u009b'];

function writePathsSuite(driver: Driver): void {
  let backend: Backend;
  let connections: ObjstoreConnections;
  let call: ReturnType<typeof toolCaller>;

  beforeAll(async () => {
    backend = await startBackend(driver);
    connections = connectionsFrom(objstoreYaml({ main: backend.instance() }), { presign: { baseUrl: 'http://unused.test', key: presignKey } });
    call = toolCaller(connections);
    await connections.get('main').store.createBucket('files');
    await connections.get('main').store.putObject('files', 'source.txt', 'source');
  });

  afterAll(async () => {
    await connections?.close();
    await backend?.stop();
  });

  it('objstore_put_object refuses a content_type with a control character (InvalidArgument) and stores nothing', async () => {
    for (const c of controls) {
      const answer = await call('objstore_put_object', { bucket: 'files', key: 'typed.html', body: '<b>x</b>', content_type: `text/html${c}x` });
      expect(answer.body, JSON.stringify(c)).toMatchObject({ error: 'InvalidArgument', message: expect.stringContaining('content_type') });
    }
    await expect(connections.get('main').store.headObject('files', 'typed.html')).rejects.toMatchObject({ code: 'NoSuchKey' });
  });

  it('objstore_put_object refuses metadata values with a control character and stores nothing', async () => {
    for (const c of controls) {
      const answer = await call('objstore_put_object', { bucket: 'files', key: 'meta.txt', body: 'x', metadata: { note: `a${c}b` } });
      expect(answer.body, JSON.stringify(c)).toMatchObject({ error: 'InvalidArgument', message: expect.stringContaining('control characters') });
    }
    await expect(connections.get('main').store.headObject('files', 'meta.txt')).rejects.toMatchObject({ code: 'NoSuchKey' });
    const fine = await call('objstore_put_object', { bucket: 'files', key: 'meta.txt', body: 'x', metadata: { note: 'café ✓' } });
    expect(fine.isError).toBe(false);
  });

  it('objstore_copy_object refuses metadata values with a control character and writes no copy', async () => {
    for (const c of controls) {
      const answer = await call('objstore_copy_object', {
        source_bucket: 'files',
        source_key: 'source.txt',
        dest_bucket: 'files',
        dest_key: 'copy.txt',
        metadata: { note: `a${c}b` },
      });
      expect(answer.body, JSON.stringify(c)).toMatchObject({ error: 'InvalidArgument' });
    }
    await expect(connections.get('main').store.headObject('files', 'copy.txt')).rejects.toMatchObject({ code: 'NoSuchKey' });
  });
}

describe('issue 9 item 3: control characters refused on the tools\' write paths — MinIO (S3 driver)', () => writePathsSuite('s3'));
describe('issue 9 item 3: control characters refused on the tools\' write paths — filesystem driver', () => writePathsSuite('filesystem'));

describe('issue 9 item 3: presigned downloads and uploads on the platform\'s origin (filesystem driver)', () => {
  let backend: Backend;
  let server: PresignServer;
  let connections: ObjstoreConnections;
  let call: ReturnType<typeof toolCaller>;
  const base = { url: '' };

  beforeAll(async () => {
    backend = await startBackend('filesystem');
    connections = connectionsFrom(objstoreYaml({ main: backend.instance() }), { presign: { baseUrl: () => base.url, key: presignKey } });
    server = await startPresignServer(connections);
    base.url = server.url;
    call = toolCaller(connections);
    await connections.get('main').store.createBucket('files');
  });

  afterAll(async () => {
    await server?.close();
    await connections?.close();
    await backend?.stop();
  });

  async function presign(key: string, method: 'GET' | 'PUT' = 'GET'): Promise<string> {
    const answer = await call('objstore_presign_url', { bucket: 'files', key, method });
    expect(answer.isError).toBe(false);
    return answer.body.url as string;
  }

  it('GET and HEAD carry nosniff and the sandbox CSP; only images (not SVG), PDF and plain text show inline', async () => {
    const cases: Array<[string, string, 'attachment' | 'inline']> = [
      ['page.html', 'text/html; charset=utf-8', 'attachment'],
      ['logo.svg', 'image/svg+xml', 'attachment'],
      ['app.js', 'application/javascript', 'attachment'],
      ['data.json', 'application/json', 'attachment'],
      ['feed.xml', 'application/xml', 'attachment'],
      ['photo.png', 'image/png', 'inline'],
      ['photo.jpg', 'image/jpeg', 'inline'],
      ['report.pdf', 'application/pdf', 'inline'],
      ['notes.txt', 'text/plain; charset=utf-8', 'inline'],
    ];
    for (const [key, type, disposition] of cases) {
      await call('objstore_put_object', { bucket: 'files', key: `docs/${key}`, body: '<script>alert(1)</script>', content_type: type });
      const url = await presign(`docs/${key}`);
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(url, { method });
        expect(res.status, `${method} ${key}`).toBe(200);
        expect(res.headers.get('x-content-type-options'), key).toBe('nosniff');
        expect(res.headers.get('content-security-policy'), key).toBe("default-src 'none'; sandbox");
        expect(res.headers.get('content-disposition'), key).toBe(`${disposition}; filename="${key}"; filename*=UTF-8''${key}`);
        expect(res.headers.get('content-type'), key).toBe(type);
        await res.arrayBuffer();
      }
    }
  });

  it('ranges: 206 carries the headers too; 416 carries Content-Range: bytes */<size>', async () => {
    await call('objstore_put_object', { bucket: 'files', key: 'ten.bin', body: '0123456789', content_type: 'application/octet-stream' });
    const url = await presign('ten.bin');
    const partial = await fetch(url, { headers: { range: 'bytes=2-4' } });
    expect(partial.status).toBe(206);
    expect(await partial.text()).toBe('234');
    expect(partial.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(partial.headers.get('x-content-type-options')).toBe('nosniff');
    for (const range of ['bytes=10-', 'bytes=50-60', 'bytes=-0']) {
      const res = await fetch(url, { headers: { range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range'), range).toBe('bytes */10');
      await res.arrayBuffer();
    }
  });

  it('a content type stored before the write-time check is served as bytes, never verbatim', async () => {
    await call('objstore_put_object', { bucket: 'files', key: 'legacy.html', body: '<script>alert(1)</script>', content_type: 'text/html' });
    const dir = join(backend.root!, 'files');
    const sidecar = join(dir, (await readdir(dir)).find((n) => n.startsWith('m_legacy'))!);
    const stored = JSON.parse(await readFile(sidecar, 'utf8')) as { content_type: string };
    await writeFile(sidecar, JSON.stringify({ ...stored, content_type: 'text/html\u0085' }));
    const res = await fetch(await presign('legacy.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('presigned PUT refuses a Content-Type or x-amz-meta-* header with a control character (400 InvalidArgument) and stores nothing', async () => {
    const url = await presign('upload.txt', 'PUT');
    const encoded = (text: string) => `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
    const refusals: Array<Record<string, string>> = [
      { 'content-type': 'text/plain\tx' },
      { 'content-type': 'text/\x85plain' },
      { 'content-type': 'text/plain', 'x-amz-meta-note': 'a\tb' },
      { 'content-type': 'text/plain', 'x-amz-meta-note': 'a\x9bb' },
      { 'content-type': 'text/plain', 'x-amz-meta-note': encoded('a\r\nx-evil: 1') },
      { 'content-type': 'text/plain', 'x-amz-meta-note': encoded('a\0b') },
    ];
    for (const headers of refusals) {
      const res = await send(url, 'PUT', headers, 'uploaded');
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(res.body), JSON.stringify(headers)).toMatchObject({ error: 'InvalidArgument' });
    }
    await expect(connections.get('main').store.headObject('files', 'upload.txt')).rejects.toMatchObject({ code: 'NoSuchKey' });
    const ok = await send(url, 'PUT', { 'content-type': 'text/plain', 'x-amz-meta-note': encoded('café ✓') }, 'uploaded');
    expect(ok.status).toBe(200);
    expect(await connections.get('main').store.headObject('files', 'upload.txt')).toMatchObject({ contentType: 'text/plain', metadata: { note: 'café ✓' } });
  });
});
