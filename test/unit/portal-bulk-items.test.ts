/**
 * The rules of the Resources listing's bulk actions (portal/src/resources/bulk/rules.ts; issue 37):
 * an action is offered only where every selected item allows it and all are in one library; the
 * folders a folder kept by a bulk Delete loses; and the server's tag edit (shared/resources/
 * input.ts, editedTags) that bulk Tag relies on.
 */
import { describe, expect, it } from 'vitest';
import { emptiedFolders, offeredFor } from '../../portal/src/resources/bulk/rules.js';
import { editedTags } from '../../shared/resources/input.js';

const item = (library: string, move: boolean, tag: boolean, del: boolean) => ({ library, move, tag, delete: del });

describe('offeredFor: the bulk actions a selection is offered', () => {
  it('offers each action every item allows', () => {
    expect(offeredFor([item('person:a', true, true, true), item('person:a', true, true, true)])).toEqual(['move', 'tag', 'delete']);
    expect(offeredFor([item('person:a', true, true, true), item('person:a', true, true, false)])).toEqual(['move', 'tag']);
  });

  it('offers nothing that one item refuses, nothing across libraries, nothing for an empty selection', () => {
    expect(offeredFor([item('global', true, true, true), item('global', false, false, false)])).toEqual([]);
    expect(offeredFor([item('person:a', true, true, true), item('global', true, true, true)])).toEqual([]);
    expect(offeredFor([])).toEqual([]);
  });
});

describe('emptiedFolders: what a kept folder loses after a bulk Delete', () => {
  it('the highest folders holding no kept file, never one above a kept file', () => {
    const subfolders = ['k/a', 'k/a/deep', 'k/b', 'k/b/c', 'k/b/c/d', 'k/e'];
    expect(emptiedFolders(subfolders, new Set(['k/b/c']))).toEqual(['k/a', 'k/b/c/d', 'k/e']);
    expect(emptiedFolders(subfolders, new Set(['k']))).toEqual(['k/a', 'k/b', 'k/e']);
    // A name that only starts like a kept folder is not above it.
    expect(emptiedFolders(['k/ab'], new Set(['k/a']))).toEqual(['k/ab']);
  });
});

describe('editedTags: an add/remove edit of the tags a file has now', () => {
  it('removes, then adds at the end; a tag already there stays in its place', () => {
    expect(editedTags(['a', 'b', 'c'], { add: ['b', 'd'], remove: ['a'] })).toEqual(['b', 'c', 'd']);
    expect(editedTags([], { add: [], remove: ['x'] })).toEqual([]);
  });

  it('is held to the tag limit', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    expect(() => editedTags(fifty, { add: ['one-more'], remove: [] })).toThrow(/51 tags; at most 50/);
    expect(editedTags(fifty, { add: ['one-more'], remove: ['t0'] })).toHaveLength(50);
  });
});
