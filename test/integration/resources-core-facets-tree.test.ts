/**
 * Facets of a large tree, loaded as folders open: narrowed by `path` and `depth` (the root's first
 * level is the libraries, a platform administrator's including each person with files — People,
 * read when opened), counts still exact beneath; `last_changed_at` moves forward on removal and on
 * a move out of a folder, not only on writes into it, and a folder delete dates its parent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderFacet } from '../../shared/resources/index.js';
import { body, globalLib, person, personLib, refused, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';

describe('facets by path and depth', () => {
  let env: ResourceEnv;
  let now = new Date('2024-07-01T12:00:00.000Z');
  const tick = () => (now = new Date(now.getTime() + 60_000));
  const alice = () => person(env, 'alice');
  const root = () => person(env, 'root', ['platform-admin']);
  const paths = (facets: FolderFacet[]) => facets.map((f) => f.path);
  const at = (facets: FolderFacet[], path: string) => facets.find((f) => f.path === path);
  const put = async (path: string, file_name: string) => {
    tick();
    return (await env.service.create(alice(), { library: personLib('alice'), path, file_name, if_exists: 'fail', origin: 'portal', body: body(file_name) })).resource;
  };

  beforeAll(async () => {
    env = await startResourceEnv('filesystem', { clock: () => now });
    await put('a', 'one.txt');
    await put('a/b', 'two.txt');
    await put('a/b/c', 'three.txt');
    await put('a/b/c', 'four.txt');
    await put('z', 'five.txt');
    await env.service.createFolder(alice(), personLib('alice'), 'a/empty');
    tick();
    await env.service.create(root(), { library: personLib('bob'), path: 'x', file_name: 'b.txt', if_exists: 'fail', origin: 'portal', body: body('b') });
    await env.service.create(root(), { library: globalLib, path: 'g', file_name: 'g.txt', if_exists: 'fail', origin: 'portal', body: body('g') });
  }, 120_000);
  afterAll(async () => env?.stop());

  it('the root one level deep is the libraries; a platform administrator sees each person with files', async () => {
    expect(paths(await env.service.facets(alice(), { depth: 1 }))).toEqual(['global', 'person:alice']);
    const admin = await env.service.facets(root(), { depth: 1 });
    expect(paths(admin)).toEqual(['global', 'person:alice', 'person:bob', 'person:root', 'persona:admin', 'persona:finance', 'persona:sales']);
    expect(at(admin, 'person:alice')).toMatchObject({ count: 5, direct_count: 0 });
    expect(paths(await env.service.facets(alice(), { depth: 2 }))).toEqual(['global', 'global/g', 'person:alice', 'person:alice/a', 'person:alice/z']);
  });

  it('a folder opened: its own entry and its children, with exact counts beneath', async () => {
    const opened = await env.service.facets(alice(), { path: 'personal/a', depth: 1 });
    expect(paths(opened)).toEqual(['person:alice/a', 'person:alice/a/b', 'person:alice/a/empty']);
    expect(at(opened, 'person:alice/a')).toMatchObject({ count: 4, direct_count: 1, last_changed_at: '2024-07-01T12:04:00.000Z' });
    expect(at(opened, 'person:alice/a/b')).toMatchObject({ count: 3, direct_count: 1 });
    expect(at(opened, 'person:alice/a/empty')).toMatchObject({ count: 0, last_changed_at: null });
    expect(paths(await env.service.facets(alice(), { path: 'personal/a' }))).toEqual(['person:alice/a', 'person:alice/a/b', 'person:alice/a/b/c', 'person:alice/a/empty']);
    // A person's library under People, read when opened.
    expect(paths(await env.service.facets(root(), { path: 'person:bob', depth: 1 }))).toEqual(['person:bob', 'person:bob/x']);
  });

  it('refuses what the caller may not list, a folder that does not exist, and a bad depth', async () => {
    await refused(env.service.facets(alice(), { path: 'person:bob' }), 'forbidden');
    await refused(env.service.facets(alice(), { path: 'personal/nowhere' }), 'not_found');
    await refused(env.service.facets(alice(), { path: 'personal/Bad' }), 'invalid');
    await refused(env.service.facets(alice(), { depth: 0 }), 'invalid');
    await refused(env.service.facets(alice(), { depth: 10 }), 'invalid');
  });

  it('last_changed_at reflects a removal and a move out of a folder, up to every ancestor', async () => {
    const before = await env.service.facets(alice(), { path: 'personal/a/b' });
    expect(at(before, 'person:alice/a/b/c')).toMatchObject({ count: 2, last_changed_at: '2024-07-01T12:04:00.000Z' });
    const [three] = (await env.service.list(alice(), { path: 'personal/a/b/c', direct: true })).items;

    // Removal: dated by the database at the delete, later than anything written before.
    const deletedAfter = Date.now();
    await env.service.delete(alice(), three!.id, { force: false });
    const removed = await env.service.facets(alice(), { path: 'personal/a', depth: 2 });
    for (const p of ['person:alice/a/b/c', 'person:alice/a/b', 'person:alice/a']) {
      expect(Date.parse(at(removed, p)!.last_changed_at!)).toBeGreaterThanOrEqual(deletedAfter - 1000);
    }
    expect(at(removed, 'person:alice/a/b/c')).toMatchObject({ count: 1, direct_count: 1 });

    // Move out of z into a/b: z (now empty) and both folders' ancestors date the move.
    const [five] = (await env.service.list(alice(), { path: 'personal/z', direct: true })).items;
    now = new Date(Date.now() + 3_600_000);
    await env.service.update(alice(), five!.id, { path: 'a/b' });
    const moved = await env.service.facets(alice(), { path: 'personal', depth: 2 });
    expect(at(moved, 'person:alice/z')).toMatchObject({ count: 0, direct_count: 0, last_changed_at: now.toISOString() });
    expect(at(moved, 'person:alice/a/b')).toMatchObject({ count: 3, direct_count: 2, last_changed_at: now.toISOString() });
    expect(at(moved, 'person:alice')).toMatchObject({ count: 4, last_changed_at: now.toISOString() });
  });

  it('a folder delete dates its parent and forgets the folder', async () => {
    const [five] = (await env.service.list(alice(), { path: 'personal/a/b', direct: true, sort: 'name' })).items;
    expect(five?.file_name).toBe('five.txt');
    now = new Date(now.getTime() + 3_600_000);
    await env.service.deleteFolder(alice(), personLib('alice'), 'z');
    const after = await env.service.facets(alice(), { path: 'personal', depth: 1 });
    expect(paths(after)).toEqual(['person:alice', 'person:alice/a']);
    expect(at(after, 'person:alice')).toMatchObject({ count: 4, direct_count: 0, last_changed_at: now.toISOString() });
    // A folder created again under the same name starts empty, with no change of its own.
    await env.service.createFolder(alice(), personLib('alice'), 'z');
    expect(at(await env.service.facets(alice(), { path: 'personal/z' }), 'person:alice/z')).toMatchObject({ count: 0, last_changed_at: null });
  });
});
