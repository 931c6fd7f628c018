/**
 * The resource job registry (issue 18): the contract of kind `index` with the indexing workflow
 * (type, deterministic id, coalescing signal, input, queue), kind `thumbnail` with drawThumbnail
 * (issue 19), kind `table` with registerTable (issue 20), and which writes ask for which jobs.
 */
import { describe, expect, it } from 'vitest';
import { jobsForChange, resourceJobKinds } from '../../shared/resources/index.js';

describe('resource job kinds', () => {
  it('index: indexResource as index:{resourceId}, signal-with-start reindex, input { resourceId }, on the platform queue', () => {
    const request = { kind: 'index' as const, resourceId: 'r-1', params: {} };
    const spec = resourceJobKinds.index;
    expect(spec.workflowType).toBe('indexResource');
    expect(spec.workflowId(request)).toBe('index:r-1');
    expect(spec.signal).toBe('reindex');
    expect(spec.args(request)).toEqual([{ resourceId: 'r-1' }]);
    expect(spec.taskQueue('platform')).toBe('platform');
  });

  it('thumbnail: drawThumbnail as thumb:{resourceId}:v{n} (a Recapture adds :r{k}), started once per id, input { resourceId, version, recapture }', () => {
    const spec = resourceJobKinds.thumbnail;
    const request = { kind: 'thumbnail' as const, resourceId: 'r-1', params: { version: 3 } };
    expect(spec.workflowType).toBe('drawThumbnail');
    expect(spec.workflowId(request)).toBe('thumb:r-1:v3');
    expect(spec.workflowId({ ...request, params: { version: 3, recapture: 2 } })).toBe('thumb:r-1:v3:r2');
    expect('signal' in spec).toBe(false);
    expect(spec.args(request)).toEqual([{ resourceId: 'r-1', version: 3, recapture: 0 }]);
    expect(spec.taskQueue('platform')).toBe('platform');
  });

  it('table: registerTable as table:{resourceId}, signal-with-start reconcile, input { resourceId, actor, mode }, on the platform queue', () => {
    const spec = resourceJobKinds.table;
    const request = { kind: 'table' as const, resourceId: 'r-1', params: { actor: { subject: 'a' }, mode: 'upload' } };
    expect(spec.workflowType).toBe('registerTable');
    expect(spec.workflowId(request)).toBe('table:r-1');
    expect(spec.signal).toBe('reconcile');
    expect(spec.args(request)).toEqual([{ resourceId: 'r-1', actor: { subject: 'a' }, mode: 'upload' }]);
    expect(spec.taskQueue('platform')).toBe('platform');
  });

  it('a create, a new version and a details edit or move ask for indexing; new content (never a details edit) for a thumbnail of its version; a delete for nothing', () => {
    const resource = { id: 'r-1', head_version: 4 };
    const index = { kind: 'index', resourceId: 'r-1', params: {} };
    const thumbnail = { kind: 'thumbnail', resourceId: 'r-1', params: { version: 4 } };
    expect(jobsForChange('created', resource)).toEqual([index, thumbnail]);
    expect(jobsForChange('replaced', resource)).toEqual([index, thumbnail]);
    expect(jobsForChange('updated', resource)).toEqual([index]);
    expect(jobsForChange('deleted', resource)).toEqual([]);
  });
});
