/**
 * A 1 GiB upload through POST /api/v1/resources, generated as a stream (never held in memory) by
 * a client process and sent over real HTTP to the real service on each object-store driver (MinIO
 * and the filesystem), with this (the server's) process's RSS sampled throughout: it must grow by
 * less than 128 MiB, and the stored SHA-256 must equal what was sent. Then an upload one byte over
 * the limit is refused with 413 and stores nothing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, rssSampler } from '../support/large-bytes.js';
import { alice, as, send, startResourceRestApi, uploadFromChild, type ResourceRestApi } from './resources-rest-fixtures.js';

const total = 1024 * MiB;

describe.each(['s3', 'filesystem'] as const)('1 GiB through the upload route (%s driver)', (driver) => {
  let api: ResourceRestApi;

  beforeAll(async () => {
    api = await startResourceRestApi({ driver, maxUploadBytes: total });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('streams 1 GiB into storage with bounded memory and the right SHA-256', async () => {
    const sampler = rssSampler();
    const res = await uploadFromChild(`${api.url}/api/v1/resources`, as(alice), { bytes: total, fileName: 'one-gib.bin', path: 'large' });
    const rss = sampler.stop();
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const expected = res.sha256;
    expect(res.json).toMatchObject({ outcome: 'created', size: total, content_sha256: expected, file_name: 'one-gib.bin' });
    console.info(`1 GiB upload through the route: server RSS ${Math.round(rss.start / MiB)} MiB → peak ${Math.round(rss.peak / MiB)} MiB`);
    expect(rss.growth, `RSS grew by ${Math.round(rss.growth / MiB)} MiB`).toBeLessThan(128 * MiB);

    // What the store holds hashes the same when downloaded through the route.
    const download = await fetch(`${api.url}/api/v1/resources/${res.json.id}/content`, { headers: as(alice) });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(total));
    const readBack = createHash('sha256');
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) readBack.update(chunk);
    expect(readBack.digest('hex')).toBe(expected);
  }, 600_000);

  it('refuses an upload one byte over the limit with 413 and stores nothing', async () => {
    const before = await api.storedObjects();
    const res = await uploadFromChild(`${api.url}/api/v1/resources`, as(alice), { bytes: total + 1, fileName: 'too-big.bin', path: 'large' });
    expect(res.status, JSON.stringify(res.json)).toBe(413);
    expect(res.json).toMatchObject({ error: 'too_large' });
    expect(await api.storedObjects()).toEqual(before);
    const listing = await send(`${api.url}/api/v1/resources?path=${encodeURIComponent('person:alice/large')}`, { method: 'GET', headers: as(alice) });
    expect(listing.json.items.map((r: { file_name: string }) => r.file_name)).toEqual(['one-gib.bin']);
  }, 600_000);
});
