/**
 * Issue 9, item 3: "Downloads cannot run script on our origin." Resource content served by
 * GET/HEAD /api/v1/resources/:id/content carries `X-Content-Type-Options: nosniff`,
 * `Content-Security-Policy: default-src 'none'; sandbox`, and `Content-Disposition: attachment`
 * unless the type is on the inline list (images other than SVG, PDF, plain text); a content type
 * with control characters is refused at write time (400 invalid, nothing stored); one byte range
 * is served (206, the same headers), and a 416 carries Content-Range with the file's size. On
 * both storage drivers, over real Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, as, send, startResourceRestApi, type RawResponse, type ResourceRestApi } from '../integration/resources-rest-fixtures.js';
import type { Driver } from '../integration/objstore-fixtures.js';
import { expectRefused, fileForm, unchangedBy, upload } from './resources-fixtures.js';

const CSP = "default-src 'none'; sandbox";

describe.each<Driver>(['filesystem', 's3'])('issue 9 item 3: resource downloads (%s driver)', (driver) => {
  let api: ResourceRestApi;

  beforeAll(async () => {
    api = await startResourceRestApi({ driver, maxUploadBytes: 1024 * 1024 });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  async function stored(name: string, type: string, data: string | Buffer = '<script>alert(document.domain)</script>'): Promise<string> {
    const res = await upload(api, alice, fileForm({ path: 'downloads', name, data, type }));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id as string;
  }

  function content(id: string, method = 'GET', headers: Record<string, string> = {}): Promise<RawResponse> {
    return send(`${api.url}/api/v1/resources/${id}/content`, { method, headers: { ...as(alice), ...headers } });
  }

  function expectProtected(res: RawResponse, disposition: 'attachment' | 'inline'): void {
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^${disposition}; filename="`));
  }

  it('serves script-capable types (HTML, SVG, XML, JavaScript, JSON) as attachments, nosniff, sandboxed — GET and HEAD', async () => {
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['drawing.svg', 'image/svg+xml'],
      ['feed.xml', 'application/xml'],
      ['page.xhtml', 'application/xhtml+xml'],
      ['module.mjs', 'text/javascript'],
      ['data.json', 'application/json'],
      ['page.txt', 'text/html'],
    ] as const) {
      const id = await stored(name, type);
      const got = await content(id);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toContain(type);
      expectProtected(got, 'attachment');
      const head = await content(id, 'HEAD');
      expect(head.status).toBe(200);
      expectProtected(head, 'attachment');
    }
  });

  it('displays only images other than SVG, PDF and plain text inline, still nosniff and sandboxed', async () => {
    for (const [name, type] of [
      ['photo.png', 'image/png'],
      ['photo.jpg', 'image/jpeg'],
      ['anim.gif', 'image/gif'],
      ['photo.webp', 'image/webp'],
      ['paper.pdf', 'application/pdf'],
      ['notes.txt', 'text/plain; charset=utf-8'],
      ['page.html', 'text/plain'],
    ] as const) {
      const id = await stored(`inline-${name}`, type);
      const got = await content(id);
      expect(got.status).toBe(200);
      expectProtected(got, 'inline');
    }
  });

  it('names the file safely in Content-Disposition', async () => {
    const id = await stored("naïve 'report' é.html", 'text/html');
    expect((await content(id)).headers['content-disposition']).toBe(
      `attachment; filename="na_ve 'report' _.html"; filename*=UTF-8''na%C3%AFve%20%27report%27%20%C3%A9.html`,
    );
  });

  it('serves one byte range (206, protected like the whole file); several ranges, a stale If-Range or garbage get every byte; past the end is 416 naming the size in Content-Range', async () => {
    const body = 'abcdefghij';
    const id = await stored('range.txt', 'text/plain', body);
    const etag = (await content(id, 'HEAD')).headers.etag as string;
    expect((await content(id, 'HEAD')).headers['accept-ranges']).toBe('bytes');
    for (const [range, part, contentRange] of [
      ['bytes=0-1', 'ab', 'bytes 0-1/10'],
      ['bytes=5-', 'fghij', 'bytes 5-9/10'],
      ['bytes=-3', 'hij', 'bytes 7-9/10'],
      ['bytes=8-100', 'ij', 'bytes 8-9/10'],
    ] as const) {
      const got = await content(id, 'GET', { range });
      expect(got.status, range).toBe(206);
      expect(got.body.toString()).toBe(part);
      expect(got.headers['content-range']).toBe(contentRange);
      expect(got.headers['content-length']).toBe(String(part.length));
      expectProtected(got, 'inline');
    }
    const pinned = await content(id, 'GET', { range: 'bytes=2-3', 'if-range': etag });
    expect([pinned.status, pinned.body.toString()]).toEqual([206, 'cd']);
    for (const headers of [{ range: 'bytes=0-1,4-5' } as Record<string, string>, { range: 'bytes=garbage' }, { range: 'items=0-1' }, { range: 'bytes=0-1', 'if-range': '"stale"' }]) {
      const got = await content(id, 'GET', headers);
      expect(got.status, JSON.stringify(headers)).toBe(200);
      expect(got.body.toString()).toBe(body);
      expect(got.headers['content-range']).toBeUndefined();
    }
    const past = await content(id, 'GET', { range: 'bytes=100-200' });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */10');
  });

  it('refuses a content type with control characters (or no media type) at write time: 400 invalid, nothing stored', async () => {
    for (const type of ['text/html\u0001', 'text/plain\u007f', 'text/html<script>', 'text']) {
      const res = await unchangedBy(api, () => upload(api, alice, fileForm({ path: 'downloads', name: 'typed.bin', data: 'x', type })));
      expectRefused(res, 400, 'invalid', /content type/);
    }
  });

  it('serves a legacy row whose recorded type is no media type as an octet-stream attachment, not a 500', async () => {
    const id = await stored('legacy.html', 'text/html');
    await api.db.query(`UPDATE resources SET content_type = $2 WHERE id = $1`, [id, 'image/png\u0001']);
    const got = await content(id);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expectProtected(got, 'attachment');
  });
});
