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
});
