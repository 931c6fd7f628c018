/** Which references hold a delete (spec document 2, Errors): the portal's rule and manage_resource's. */
import { describe, expect, it } from 'vitest';
import { countsHoldingDelete, holdsDelete } from '../../shared/resources/index.js';

describe('references holding a delete', () => {
  const promptsOnly = { assets: 0, prompts: 2, tables: 0 };
  const all = { assets: 1, prompts: 2, tables: 1 };

  it('prompts do not hold a portal delete; assets and registered tables do', () => {
    expect(holdsDelete(countsHoldingDelete(promptsOnly, 'portal'))).toBe(false);
    expect(countsHoldingDelete(all, 'portal')).toEqual({ assets: 1, prompts: 0, tables: 1 });
    expect(holdsDelete(countsHoldingDelete({ assets: 0, prompts: 0, tables: 1 }, 'portal'))).toBe(true);
  });

  it('every reference holds a delete from anywhere else (manage_resource, scripts, no origin)', () => {
    for (const origin of ['agent', 'script', 'webhook', undefined] as const) {
      expect(countsHoldingDelete(promptsOnly, origin), String(origin)).toEqual(promptsOnly);
      expect(holdsDelete(countsHoldingDelete(promptsOnly, origin))).toBe(true);
    }
    expect(holdsDelete({ assets: 0, prompts: 0, tables: 0 })).toBe(false);
  });
});
