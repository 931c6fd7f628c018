/** Facet aggregation: counts rolled up to every ancestor, direct counts, last change beneath, empty folders and libraries. */
import { describe, expect, it } from 'vitest';
import { buildFacets, type Library } from '../../shared/resources/index.js';

const alice: Library = { kind: 'person', subject: 'alice' };
const global: Library = { kind: 'global' };
const t = (s: string) => new Date(`2024-01-0${s}T00:00:00.000Z`);

describe('buildFacets', () => {
  it('rolls counts up to every depth and keeps empty folders and libraries', () => {
    const facets = buildFacets(
      [alice, global],
      [
        { library: alice, path: 'a', description: 'top' },
        { library: alice, path: 'a/b', description: '' },
        { library: alice, path: 'a/empty', description: 'nothing here' },
      ],
      [
        { library: alice, folderPath: 'a', count: 2, lastChanged: t('1') },
        { library: alice, folderPath: 'a/b/c', count: 3, lastChanged: t('3') },
        { library: alice, folderPath: '', count: 1, lastChanged: t('2') },
      ],
    );
    const by = Object.fromEntries(facets.map((f) => [f.path, f]));
    expect(Object.keys(by)).toEqual(['global', 'person:alice', 'person:alice/a', 'person:alice/a/b', 'person:alice/a/b/c', 'person:alice/a/empty']);
    expect(by['person:alice']).toMatchObject({ count: 6, direct_count: 1, last_changed_at: t('3').toISOString(), library: 'person:alice' });
    expect(by['person:alice/a']).toMatchObject({ count: 5, direct_count: 2, description: 'top', last_changed_at: t('3').toISOString() });
    expect(by['person:alice/a/b']).toMatchObject({ count: 3, direct_count: 0 });
    expect(by['person:alice/a/b/c']).toMatchObject({ count: 3, direct_count: 3 });
    expect(by['person:alice/a/empty']).toEqual({ path: 'person:alice/a/empty', library: 'person:alice', count: 0, direct_count: 0, last_changed_at: null, description: 'nothing here' });
    expect(by['global']).toMatchObject({ count: 0, last_changed_at: null });
  });

  it('a folder whose files all went still dates its ancestors, without an entry of its own when it has no folder row', () => {
    const facets = buildFacets(
      [alice],
      [{ library: alice, path: 'a', description: '' }],
      [
        { library: alice, folderPath: 'a', count: 1, lastChanged: t('1') },
        { library: alice, folderPath: 'a/gone', count: 0, lastChanged: t('4') },
      ],
    );
    expect(facets.map((f) => f.path)).toEqual(['person:alice', 'person:alice/a']);
    expect(facets[1]).toMatchObject({ count: 1, direct_count: 1, last_changed_at: t('4').toISOString() });
  });

  it('narrows to a subtree and a number of levels, counting everything beneath', () => {
    const folders = ['a', 'a/b', 'a/b/c', 'z'].map((path) => ({ library: alice, path, description: '' }));
    const counts = [{ library: alice, folderPath: 'a/b/c', count: 2, lastChanged: t('2') }];
    const paths = (scope: Parameters<typeof buildFacets>[3]) => buildFacets([alice, global], folders, counts, scope).map((f) => f.path);
    expect(paths({ folderPath: '', depth: 1 })).toEqual(['global', 'person:alice']);
    expect(paths({ folderPath: '', depth: 2 })).toEqual(['global', 'person:alice', 'person:alice/a', 'person:alice/z']);
    expect(paths({ library: alice, folderPath: '', depth: 1 })).toEqual(['person:alice', 'person:alice/a', 'person:alice/z']);
    expect(paths({ library: alice, folderPath: 'a', depth: 1 })).toEqual(['person:alice/a', 'person:alice/a/b']);
    expect(paths({ library: alice, folderPath: 'a' })).toEqual(['person:alice/a', 'person:alice/a/b', 'person:alice/a/b/c']);
    const opened = buildFacets([alice], folders, counts, { library: alice, folderPath: 'a', depth: 1 });
    expect(opened.find((f) => f.path === 'person:alice/a/b')).toMatchObject({ count: 2, direct_count: 0, last_changed_at: t('2').toISOString() });
  });
});
