/**
 * Lineage inheritance rules (document 1 "Providers, semantic enrichment and URN mapping";
 * toolkits.md 5.9), over an in-memory catalog: the order own → column lineage → table lineage,
 * `nearest` and `all`, `inherit`, `column_transforms`, `max_hops`, the caller's deadline and the cache.
 */
import { describe, expect, it } from 'vitest';
import {
  CachedLineageSource,
  inheritanceSources,
  inheritColumnContext,
  maxHopsLimit,
  type ColumnContext,
  type LineageSettings,
  type LineageSource,
  type UpstreamLineage,
} from '../../shared/enrichment/lineage/index.js';

const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:trino,${name},PROD)`;
const col = (name: string, meta: Partial<ColumnContext> = {}): ColumnContext => ({ name, glossary_terms: [], tags: [], ...meta });
const term = (name: string) => ({ urn: `urn:li:glossaryTerm:${name}`, name });

/** A catalog in memory: schemas and direct upstreams by URN, and a log of every read. */
class MemoryCatalog implements LineageSource {
  readonly reads: string[] = [];
  constructor(
    readonly schemas: Record<string, ColumnContext[]>,
    readonly lineage: Record<string, Partial<UpstreamLineage>> = {},
  ) {}
  async datasetColumns(u: string) {
    this.reads.push(`columns ${u}`);
    return this.schemas[u] ?? null;
  }
  async upstreams(u: string) {
    this.reads.push(`upstreams ${u}`);
    return { datasets: [], columns: [], ...this.lineage[u] };
  }
}

const settings = (s: Partial<LineageSettings> = {}): LineageSettings => ({
  enabled: true,
  max_hops: 2,
  inherit: ['descriptions', 'glossary_terms', 'tags'],
  prefer_column_lineage: false,
  conflict_resolution: 'nearest',
  cache_ttl: 600_000,
  timeout: 5_000,
  column_transforms: [],
  ...s,
});

/** Options for a caller with no deadline of its own: a signal that never aborts (the signal is required). */
const noDeadline = () => ({ signal: new AbortController().signal });
const mart = { urn: urn('hive.mart.orders'), name: 'hive.mart.orders' };
const staging = urn('hive.staging.orders');
const raw = urn('hive.raw.orders');
const crm = urn('hive.crm.customers');

/** mart.orders ← staging.orders ← raw.orders (table lineage), plus a column edge customer_id ← crm.customers.id. */
function threeTables(): MemoryCatalog {
  return new MemoryCatalog(
    {
      [staging]: [col('customer_id', { tags: ['staging'] }), col('amount', { description: 'Amount (staging)' })],
      [raw]: [
        col('customer_id', { description: 'Customer key (raw)', tags: ['pii'], glossary_terms: [term('Customer')] }),
        col('amount', { description: 'Amount (raw)', tags: ['money'] }),
        col('status', { description: 'Order status (raw)' }),
      ],
      [crm]: [col('id', { description: 'Customer id (crm)', glossary_terms: [term('CustomerId')] })],
    },
    {
      [mart.urn]: { datasets: [staging], columns: [{ downstream: 'customer_id', upstream: { urn: crm, column: 'id' } }] },
      [staging]: { datasets: [raw] },
    },
  );
}

describe('semantic.lineage inheritance order', () => {
  it('keeps a column’s own metadata and inherits only the kinds it lacks', async () => {
    const own = col('amount', { description: 'Order amount in EUR' });
    const columns = await inheritColumnContext(threeTables(), mart, [own], settings(), noDeadline());
    expect(columns[0]).toEqual({
      name: 'amount',
      description: 'Order amount in EUR',
      glossary_terms: [],
      tags: ['money'],
      inherited_from: { tags: [{ urn: raw, column: 'amount', hops: 2, match_method: 'name_exact' }] },
    });
  });

  it('prefers fine-grained column lineage over table lineage when prefer_column_lineage', async () => {
    const columns = await inheritColumnContext(threeTables(), mart, [col('customer_id')], settings({ prefer_column_lineage: true }), noDeadline());
    expect(columns[0]).toMatchObject({
      description: 'Customer id (crm)',
      glossary_terms: [term('CustomerId')],
      // crm.customers.id has no tags: the nearest table-lineage upstream supplies them
      tags: ['staging'],
      inherited_from: {
        descriptions: [{ urn: crm, column: 'id', hops: 1, match_method: 'column_lineage' }],
        glossary_terms: [{ urn: crm, column: 'id', hops: 1, match_method: 'column_lineage' }],
        tags: [{ urn: staging, column: 'customer_id', hops: 1, match_method: 'name_exact' }],
      },
    });
  });

  it('ignores column lineage without prefer_column_lineage', async () => {
    const columns = await inheritColumnContext(threeTables(), mart, [col('customer_id')], settings(), noDeadline());
    expect(columns[0]).toMatchObject({
      description: 'Customer key (raw)',
      glossary_terms: [term('Customer')],
      tags: ['staging'],
      inherited_from: {
        descriptions: [{ urn: raw, hops: 2 }],
        glossary_terms: [{ urn: raw, hops: 2 }],
        tags: [{ urn: staging, hops: 1 }],
      },
    });
  });

  it('follows column lineage over several hops', async () => {
    const catalog = new MemoryCatalog(
      { [staging]: [col('cust')], [raw]: [col('customer_key', { description: 'From two hops up' })] },
      {
        [mart.urn]: { columns: [{ downstream: 'customer_id', upstream: { urn: staging, column: 'cust' } }] },
        [staging]: { columns: [{ downstream: 'cust', upstream: { urn: raw, column: 'customer_key' } }] },
      },
    );
    const columns = await inheritColumnContext(catalog, mart, [col('customer_id')], settings({ prefer_column_lineage: true, inherit: ['descriptions'] }), noDeadline());
    expect(columns[0]!.description).toBe('From two hops up');
    expect(columns[0]!.inherited_from).toEqual({ descriptions: [{ urn: raw, column: 'customer_key', hops: 2, match_method: 'column_lineage' }] });
  });

  it('nearest: the first hop that has a kind wins', async () => {
    const columns = await inheritColumnContext(threeTables(), mart, [col('amount'), col('status')], settings(), noDeadline());
    expect(columns.map((c) => [c.name, c.description, c.tags])).toEqual([
      ['amount', 'Amount (staging)', ['money']],
      ['status', 'Order status (raw)', []],
    ]);
    expect(columns[0]!.inherited_from!.descriptions).toEqual([{ urn: staging, column: 'amount', hops: 1, match_method: 'name_exact' }]);
  });

  it('all: tags and terms merge from every hop, de-duplicated, each source recorded; the description stays the nearest', async () => {
    const catalog = threeTables();
    catalog.schemas[staging] = [col('customer_id', { tags: ['staging', 'pii'], glossary_terms: [term('Customer')] })];
    const columns = await inheritColumnContext(catalog, mart, [col('customer_id')], settings({ conflict_resolution: 'all', prefer_column_lineage: true }), noDeadline());
    expect(columns[0]).toEqual({
      name: 'customer_id',
      description: 'Customer id (crm)',
      glossary_terms: [term('CustomerId'), term('Customer')],
      tags: ['staging', 'pii'],
      inherited_from: {
        descriptions: [{ urn: crm, column: 'id', hops: 1, match_method: 'column_lineage' }],
        glossary_terms: [
          { urn: crm, column: 'id', hops: 1, match_method: 'column_lineage' },
          { urn: staging, column: 'customer_id', hops: 1, match_method: 'name_exact' },
        ],
        tags: [{ urn: staging, column: 'customer_id', hops: 1, match_method: 'name_exact' }],
      },
    });
    expect(inheritanceSources(columns)).toEqual([crm, staging]);
  });

  it('inherit chooses the kinds: only tags', async () => {
    const columns = await inheritColumnContext(threeTables(), mart, [col('amount')], settings({ inherit: ['tags'] }), noDeadline());
    expect(columns[0]).toEqual({ ...col('amount', { tags: ['money'] }), inherited_from: { tags: [{ urn: raw, column: 'amount', hops: 2, match_method: 'name_exact' }] } });
  });

  it('leaves the columns as they are when lineage is disabled or inherit is empty', async () => {
    const catalog = threeTables();
    for (const s of [settings({ enabled: false }), settings({ inherit: [] })]) {
      const columns = await inheritColumnContext(catalog, mart, [col('amount')], s, noDeadline());
      expect(columns).toEqual([col('amount')]);
    }
    expect(catalog.reads).toEqual([]);
  });

  it('passes the caller’s own column fields through', async () => {
    const columns = await inheritColumnContext(threeTables(), mart, [{ ...col('status'), type: 'varchar' }], settings(), noDeadline());
    expect(columns[0]).toMatchObject({ type: 'varchar', description: 'Order status (raw)' });
  });
});

describe('semantic.lineage.column_transforms', () => {
  const catalog = () => new MemoryCatalog({ [staging]: [col('customer_id', { description: 'Customer key' })] }, { [mart.urn]: { datasets: [staging] } });

  it('strips strip_prefix from a column whose path matches target_pattern before the upstream lookup', async () => {
    const transforms = [{ target_pattern: 'hive.mart.*.raw_*', strip_prefix: 'raw_' }];
    const columns = await inheritColumnContext(catalog(), mart, [col('raw_customer_id')], settings({ column_transforms: transforms }), noDeadline());
    expect(columns[0]).toMatchObject({
      description: 'Customer key',
      inherited_from: { descriptions: [{ urn: staging, column: 'customer_id', hops: 1, match_method: 'name_transformed' }] },
    });
  });

  it('does not apply a transform whose target_pattern does not match the column path', async () => {
    const transforms = [{ target_pattern: 'hive.other.*', strip_prefix: 'raw_' }];
    const columns = await inheritColumnContext(catalog(), mart, [col('raw_customer_id')], settings({ column_transforms: transforms }), noDeadline());
    expect(columns[0]).toEqual(col('raw_customer_id'));
  });
});

describe('semantic.lineage.max_hops', () => {
  /** A chain t0 ← t1 ← … ← t7 where only t<documentedAt> documents `x`. */
  function chain(documentedAt: number): MemoryCatalog {
    const schemas: Record<string, ColumnContext[]> = {};
    const lineage: Record<string, Partial<UpstreamLineage>> = {};
    for (let i = 0; i < 8; i++) {
      schemas[urn(`c.s.t${i}`)] = [col('x', i === documentedAt ? { description: `documented at hop ${i}` } : {})];
      lineage[urn(`c.s.t${i}`)] = { datasets: [urn(`c.s.t${i + 1}`)] };
    }
    return new MemoryCatalog(schemas, lineage);
  }
  const t0 = { urn: urn('c.s.t0'), name: 'c.s.t0' };

  it('does not look past max_hops', async () => {
    expect((await inheritColumnContext(chain(2), t0, [col('x')], settings({ max_hops: 1 }), noDeadline()))[0]!.description).toBeUndefined();
    expect((await inheritColumnContext(chain(2), t0, [col('x')], settings({ max_hops: 2 }), noDeadline()))[0]!.description).toBe('documented at hop 2');
  });

  it(`never follows more than ${maxHopsLimit} hops`, async () => {
    const far = chain(maxHopsLimit + 1);
    expect((await inheritColumnContext(far, t0, [col('x')], settings({ max_hops: 50 }), noDeadline()))[0]!.description).toBeUndefined();
    expect(far.reads.filter((r) => r.startsWith('columns')).length).toBe(maxHopsLimit);
    expect((await inheritColumnContext(chain(maxHopsLimit), t0, [col('x')], settings({ max_hops: 50 }), noDeadline()))[0]!.description).toBe(
      `documented at hop ${maxHopsLimit}`,
    );
  });

  it('stops on a lineage cycle', async () => {
    const a = urn('c.s.a');
    const b = urn('c.s.b');
    const cyclic = new MemoryCatalog({ [a]: [col('x')], [b]: [col('x')] }, { [a]: { datasets: [b] }, [b]: { datasets: [a] } });
    const columns = await inheritColumnContext(cyclic, { urn: a, name: 'c.s.a' }, [col('x')], settings({ max_hops: 5 }), noDeadline());
    expect(columns).toEqual([col('x')]);
    expect(cyclic.reads).toEqual([`upstreams ${a}`, `columns ${b}`, `upstreams ${b}`]);
  });
});

describe('semantic.lineage.timeout is the enrichment deadline, not a timer of inheritance', () => {
  /** threeTables, except that the hop-1 dataset's schema arrives only when released. */
  function gated(): { catalog: MemoryCatalog; asked: Promise<void>; release: () => void } {
    const catalog = threeTables();
    const read = catalog.datasetColumns.bind(catalog);
    let onAsked!: () => void;
    const asked = new Promise<void>((resolve) => (onAsked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    catalog.datasetColumns = async (u: string) => {
      const answer = read(u);
      if (u === staging) {
        onAsked();
        await released;
      }
      return answer;
    };
    return { catalog, asked, release };
  }

  it('the caller’s deadline ends inheritance: it rejects with the deadline’s reason and reads nothing more', async () => {
    const { catalog, asked, release } = gated();
    const deadline = new AbortController();
    const pending = inheritColumnContext(catalog, mart, [col('amount'), col('status')], settings(), { signal: deadline.signal });
    await asked;
    const reason = new Error('enrichment deadline');
    deadline.abort(reason);
    await expect(pending).rejects.toBe(reason);
    const readsAtDeadline = [...catalog.reads];
    // The answer in flight arrives after the deadline: the run stops there instead of reading hop 2.
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(catalog.reads).toEqual(readsAtDeadline);
    expect(catalog.reads).not.toContain(`upstreams ${staging}`);
  });

  it('has no timer of its own, so the deadline is required: a call without one does not type-check', () => {
    // tsc is the proof: with the signal optional this directive would be unused, an error.
    // @ts-expect-error -- no signal: inheritance would have no bound at all
    const unbounded = () => inheritColumnContext(threeTables(), mart, [col('amount')], settings(), {});
    expect(unbounded).toBeTypeOf('function');
  });

  it('an already aborted deadline reads nothing', async () => {
    const catalog = threeTables();
    await expect(inheritColumnContext(catalog, mart, [col('amount')], settings(), { signal: AbortSignal.abort(new Error('late')) })).rejects.toThrow('late');
    expect(catalog.reads).toEqual([]);
  });

  it('treats a failing lookup as no lineage there', async () => {
    const base = threeTables();
    const failing: LineageSource = {
      upstreams: (u) => base.upstreams(u),
      datasetColumns: (u) => (u === staging ? Promise.reject(new Error('catalog down')) : base.datasetColumns(u)),
    };
    const columns = await inheritColumnContext(failing, mart, [col('amount')], settings(), noDeadline());
    expect(columns[0]).toMatchObject({ description: 'Amount (raw)', tags: ['money'] });
  });
});

describe('semantic.lineage.cache_ttl', () => {
  it('reads each dataset once within cache_ttl, again after it', async () => {
    let now = 0;
    const catalog = threeTables();
    const cached = new CachedLineageSource(catalog, { ttlMs: 600_000, clock: () => now });
    const first = await inheritColumnContext(cached, mart, [col('amount')], settings(), noDeadline());
    const reads = catalog.reads.length;
    const second = await inheritColumnContext(cached, mart, [col('amount')], settings(), noDeadline());
    expect(second).toEqual(first);
    expect(catalog.reads.length).toBe(reads);
    now = 600_000;
    await inheritColumnContext(cached, mart, [col('amount')], settings(), noDeadline());
    expect(catalog.reads.length).toBe(2 * reads);
  });

  it('shares a lookup in flight and does not remember a failure', async () => {
    let calls = 0;
    let fail = true;
    const source: LineageSource = {
      upstreams: async () => ({ datasets: [], columns: [] }),
      datasetColumns: async () => {
        calls++;
        if (fail) throw new Error('catalog down');
        return [col('x')];
      },
    };
    const cached = new CachedLineageSource(source, { ttlMs: 60_000, clock: () => 0 });
    const both = await Promise.allSettled([cached.datasetColumns('u'), cached.datasetColumns('u')]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    fail = false;
    expect(await cached.datasetColumns('u')).toEqual([col('x')]);
    expect(calls).toBe(2);
  });

  it('holds at most maxEntries answers of a kind, dropping the oldest', async () => {
    const catalog = threeTables();
    const cached = new CachedLineageSource(catalog, { ttlMs: 60_000, maxEntries: 2, clock: () => 0 });
    for (const u of [staging, raw, staging, crm, staging]) await cached.datasetColumns(u);
    expect(catalog.reads).toEqual([`columns ${staging}`, `columns ${raw}`, `columns ${crm}`, `columns ${staging}`]);
  });
});
