/**
 * Listing across libraries and by last read: the unnarrowed listing (no path) spans every library
 * the caller may list — every library for a platform administrator; top-level roots list no files
 * one level only, while a file filed at a library root stays reachable by id, listed beneath the
 * library and counted by facets; the last_read sorts, platform administrators only, both
 * directions, paged by cursor through their index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Library, ListQuery, ResourceActor, ResourceView } from '../../shared/resources/index.js';
import { body, globalLib, person, personaLib, personLib, refused, startResourceEnv, text, type ResourceEnv } from './resources-core-fixtures.js';

describe('listing across libraries and by last read', () => {
  let env: ResourceEnv;
  let now = new Date('2024-06-01T08:00:00.000Z');
  const tick = () => (now = new Date(now.getTime() + 1000));
  const alice = () => person(env, 'alice');
  const sam = () => person(env, 'sam', ['sales']);
  const sally = () => person(env, 'sally', ['persona-admin:finance']);
  const root = () => person(env, 'root', ['platform-admin']);
  const ids: Record<string, string> = {};

  async function all(actor: ResourceActor, query: ListQuery, limit = 2): Promise<ResourceView[]> {
    const out: ResourceView[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await env.service.list(actor, { ...query, limit, ...(cursor ? { cursor } : {}) });
      out.push(...page.items);
      if (!page.next_cursor) return out;
      cursor = page.next_cursor;
    }
    throw new Error('paging did not end');
  }
  const names = (rows: ResourceView[]) => rows.map((r) => r.file_name);

  beforeAll(async () => {
    env = await startResourceEnv('filesystem', { clock: () => now, audit: true });
    const put = async (actor: ResourceActor, library: Library, path: string, file_name: string) => {
      tick();
      ids[file_name] = (await env.service.create(actor, { library, path, file_name, if_exists: 'fail', origin: 'portal', body: body(file_name) })).resource.id;
    };
    await put(alice(), personLib('alice'), 'notes', 'a-alice.txt');
    await put(alice(), personLib('alice'), '', 'b-alice-root.txt');
    await put(root(), personLib('bob'), 'x', 'c-bob.txt');
    await put(root(), personaLib('sales'), 'deals', 'd-sales.txt');
    await put(root(), personaLib('finance'), 'books', 'e-finance.txt');
    await put(root(), globalLib, 'shared', 'f-global.txt');
  }, 120_000);
  afterAll(async () => env?.stop());

  it('the unnarrowed listing of a platform administrator spans every library, paged by cursor', async () => {
    const everything = await all(root(), {});
    expect(names(everything)).toEqual(['a-alice.txt', 'b-alice-root.txt', 'c-bob.txt', 'd-sales.txt', 'e-finance.txt', 'f-global.txt']);
    expect(new Set(everything.map((r) => r.library))).toEqual(new Set(['person:alice', 'person:bob', 'persona:sales', 'persona:finance', 'global']));
    expect(names(await all(root(), { sort: 'updated' }, 4))).toEqual(['f-global.txt', 'e-finance.txt', 'd-sales.txt', 'c-bob.txt', 'b-alice-root.txt', 'a-alice.txt']);
  });

  it('the unnarrowed listing of anyone else spans the libraries it may list: own, member personas, administered personas, global', async () => {
    expect(names(await all(alice(), {}))).toEqual(['a-alice.txt', 'b-alice-root.txt', 'f-global.txt']);
    expect(names(await all(sam(), { path: '' }))).toEqual(['d-sales.txt', 'f-global.txt']);
    expect(names(await all(sally(), {}))).toEqual(['e-finance.txt', 'f-global.txt']);
    // Its cursor belongs to it: another listing refuses it.
    const page = await env.service.list(alice(), { limit: 1 });
    await refused(env.service.list(alice(), { path: 'personal', limit: 1, cursor: page.next_cursor! }), 'invalid');
  });

  it('a top-level root lists no files one level only; a file at a library root is listed beneath it, reachable by id and counted by facets', async () => {
    expect(await env.service.list(alice(), { path: 'personal', direct: true })).toEqual({ items: [], next_cursor: null });
    expect(await env.service.list(root(), { path: 'person:alice', direct: true })).toEqual({ items: [], next_cursor: null });
    expect(await env.service.list(root(), { direct: true })).toEqual({ items: [], next_cursor: null });
    expect(names(await all(alice(), { path: 'personal' }))).toEqual(['a-alice.txt', 'b-alice-root.txt']);
    expect((await env.service.get(alice(), ids['b-alice-root.txt']!)).path).toBe('');
    const facets = await env.service.facets(alice(), { path: 'personal', depth: 1 });
    expect(facets.find((f) => f.path === 'person:alice')).toMatchObject({ count: 2, direct_count: 1 });
  });

  it('last_read sorts: most recently read first (never read last) and the reverse, both paged by cursor', async () => {
    // Reads at known times: c, then a, then f; the others are never read.
    for (const name of ['c-bob.txt', 'a-alice.txt', 'f-global.txt']) {
      tick();
      await text((await env.service.openContent(root(), ids[name]!, 'portal_download')).body);
    }
    const recent = await all(root(), { sort: 'last_read' });
    expect(names(recent).slice(0, 3)).toEqual(['f-global.txt', 'a-alice.txt', 'c-bob.txt']);
    expect(recent.slice(3).every((r) => r.last_read_at === null)).toBe(true);
    // Never-read files tie on the key and are ordered by id, descending here and ascending in reverse.
    expect(recent.slice(3).map((r) => r.id)).toEqual(recent.slice(3).map((r) => r.id).sort().reverse());
    const oldest = await all(root(), { sort: 'last_read_asc' });
    expect(oldest.map((r) => r.id)).toEqual([...recent].reverse().map((r) => r.id));
    // One folder, through the index.
    expect(names(await all(root(), { path: 'person:alice', sort: 'last_read' }, 1))).toEqual(['a-alice.txt', 'b-alice-root.txt']);
    expect(names(await all(root(), { path: 'person:alice', sort: 'last_read_asc' }, 1))).toEqual(['b-alice-root.txt', 'a-alice.txt']);
  });

  it('last_read sorts are for platform administrators only, and a forged cursor key is refused', async () => {
    const err = await refused(env.service.list(alice(), { path: 'personal', sort: 'last_read' }), 'forbidden');
    expect(err.message).toMatch(/platform administrators/);
    await refused(env.service.list(sally(), { path: 'persona:finance', sort: 'last_read_asc' }), 'forbidden');
    const forged = Buffer.from(JSON.stringify(['last_read', '', 0, 'yesterday', ids['a-alice.txt']])).toString('base64url');
    await refused(env.service.list(root(), { sort: 'last_read', cursor: forged }), 'invalid');
  });

  it('a folder pages by last read through resources_folder_last_read', async () => {
    await env.db.query(
      `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, content_type, size, head_version, uploader, created_at, updated_at, last_read_at)
       SELECT gen_random_uuid()::text, 'global', '', 'big', 'file-' || i || '.txt', 'File ' || i, 'text/plain', 1, 1, 'root', now(), now(),
              CASE WHEN i % 3 = 0 THEN NULL ELSE now() - (i % 700) * interval '1 second' END
       FROM generate_series(1, 5000) AS i`,
    );
    await env.db.query('ANALYZE resources');
    for (const [dir, cmp] of [['DESC', '<'], ['ASC', '>']] as const) {
      const plan = await env.db.query(
        `EXPLAIN SELECT r.* FROM resources r WHERE r.library_kind = 'global' AND r.library_key = '' AND r.folder_path = 'big'
           AND (coalesce(r.last_read_at, '-infinity'::timestamptz), r.id) ${cmp} (now(), '0')
         ORDER BY coalesce(r.last_read_at, '-infinity'::timestamptz) ${dir}, r.id ${dir} LIMIT 101`,
      );
      expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan.*resources_folder_last_read/);
    }
    const walked = await all(root(), { path: 'global/big', direct: true, sort: 'last_read' }, 1000);
    expect(walked).toHaveLength(5000);
    expect(new Set(walked.map((r) => r.id)).size).toBe(5000);
    const keys = walked.map((r) => r.last_read_at ?? '');
    expect(keys).toEqual([...keys].sort().reverse());
  }, 60_000);
});
