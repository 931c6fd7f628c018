/**
 * Listing and facets: path `<library>/<folder>`, direct vs beneath, the six sorts, opaque keyset
 * cursors stable under ties, a root that lists no files one level only, scoping; exact facet counts at every
 * depth with the last change beneath, empty folders included; a 10,000-file folder that pages
 * through its indexes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListSort, ResourceActor, ResourceView } from '../../shared/resources/index.js';
import { body, globalLib, person, personaLib, personLib, refused, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';

describe('listing and facets', () => {
  let env: ResourceEnv;
  let now = new Date('2024-05-01T10:00:00.000Z');
  const tick = (ms = 1000) => (now = new Date(now.getTime() + ms));
  const alice = () => person(env, 'alice');
  const root = () => person(env, 'root', ['platform-admin']);

  async function all(actor: ResourceActor, path: string, sort: ListSort, direct = false, limit = 2): Promise<ResourceView[]> {
    const out: ResourceView[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await env.service.list(actor, { path, sort, direct, limit, ...(cursor ? { cursor } : {}) });
      out.push(...page.items);
      if (!page.next_cursor) return out;
      cursor = page.next_cursor;
    }
    throw new Error('paging did not end');
  }

  beforeAll(async () => {
    env = await startResourceEnv('filesystem', { clock: () => now });
    const files: Array<[string, string, string]> = [
      ['lib', 'banana.txt', 'bb'],
      ['lib', 'Apple.txt', 'aaaa'],
      ['lib', 'cherry.txt', 'c'],
      ['lib/sub', 'date.txt', 'ddd'],
      ['lib/sub/deeper', 'elder.txt', 'eeeee'],
      ['other', 'fig.txt', 'ffffff'],
    ];
    for (const [path, file_name, content] of files) {
      tick();
      await env.service.create(alice(), { library: personLib('alice'), path, file_name, if_exists: 'fail', origin: 'portal', body: body(content) });
    }
    await env.service.createFolder(alice(), personLib('alice'), 'lib/empty');
  }, 120_000);
  afterAll(async () => env?.stop());

  it('one level of the root of all libraries lists no files', async () => {
    expect(await env.service.list(alice(), { direct: true })).toEqual({ items: [], next_cursor: null });
    expect(await env.service.list(alice(), { path: '', direct: true })).toEqual({ items: [], next_cursor: null });
  });

  it('direct lists one level; otherwise everything beneath', async () => {
    const direct = await all(alice(), 'personal/lib', 'name', true);
    expect(direct.map((r) => r.file_name)).toEqual(['Apple.txt', 'banana.txt', 'cherry.txt']);
    const beneath = await all(alice(), 'personal/lib', 'name');
    expect(beneath.map((r) => r.file_name)).toEqual(['Apple.txt', 'banana.txt', 'cherry.txt', 'date.txt', 'elder.txt']);
    expect((await all(alice(), 'person:alice', 'name')).length).toBe(6);
    expect((await all(alice(), 'person:alice', 'name', true)).length).toBe(0);
  });

  it('the six sorts, each paged by cursor', async () => {
    const names = async (sort: ListSort) => (await all(alice(), 'personal/lib', sort)).map((r) => r.file_name);
    expect(await names('name')).toEqual(['Apple.txt', 'banana.txt', 'cherry.txt', 'date.txt', 'elder.txt']);
    expect(await names('name_desc')).toEqual(['elder.txt', 'date.txt', 'cherry.txt', 'banana.txt', 'Apple.txt']);
    expect(await names('updated')).toEqual(['elder.txt', 'date.txt', 'cherry.txt', 'Apple.txt', 'banana.txt']);
    expect(await names('updated_asc')).toEqual(['banana.txt', 'Apple.txt', 'cherry.txt', 'date.txt', 'elder.txt']);
    expect(await names('size')).toEqual(['cherry.txt', 'banana.txt', 'date.txt', 'Apple.txt', 'elder.txt']);
    expect(await names('size_desc')).toEqual(['elder.txt', 'Apple.txt', 'date.txt', 'banana.txt', 'cherry.txt']);
  });

  it('paging is stable under ties (same time, same size): each file exactly once, ordered by id', async () => {
    const frozen = now;
    for (let i = 0; i < 7; i++) {
      await env.service.create(alice(), { library: personLib('alice'), path: 'ties', file_name: `t${i}.txt`, if_exists: 'fail', origin: 'portal', body: body('same') });
    }
    expect(now).toBe(frozen);
    for (const sort of ['updated', 'updated_asc', 'size', 'size_desc'] as const) {
      const seen = await all(alice(), 'personal/ties', sort, true, 3);
      expect(seen).toHaveLength(7);
      expect(new Set(seen.map((r) => r.id)).size).toBe(7);
      const ids = seen.map((r) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => (sort.endsWith('desc') || sort === 'updated' ? b.localeCompare(a) : a.localeCompare(b))));
    }
  });

  it('refuses cursors from another listing, unknown sorts and bad limits', async () => {
    const page = await env.service.list(alice(), { path: 'personal/lib', sort: 'name', limit: 1 });
    expect(page.next_cursor).toBeTruthy();
    await refused(env.service.list(alice(), { path: 'personal/lib', sort: 'size', cursor: page.next_cursor! }), 'invalid');
    await refused(env.service.list(alice(), { path: 'personal/other', sort: 'name', cursor: page.next_cursor! }), 'invalid');
    await refused(env.service.list(alice(), { path: 'personal/lib', cursor: 'garbage' }), 'invalid');
    await refused(env.service.list(alice(), { path: 'personal/lib', sort: 'weird' as ListSort }), 'invalid');
    await refused(env.service.list(alice(), { path: 'personal/lib', limit: 0 }), 'invalid');
    await refused(env.service.list(alice(), { path: 'personal/Bad' }), 'invalid');
    await refused(env.service.list(alice(), { path: 'team:x/lib' }), 'invalid');
  });

  it('last read is shown to platform administrators only', async () => {
    const [first] = await all(alice(), 'personal/lib', 'name', true);
    expect(first).not.toHaveProperty('last_read_at');
    const [forAdmin] = await all(root(), 'person:alice/lib', 'name', true);
    expect(forAdmin).toHaveProperty('last_read_at', null);
  });

  it('facets: exact counts at every depth, direct counts, last change beneath, empty folders', async () => {
    const facets = await env.service.facets(alice());
    const at = (p: string) => facets.find((f) => f.path === p);
    expect(at('person:alice')).toMatchObject({ library: 'person:alice', count: 13, direct_count: 0 });
    expect(at('person:alice/lib')).toMatchObject({ count: 5, direct_count: 3, last_changed_at: '2024-05-01T10:00:05.000Z' });
    expect(at('person:alice/lib/sub')).toMatchObject({ count: 2, direct_count: 1, last_changed_at: '2024-05-01T10:00:05.000Z' });
    expect(at('person:alice/lib/sub/deeper')).toMatchObject({ count: 1, direct_count: 1 });
    expect(at('person:alice/lib/empty')).toMatchObject({ count: 0, direct_count: 0, last_changed_at: null });
    expect(at('person:alice/other')).toMatchObject({ count: 1, direct_count: 1, last_changed_at: '2024-05-01T10:00:06.000Z' });
    // Visible libraries: own, personas (none for alice) and global — never another person's.
    expect(at('global')).toMatchObject({ count: 0 });
    expect(facets.some((f) => f.library === 'persona:sales')).toBe(false);
    const bobs = await env.service.facets(person(env, 'bob'));
    expect(bobs.some((f) => f.library === 'person:alice')).toBe(false);
    expect(bobs.find((f) => f.path === 'person:bob')).toMatchObject({ count: 0 });
    // Members see their persona; platform administrators see every library.
    const sam = await env.service.facets(person(env, 'sam', ['sales']));
    expect(sam.some((f) => f.path === 'persona:sales')).toBe(true);
    const admin = await env.service.facets(root());
    for (const p of ['person:alice/lib/sub', 'persona:sales', 'persona:finance', 'global']) expect(admin.some((f) => f.path === p)).toBe(true);
  });

  it('a 10,000-file folder pages fast through its indexes', async () => {
    // Rows straight into the table: the listing, not the upload path, is what is measured here.
    await env.db.query(
      `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, content_type, size, content_sha256, head_version, uploader, created_at, updated_at)
       SELECT gen_random_uuid()::text, 'global', '', 'big', 'file-' || i || '.txt', 'File ' || lpad(i::text, 5, '0'), 'text/plain', i % 977, NULL, 1, 'root',
              now(), now() - (i % 500) * interval '1 second'
       FROM generate_series(1, 10000) AS i`,
    );
    await env.db.query('ANALYZE resources');
    const admin = root();
    for (const sort of ['name', 'name_desc', 'updated', 'updated_asc', 'size', 'size_desc'] as const) {
      let cursor: string | undefined;
      const timings: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const page = await env.service.list(admin, { path: 'global/big', direct: true, sort, limit: 100, ...(cursor ? { cursor } : {}) });
        timings.push(performance.now() - t0);
        expect(page.items).toHaveLength(100);
        cursor = page.next_cursor!;
      }
      expect(Math.max(...timings.slice(1))).toBeLessThan(250);
    }
    const plan = await env.db.query(
      `EXPLAIN SELECT r.* FROM resources r WHERE r.library_kind = 'global' AND r.library_key = '' AND r.folder_path = 'big'
       ORDER BY lower(r.display_name), r.id LIMIT 101`,
    );
    expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan.*resources_folder_name/);
    const everything = await all(admin, 'global/big', 'name', true, 1000);
    expect(everything).toHaveLength(10000);
    expect(new Set(everything.map((r) => r.id)).size).toBe(10000);
    const facets = await env.service.facets(admin);
    // Counted even without a folder row (rows inserted directly): facets follow the files.
    expect(facets.find((f) => f.path === 'global/big')).toMatchObject({ count: 10000, direct_count: 10000 });
    expect(facets.find((f) => f.path === 'global')).toMatchObject({ count: 10000 });
  }, 120_000);

  it('list of another library with a persona path', async () => {
    await env.service.create(root(), { library: personaLib('sales'), path: 'x', file_name: 'p.txt', if_exists: 'fail', origin: 'portal', body: body('p') });
    await env.service.create(root(), { library: globalLib, path: 'x', file_name: 'g.txt', if_exists: 'fail', origin: 'portal', body: body('g') });
    expect((await env.service.list(person(env, 'sam', ['sales']), { path: 'persona:sales/x' })).items.map((r) => r.file_name)).toEqual(['p.txt']);
    expect((await env.service.list(alice(), { path: 'global/x' })).items.map((r) => r.file_name)).toEqual(['g.txt']);
  });

  it('listReadable: membership-scoped across libraries, paged by id, administrators see no more', async () => {
    const sam = person(env, 'sam', ['sales']);
    await env.service.create(sam, { library: personLib('sam'), path: '', file_name: 'own.txt', if_exists: 'fail', origin: 'portal', body: body('o') });
    const readAll = async (actor: ResourceActor) => {
      const out: ResourceView[] = [];
      let cursor: string | undefined;
      do {
        const page = await env.service.listReadable(actor, { limit: 3, ...(cursor ? { cursor } : {}) });
        out.push(...page.items);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return out;
    };
    const seen = await readAll(sam);
    const libraries = new Set(seen.map((r) => r.library));
    expect(libraries).toEqual(new Set(['person:sam', 'persona:sales', 'global']));
    expect(seen.filter((r) => r.library === 'global').length).toBe(10001);
    const ids = seen.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const adminSees = await env.service.listReadable(root(), { limit: 1000 });
    expect(adminSees.items.every((r) => r.library === 'global' || r.library === 'person:root')).toBe(true);
    await refused(env.service.listReadable(sam, { cursor: 'nope' }), 'invalid');
  }, 60_000);
});
