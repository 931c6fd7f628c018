/**
 * The `table` job's modes (issue 20 item 6; shared/resources/jobs/kinds.ts): a follow-up and an
 * upload asking for one registerTable run make one run that does both (follow moves every table an
 * upload moves, and more): the waiting outbox row merges to the wider mode, and the signal to a run
 * under way carries the later request's mode.
 */
import { describe, expect, it } from 'vitest';
import { resourceJobKinds, widerTableMode } from '../../shared/resources/jobs/index.js';

describe('table job modes', () => {
  it('the wider mode: follow whenever either asked for it', () => {
    expect(widerTableMode('upload', 'upload')).toBe('upload');
    expect(widerTableMode('upload', 'follow')).toBe('follow');
    expect(widerTableMode('follow', 'upload')).toBe('follow');
    // A signal sent before signals carried a mode changes nothing.
    expect(widerTableMode('upload', undefined)).toBe('upload');
  });

  it('a waiting row keeps the first requester and takes the wider mode; the signal carries the request\'s mode', () => {
    const spec = resourceJobKinds.table;
    expect(spec.mergeParams({ actor: { subject: 'uploader' }, mode: 'upload' }, { actor: { subject: 'platform:tables' }, mode: 'follow' })).toEqual({ actor: { subject: 'uploader' }, mode: 'follow' });
    expect(spec.mergeParams({ actor: { subject: 'a' }, mode: 'follow' }, { actor: { subject: 'b' }, mode: 'upload' })).toEqual({ actor: { subject: 'a' }, mode: 'follow' });
    expect(spec.signalArgs({ kind: 'table', resourceId: 'r-1', params: { mode: 'follow' } })).toEqual([{ mode: 'follow' }]);
  });
});
