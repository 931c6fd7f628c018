/**
 * Session de-duplication (document 1 injection.session_dedup.*, toolkits.md 5.4) with the memory
 * store: each mode across two calls, entry_ttl and session_timeout on an injected clock, bounds,
 * and what a repeat's block holds.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  applyDedup,
  createSessionDedup,
  markWaitMs,
  maxDedupKeyLength,
  maxDedupTablesPerCall,
  MemoryDedupStore,
  SessionDedup,
  type DedupMark,
  type DedupSettings,
  type DedupStore,
  type SentExtent,
  type SentTable,
} from '../../shared/enrichment/dedup/index.js';
import { parseConfig } from '../../shared/config/index.js';

const minute = 60_000;
const settings = (s: Partial<DedupSettings> = {}): DedupSettings => ({
  enabled: true,
  mode: 'reference',
  entry_ttl: 5 * minute,
  session_timeout: 30 * minute,
  ...s,
});

/** A full SQL-path block as toolkits.md 5.2 shapes it. */
const fullBlock = {
  semantic_context: {
    urn: 'urn:li:dataset:(urn:li:dataPlatform:trino,hive.mart.orders,PROD)',
    description: 'Orders',
    owners: [{ urn: 'urn:li:corpuser:ana', type: 'TECHNICAL_OWNER' }],
    tags: ['gold', 'PII-contains', 'quality:bronze'],
    domain: { urn: 'urn:li:domain:sales', name: 'Sales' },
    quality_score: 0.62,
    deprecation: { deprecated: true, note: 'use orders_v2' },
    active_incidents: 2,
    data_contract: { status: 'FAILING' },
  },
  column_context: {
    email: { description: 'Email', glossary_terms: [], tags: ['pii'], is_pii: true, is_sensitive: false },
    amount: { description: 'Amount', glossary_terms: [], tags: ['money'], is_pii: false, is_sensitive: false },
    ssn: { description: '', glossary_terms: [], tags: ['Confidential'], is_pii: false, is_sensitive: true },
  },
};

/** A table of connection `trino-a` sent at `extent`. */
const sent = (table: string, extent: SentExtent = 'full', connection = 'trino-a'): SentTable => ({ connection, table, extent });
const full = (tables: readonly string[]) => tables.map((t) => sent(t));

/** Marks one table sent in full (or at `extent`): the call's only mark. */
async function mark(dedup: SessionDedup, session: string, table: string, now: number, extent: SentExtent = 'full'): Promise<DedupMark> {
  return (await dedup.markSent(session, [sent(table, extent)], now))[0]!;
}

/** What the injection middleware does for a call whose one table goes out in full. */
async function send(dedup: SessionDedup, session: string, table: string, now: number) {
  return applyDedup(fullBlock, await dedup.markSent(session, [sent(table)], now), dedup.mode);
}

describe('injection.session_dedup.mode across two calls', () => {
  it('reference: the repeat gets a metadata_reference saying when the full block went out', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    expect(await send(dedup, 's1', 'hive.mart.orders', 1_000)).toBe(fullBlock);
    expect(await send(dedup, 's1', 'hive.mart.orders', 2_000)).toEqual({
      metadata_reference: {
        tables: ['hive.mart.orders'],
        sent_at: '1970-01-01T00:00:01.000Z',
        note: 'Full catalog metadata for hive.mart.orders was sent earlier in this session (at 1970-01-01T00:00:01.000Z); it is not repeated.',
      },
    });
  });

  it('summary: the repeat gets a compact_context of the critical facts only', async () => {
    const dedup = new SessionDedup(settings({ mode: 'summary' }), new MemoryDedupStore());
    expect(await send(dedup, 's1', 'orders', 0)).toBe(fullBlock);
    expect(await send(dedup, 's1', 'orders', 1)).toEqual({
      compact_context: {
        urn: fullBlock.semantic_context.urn,
        domain: 'Sales',
        deprecation: { deprecated: true, note: 'use orders_v2' },
        quality_score: 0.62,
        critical_tags: ['PII-contains', 'quality:bronze'],
        critical_columns: ['email', 'ssn'],
        active_incidents: 2,
        data_contract: { status: 'FAILING' },
      },
      tables: ['orders'],
      note: 'Summary only: full catalog metadata for orders was sent earlier in this session (at 1970-01-01T00:00:00.000Z).',
    });
  });

  it('summary leaves out what has nothing to say', () => {
    const repeat: DedupMark = { first: false, table: 't', extent: 'full', firstSeenAt: 0 };
    const plain = { semantic_context: { urn: 'u', tags: ['gold'], deprecation: { deprecated: false }, quality_score: null, active_incidents: 0, data_contract: { status: 'PASSING' } } };
    expect(applyDedup(plain, repeat, 'summary')).toMatchObject({ compact_context: { urn: 'u' } });
    expect(Object.keys((applyDedup(plain, repeat, 'summary') as { compact_context: object }).compact_context)).toEqual(['urn']);
  });

  it('none: the full block every time, and nothing is stored', async () => {
    const store = new MemoryDedupStore();
    const dedup = new SessionDedup(settings({ mode: 'none' }), store);
    expect(await send(dedup, 's1', 'orders', 0)).toBe(fullBlock);
    expect(await send(dedup, 's1', 'orders', 1)).toBe(fullBlock);
    expect(store.size).toBe(0);
  });

  it('enabled: false sends the full block every time', async () => {
    const dedup = new SessionDedup(settings({ enabled: false }), new MemoryDedupStore());
    expect(await mark(dedup, 's1', 'orders', 0)).toEqual({ first: true });
    expect(await mark(dedup, 's1', 'orders', 1)).toEqual({ first: true });
  });

  it('keeps sessions apart and tables apart', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    expect(await mark(dedup, 's1', 'orders', 0)).toEqual({ first: true });
    expect(await mark(dedup, 's2', 'orders', 0)).toEqual({ first: true });
    expect(await mark(dedup, 's1', 'customers', 0)).toEqual({ first: true });
    expect(await mark(dedup, 's1', 'orders', 0)).toMatchObject({ first: false });
  });
});

describe('a call naming several tables', () => {
  it('is a repeat only when every table was sent: one reference block for all of them', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    await dedup.markSent('s1', full(['orders']), 1_000);
    await dedup.markSent('s1', full(['customers']), 2_000);
    const marks = await dedup.markSent('s1', full(['orders', 'customers', 'orders']), 3_000);
    expect(marks.map((m) => m.first)).toEqual([false, false]);
    expect(applyDedup(fullBlock, marks, 'reference')).toEqual({
      metadata_reference: {
        tables: ['orders', 'customers'],
        sent_at: '1970-01-01T00:00:01.000Z',
        note: 'Full catalog metadata for orders, customers was sent earlier in this session (from 1970-01-01T00:00:01.000Z); it is not repeated.',
      },
    });
    expect(applyDedup(fullBlock, marks, 'summary')).toMatchObject({ tables: ['orders', 'customers'], compact_context: { domain: 'Sales' } });
  });

  it('otherwise sends everything in full and counts the tables already sent as sent again', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    await dedup.markSent('s1', full(['orders']), 0);
    const marks = await dedup.markSent('s1', full(['orders', 'customers']), 4 * minute);
    expect(marks).toEqual([{ first: true }, { first: true }]);
    expect(applyDedup(fullBlock, marks, 'reference')).toBe(fullBlock);
    // orders went out again at 4 min: it is a repeat until 9 min, sent at 4 min
    expect(await mark(dedup, 's1', 'orders', 8 * minute)).toEqual({ first: false, table: 'orders', extent: 'full', firstSeenAt: 4 * minute });
  });

  it('a mixed set of marks gets the full block', () => {
    const marks: DedupMark[] = [{ first: true }, { first: false, table: 't', extent: 'full', firstSeenAt: 0 }];
    expect(applyDedup(fullBlock, marks, 'summary')).toBe(fullBlock);
    expect(applyDedup(fullBlock, [], 'reference')).toBe(fullBlock);
  });
});

describe('5.4 what a block sent: per connection and per extent', () => {
  it('a join partner’s brief entry covers a later brief entry only; a full send covers every lesser extent', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    await dedup.markSent('s1', [sent('orders'), sent('customers', 'brief')], 0);
    expect(await mark(dedup, 's1', 'customers', 1, 'filtered')).toEqual({ first: true });
    expect(await mark(dedup, 's1', 'customers', 2, 'brief')).toMatchObject({ first: false, extent: 'brief' });
    expect(await mark(dedup, 's1', 'orders', 3, 'filtered')).toMatchObject({ first: false, firstSeenAt: 0 });
    expect(await mark(dedup, 's1', 'orders', 4, 'brief')).toMatchObject({ first: false });
  });

  it('a filtered context does not count as the full one (the describe path), the full one counts as filtered', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    await mark(dedup, 's1', 'orders', 0, 'filtered');
    expect((await mark(dedup, 's1', 'orders', 1)).first).toBe(true);
    expect((await mark(dedup, 's1', 'orders', 2, 'filtered')).first).toBe(false);
    expect((await mark(dedup, 's1', 'orders', 3)).first).toBe(false);
  });

  it('a repeat of a call with a join partner says which part of it went out', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    const call = [sent('orders'), sent('customers', 'brief')];
    await dedup.markSent('s1', call, 1_000);
    expect(applyDedup(fullBlock, await dedup.markSent('s1', call, 2_000), 'reference')).toEqual({
      metadata_reference: {
        tables: ['orders', 'customers'],
        sent_at: '1970-01-01T00:00:01.000Z',
        note: 'Full catalog metadata for orders and the additional_tables entry for customers was sent earlier in this session (from 1970-01-01T00:00:01.000Z); it is not repeated.',
      },
    });
  });

  it('a repeat says how fully each table went out: every column, the statement’s columns (and where the rest are), or the entry', () => {
    const repeat = (table: string, extent: SentExtent): DedupMark => ({ first: false, table, extent, firstSeenAt: 0 });
    const note = (marks: DedupMark[]) => (applyDedup(fullBlock, marks, 'reference') as { metadata_reference: { note: string } }).metadata_reference.note;
    const summary = (marks: DedupMark[]) => (applyDedup(fullBlock, marks, 'summary') as { note: string }).note;
    const at = '1970-01-01T00:00:00.000Z';
    expect(note([repeat('orders', 'full')])).toBe(`Full catalog metadata for orders was sent earlier in this session (at ${at}); it is not repeated.`);
    expect(note([repeat('orders', 'filtered')])).toBe(
      `Catalog metadata (columns filtered to the statement) for orders was sent earlier in this session (at ${at}); it is not repeated. sql_describe_table gives every column.`,
    );
    expect(note([repeat('orders', 'filtered'), repeat('customers', 'brief')])).toBe(
      `Catalog metadata (columns filtered to the statement) for orders and the additional_tables entry for customers was sent earlier in this session (from ${at}); it is not repeated. sql_describe_table gives every column.`,
    );
    expect(note([repeat('customers', 'brief')])).toBe(`The additional_tables entry for customers was sent earlier in this session (at ${at}); it is not repeated.`);
    expect(summary([repeat('orders', 'filtered')])).toBe(
      `Summary only: catalog metadata (columns filtered to the statement) for orders was sent earlier in this session (at ${at}). sql_describe_table gives every column.`,
    );
    expect(summary([repeat('orders', 'full')])).toBe(`Summary only: full catalog metadata for orders was sent earlier in this session (at ${at}).`);
  });

  it('the same table on two connections is two tables, and repeats name it as written (never with the connection)', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    await dedup.markSent('s1', [sent('sales.orders', 'full', 'trino-a')], 0);
    expect(await dedup.markSent('s1', [sent('sales.orders', 'full', 'trino-b')], 1)).toEqual([{ first: true }]);
    const marks = await dedup.markSent('s1', [sent('sales.orders', 'full', 'trino-b')], 2);
    expect(marks).toEqual([{ first: false, table: 'sales.orders', extent: 'full', firstSeenAt: 1 }]);
    expect(applyDedup(fullBlock, marks, 'reference')).toMatchObject({ metadata_reference: { tables: ['sales.orders'] } });
  });

  it('a table that cannot be stored makes the call a first, and the others of the block are still recorded', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    const long = 'x'.repeat(maxDedupKeyLength + 1);
    expect(await dedup.markSent('s1', [sent('orders'), sent(long, 'brief')], 0)).toEqual([{ first: true }, { first: true }]);
    expect((await mark(dedup, 's1', 'orders', 1)).first).toBe(false);
  });
});

describe('injection.session_dedup.entry_ttl and session_timeout', () => {
  it('sends the full block again once the entry is older than entry_ttl', async () => {
    const dedup = new SessionDedup(settings(), new MemoryDedupStore());
    expect((await mark(dedup, 's1', 'orders', 0)).first).toBe(true);
    expect(await mark(dedup, 's1', 'orders', 5 * minute - 1)).toEqual({ first: false, table: 'orders', extent: 'full', firstSeenAt: 0 });
    expect((await mark(dedup, 's1', 'orders', 5 * minute)).first).toBe(true);
    expect(await mark(dedup, 's1', 'orders', 6 * minute)).toMatchObject({ first: false, firstSeenAt: 5 * minute });
  });

  it('forgets a session idle for session_timeout, even when its entries would still be live', async () => {
    const dedup = new SessionDedup(settings({ entry_ttl: 60 * minute, session_timeout: 10 * minute }), new MemoryDedupStore());
    await mark(dedup, 's1', 'orders', 0);
    expect((await mark(dedup, 's1', 'orders', 9 * minute)).first).toBe(false);
    // active at 9 min: idle from then on
    expect((await mark(dedup, 's1', 'orders', 18 * minute)).first).toBe(false);
    expect((await mark(dedup, 's1', 'orders', 28 * minute)).first).toBe(true);
  });

  it('drops idle sessions from memory as other sessions are marked', async () => {
    const store = new MemoryDedupStore();
    const dedup = new SessionDedup(settings(), store);
    await mark(dedup, 's1', 'orders', 0);
    await mark(dedup, 's2', 'orders', 20 * minute);
    expect(store.size).toBe(2);
    await mark(dedup, 's3', 'orders', 31 * minute);
    expect(store.size).toBe(2);
  });
});

describe('session de-duplication bounds', () => {
  it(`marks at most ${maxDedupTablesPerCall} distinct tables of a call: one naming more is sent in full, its first ones recorded`, async () => {
    const store = new MemoryDedupStore();
    const marked: string[] = [];
    const counted: DedupStore = {
      mark: (session, key, now, limits) => (marked.push(key), store.mark(session, key, now, limits)),
      renew: (session, keys, now, limits) => store.renew(session, keys, now, limits),
      forget: (session) => store.forget(session),
    };
    const dedup = new SessionDedup(settings(), counted);
    const tables = Array.from({ length: maxDedupTablesPerCall + 8 }, (_, i) => sent(`t${i}`, 'brief'));
    expect(await dedup.markSent('s1', tables, 0)).toEqual(tables.map(() => ({ first: true })));
    expect(await dedup.markSent('s1', tables, 1)).toEqual(tables.map(() => ({ first: true })));
    expect(marked).toEqual([]);
    const within = await dedup.markSent('s1', tables.slice(0, maxDedupTablesPerCall), 2);
    expect(within.every((m) => !m.first)).toBe(true);
    expect(marked).toHaveLength(maxDedupTablesPerCall);
  });

  it(`answers "first" when the store has not decided within ${markWaitMs} ms, and logs it`, async () => {
    vi.useFakeTimers();
    try {
      const warnings: string[] = [];
      const stuck: DedupStore = { mark: () => new Promise(() => {}), renew: () => new Promise(() => {}), forget: async () => {} };
      const dedup = new SessionDedup(settings(), stuck, { warn: (_o, msg) => warnings.push(msg) });
      let decided: DedupMark[] | undefined;
      void dedup.markSent('s1', full(['orders', 'customers']), 0).then((marks) => (decided = marks));
      await vi.advanceTimersByTimeAsync(markWaitMs - 1);
      expect(decided).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(decided).toEqual([{ first: true }, { first: true }]);
      expect(warnings).toEqual(['session de-duplication store slow: sending full context']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds a bounded number of sessions and tables per session (one entry per table and extent)', async () => {
    const store = new MemoryDedupStore({ maxSessions: 2, maxEntriesPerSession: 2 });
    const dedup = new SessionDedup(settings(), store);
    const brief = (session: string, table: string, now: number) => mark(dedup, session, table, now, 'brief');
    for (const table of ['a', 'b', 'c']) await brief('s1', table, 0);
    expect((await brief('s1', 'a', 1)).first).toBe(true); // a was the oldest of three
    expect((await brief('s1', 'c', 1)).first).toBe(false);
    await brief('s2', 'x', 2);
    await brief('s3', 'x', 3);
    expect(store.size).toBe(2);
    expect((await brief('s1', 'c', 4)).first).toBe(true); // s1 was the least recently active
    // A table sent in full is three entries (full, filtered, brief): with room for two, its oldest goes.
    await mark(dedup, 's4', 'orders', 5);
    expect((await brief('s4', 'orders', 6)).first).toBe(true);
  });

  it('never records an empty or over-long key', async () => {
    const store = new MemoryDedupStore();
    const dedup = new SessionDedup(settings(), store);
    const long = 'x'.repeat(maxDedupKeyLength + 1);
    for (const key of ['', long, '', long]) expect(await mark(dedup, 's1', key, 0)).toEqual({ first: true });
    expect(store.size).toBe(0);
  });

  it('answers "first" when the store fails, and logs it', async () => {
    const warnings: string[] = [];
    const broken: DedupStore = { mark: () => Promise.reject(new Error('database away')), renew: () => Promise.reject(new Error('database away')), forget: async () => {} };
    const dedup = new SessionDedup(settings(), broken, { warn: (_o, msg) => warnings.push(msg) });
    expect(await mark(dedup, 's1', 'orders', 0)).toEqual({ first: true });
    expect(warnings).toEqual(['session de-duplication store failed: sending full context']);
  });
});

describe('createSessionDedup', () => {
  it('takes entry_ttl from semantic.cache.ttl and session_timeout from the streamable session timeout by default', async () => {
    const { config } = parseConfig('semantic:\n  cache:\n    ttl: 2m\nserver:\n  streamable:\n    session_timeout: 7m\n', {});
    expect(config.injection.session_dedup).toEqual({ enabled: true, mode: 'reference', entry_ttl: 2 * minute, session_timeout: 7 * minute });
    const dedup = createSessionDedup(config, undefined);
    await mark(dedup, 's1', 'orders', 0);
    expect((await mark(dedup, 's1', 'orders', 2 * minute - 1)).first).toBe(false);
    expect((await mark(dedup, 's1', 'orders', 4 * minute)).first).toBe(true);
  });

  it('refuses database sessions without a database', () => {
    const { config } = parseConfig('', {});
    expect(() => createSessionDedup({ ...config, sessions: { ...config.sessions, store: 'database' } }, undefined)).toThrow(/platform database/);
  });
});
