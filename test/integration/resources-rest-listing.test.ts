/**
 * The list and facets routes' query parameters over real HTTP: the unnarrowed listing, the
 * last_read sorts (platform administrators only, 403 for anyone else), facets narrowed by `path`
 * and `depth` (400 outside 1-9), and both in the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, as, bob, multipart, root, send, startResourceRestApi, type ResourceRestApi, type Who } from './resources-rest-fixtures.js';

let api: ResourceRestApi;

beforeAll(async () => {
  api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 1024 * 1024, bodyLimit: 64 * 1024 });
  for (const [who, library, path, name] of [
    [alice, 'personal', 'notes/2025', 'a.txt'],
    [bob, 'personal', 'x', 'b.txt'],
  ] as const) {
    const form = multipart([
      { name: 'library', value: library },
      { name: 'path', value: path },
      { name: 'file', filename: name, type: 'text/plain', data: name },
    ]);
    const res = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(who), 'content-type': form.contentType }, body: form.body });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await api?.close();
});

const get = (who: Who, path: string) => send(`${api.url}${path}`, { method: 'GET', headers: as(who) });

describe('list and facets query parameters', () => {
  it('the unnarrowed listing: every library for a platform administrator, the caller\'s own for others', async () => {
    const all = await get(root, '/api/v1/resources');
    expect(all.status).toBe(200);
    expect((all.json.items as Array<{ file_name: string }>).map((r) => r.file_name)).toEqual(['a.txt', 'b.txt']);
    const own = await get(alice, '/api/v1/resources?direct=false');
    expect((own.json.items as Array<{ file_name: string }>).map((r) => r.file_name)).toEqual(['a.txt']);
  });

  it('last_read sorts: accepted for a platform administrator, 403 for anyone else', async () => {
    const admin = await get(root, '/api/v1/resources?sort=last_read_asc');
    expect(admin.status).toBe(200);
    expect(admin.json.items).toHaveLength(2);
    const member = await get(alice, '/api/v1/resources?sort=last_read');
    expect(member.status).toBe(403);
    expect(member.json.error).toBe('forbidden');
  });

  it('facets by path and depth; depth outside 1-9 is 400', async () => {
    const top = await get(root, '/api/v1/resources/facets?depth=1');
    expect(top.status).toBe(200);
    expect((top.json.folders as Array<{ path: string }>).map((f) => f.path)).toContain('person:bob');
    expect((top.json.folders as Array<{ path: string }>).some((f) => f.path.includes('/'))).toBe(false);
    const opened = await get(alice, `/api/v1/resources/facets?path=${encodeURIComponent('personal/notes')}&depth=1`);
    expect(opened.json.folders).toEqual([
      expect.objectContaining({ path: 'person:alice/notes', count: 1, direct_count: 0 }),
      expect.objectContaining({ path: 'person:alice/notes/2025', count: 1, direct_count: 1 }),
    ]);
    expect((await get(alice, '/api/v1/resources/facets?depth=0')).status).toBe(400);
    expect((await get(alice, '/api/v1/resources/facets?depth=10')).status).toBe(400);
    expect((await get(alice, `/api/v1/resources/facets?path=${encodeURIComponent('person:bob')}`)).status).toBe(403);
  });

  it('the OpenAPI document names the new sorts and the facets parameters', async () => {
    const doc = await send(`${api.url}/api/openapi.json`, { method: 'GET' });
    expect(doc.status).toBe(200);
    expect(JSON.stringify(doc.json)).toContain('last_read_asc');
    const facets = (doc.json.paths as Record<string, Record<string, { parameters?: Array<{ name: string }> }>>)['/api/v1/resources/facets']!.get!;
    expect(facets.parameters?.map((p) => p.name)).toEqual(['path', 'depth']);
  });
});
