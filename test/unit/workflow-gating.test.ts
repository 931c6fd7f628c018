import { describe, expect, it } from 'vitest';
import { gatingNotice, memoryGatingStore } from '../../shared/workflow-gating/index.js';

const settings = {
  require_discovery_before_query: true,
  discovery_tools: ['catalog_*'],
  query_tools: ['sql_query'],
  warning_message: 'warn',
  escalation: { after_warnings: 3, escalation_message: 'escalate {count} ({count})' },
};

describe('gatingNotice', () => {
  it.each([
    [{ discovered: true, undiscoveredQueries: 9 }, undefined],
    [{ discovered: false, undiscoveredQueries: 1 }, 'warn'],
    [{ discovered: false, undiscoveredQueries: 3 }, 'warn'],
    [{ discovered: false, undiscoveredQueries: 4 }, 'escalate 4 (4)'],
  ])('%j → %s', (state, notice) => expect(gatingNotice(state, settings)).toBe(notice));
});

describe('memoryGatingStore', () => {
  it('counts per key, stops counting after discovery, and forgets idle keys', async () => {
    let now = 0;
    const store = memoryGatingStore(1000, () => now);
    expect(await store.countQuery('a')).toEqual({ discovered: false, undiscoveredQueries: 1 });
    expect(await store.countQuery('a')).toEqual({ discovered: false, undiscoveredQueries: 2 });
    expect(await store.countQuery('b')).toEqual({ discovered: false, undiscoveredQueries: 1 });
    await store.markDiscovery('a');
    expect(await store.countQuery('a')).toEqual({ discovered: true, undiscoveredQueries: 2 });
    now = 5000;
    expect(await store.countQuery('a')).toEqual({ discovered: false, undiscoveredQueries: 1 });
  });
});
