/**
 * The resource job registry (issue 18): the contract of kind `index` with the indexing workflow
 * (type, deterministic id, coalescing signal, input, queue), and which writes ask for which jobs.
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

  it('a create, a new version and a details edit or move ask for indexing; a delete asks for nothing', () => {
    for (const change of ['created', 'replaced', 'updated'] as const) {
      expect(jobsForChange(change, 'r-1')).toEqual([{ kind: 'index', resourceId: 'r-1', params: {} }]);
    }
    expect(jobsForChange('deleted', 'r-1')).toEqual([]);
  });
});
