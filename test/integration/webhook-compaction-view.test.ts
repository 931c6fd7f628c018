/**
 * The view of a webhook source while its windows are compacted (issue 15, acceptance "no window
 * missing or served twice in the view at any moment of a compaction"; spec document 3, "Webhook
 * table"). Events with known ids — some sent twice — are ingested over HTTP into three windows
 * (injected receiver clock); compactWindow runs on them while another loop queries
 * `count(*), count(DISTINCT event_id) … GROUP BY window` through the engine without pause.
 *
 * The invariant of every sample: each window shows exactly its acknowledged ids, each once —
 * before its compaction (raw), after it, while a recompaction registers its new version beside the
 * old one, and for events acknowledged after its last compaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawWindowPrefix } from '../../shared/webhooks/layout.js';
import { compactWindow, type CompactionTarget } from '../../shared/webhooks/index.js';
import { applyRetention } from '../../shared/webhooks/retention.js';
import { START, startHarness, type Harness } from './webhook-compaction-fixtures.js';

const MINUTES = ['15', '20', '25'] as const;
type Minute = (typeof MINUTES)[number];
const windowOf = (minute: string) => ({ dt: '2026-03-02', hour: '10', minute });

/** What was acknowledged in one window: its ids (some sent twice). */
interface Sent {
  ids: Set<string>;
}

/** One window as a sample of the view saw it. */
interface Seen {
  rows: number;
  ids: number;
}

describe.each(['duckdb', 'trino'] as const)('the view while windows are compacted on %s', (engine) => {
  let h: Harness;
  const sent = new Map<Minute, Sent>(MINUTES.map((m) => [m, { ids: new Set() }]));

  const post = async (minute: Minute, offsetMs: number, id: string) => {
    h.clock.now = START + MINUTES.indexOf(minute) * 5 * 60_000 + offsetMs;
    expect(await h.post({ id, minute })).toBe(202);
    sent.get(minute)!.ids.add(id);
  };
  const target = (minute: Minute): CompactionTarget => ({ source: h.source, window: windowOf(minute) });

  /** Every window's rows and distinct ids in the view, in one query. */
  async function sample(): Promise<Map<string, Seen>> {
    const rows = await h.query(`SELECT minute, count(*) AS n, count(DISTINCT event_id) AS d FROM ${h.view} GROUP BY minute`);
    return new Map(rows.map((r) => [String(r.minute), { rows: Number(r.n), ids: Number(r.d) }]));
  }

  /** The ids the view shows for a window. */
  const idsOf = async (minute: Minute) =>
    (await h.query(`SELECT DISTINCT event_id FROM ${h.view} WHERE minute = '${minute}' ORDER BY event_id`)).map((r) => String(r.event_id));

  /**
   * Samples the view without pause until `work` settles; every sample is checked against the
   * windows compacted (their compaction finished) before it started. Answers the samples taken.
   */
  async function sampleWhile(work: (compacted: Set<Minute>) => Promise<unknown>, compacted: Set<Minute>): Promise<number> {
    let done = false;
    let samples = 0;
    const check = async () => {
      const settled = new Set(compacted);
      const seen = await sample();
      samples += 1;
      for (const [minute, window] of sent) {
        const got = seen.get(minute);
        const context = `window ${minute}, sample ${samples}, compacted before it: ${[...settled].join(',') || 'none'}`;
        expect(got, context).toEqual({ rows: window.ids.size, ids: window.ids.size });
      }
    };
    const sampler = (async () => {
      while (!done) await check();
    })();
    try {
      await work(compacted);
    } finally {
      done = true;
      await sampler;
    }
    await check();
    return samples;
  }

  beforeAll(async () => {
    h = await startHarness(engine);
    // Each window: ids a..d, b and d sent twice (later, another segment) — 6 raw rows, 4 ids.
    for (const minute of MINUTES) {
      for (const [offset, id] of [
        [1_000, 'a'],
        [2_000, 'b'],
        [3_000, 'c'],
        [4_000, 'b'],
        [5_000, 'd'],
        [6_000, 'd'],
      ] as const) {
        await post(minute, offset, `${minute}-${id}`);
      }
    }
  }, 180_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('every sample while the windows are compacted shows each window with each acknowledged id once: from raw, then from Parquet', async () => {
    const compacted = new Set<Minute>();
    const before = await sample();
    expect([...before].sort()).toEqual(MINUTES.map((m) => [m, { rows: 4, ids: 4 }]));
    const samples = await sampleWhile(
      (done) =>
        Promise.all(
          MINUTES.map(async (minute) => {
            const result = await compactWindow(h.deps, target(minute));
            expect(result).toMatchObject({ version: 1, events: 4, duplicatesDropped: 2 });
            done.add(minute);
          }),
        ),
      compacted,
    );
    expect(samples).toBeGreaterThan(1);
    expect(await h.compactedPartitions()).toEqual(MINUTES.map((m) => ['2026-03-02', '10', m, '1']));
  }, 120_000);

  it('an event acknowledged into a window already compacted is queryable at once (spec: "every event is queryable once acknowledged")', async () => {
    await compactWindow(h.deps, target('15'));
    await post('15', 7_000, '15-late-e');
    expect(await idsOf('15')).toEqual([...sent.get('15')!.ids].sort());
  });

  it('a recompaction after late segments never shows a window twice: every sample reads each id once, the late ones included', async () => {
    // A late new event and a late duplicate of a compacted id into 10:20, a late duplicate into 10:15.
    await post('20', 7_000, '20-late-f');
    await post('20', 8_000, '20-a');
    await post('15', 8_000, '15-a');
    const compacted = new Set<Minute>(MINUTES);
    const samples = await sampleWhile(async () => {
      const results = await Promise.all((['15', '20'] as const).map((m) => compactWindow(h.deps, target(m))));
      expect(results.map((r) => r.version)).toEqual([2, 2]);
    }, compacted);
    expect(samples).toBeGreaterThan(1);
    expect(await h.compactedPartitions()).toEqual([
      ['2026-03-02', '10', '15', '2'],
      ['2026-03-02', '10', '20', '2'],
      ['2026-03-02', '10', '25', '1'],
    ]);
  }, 120_000);

  it('an event landing after retention removed the raw segments of its compacted window is queryable at once; a query while its recompaction has both versions registered sees the window whole, each id once', async () => {
    // 10:25 compacted (its record as the compaction activity leaves it), then raw retention removes its segments.
    await h.db.query(
      `UPDATE webhook_windows SET compacted_seq = landed_seq, compacted_at = now() WHERE source_id = $1 AND minute = '25'`,
      [h.source.id],
    );
    const retention = { windows: h.webhooks.windows, storage: h.deps.storage, tables: h.webhooks.tables, resources: h.resources };
    const source = { ...h.source, rawRetentionDays: 0, compactedRetentionDays: 0 };
    expect(await applyRetention(retention, source, Date.UTC(2026, 3, 1))).toMatchObject({ rawRemoved: 1, windowsRemoved: 0 });
    const { storage } = h.deps;
    expect((await storage.connection.store.listObjects(storage.bucket, { prefix: rawWindowPrefix(h.source.name, windowOf('25')) })).objects).toEqual([]);
    await post('25', 9_000, '25-late-g');
    expect(await idsOf('25')).toEqual([...sent.get('25')!.ids].sort());

    // Observes the view right between the two steps of the move: version 2 registered, version 1 not yet unregistered.
    const dialect = h.scratch.dialect;
    const unregister = dialect.unregisterPartition.bind(dialect);
    let between: Seen | undefined;
    let partitionsBetween: string[][] = [];
    dialect.unregisterPartition = async (table, values) => {
      if (table.name.endsWith('_compacted')) {
        between = (await sample()).get('25');
        partitionsBetween = await h.compactedPartitions();
      }
      return unregister(table, values);
    };
    try {
      expect(await compactWindow(h.deps, target('25'))).toMatchObject({ version: 2, events: 5 });
    } finally {
      dialect.unregisterPartition = unregister;
    }
    expect(partitionsBetween.filter((p) => p[2] === '25')).toEqual([
      ['2026-03-02', '10', '25', '1'],
      ['2026-03-02', '10', '25', '2'],
    ]);
    expect(between).toEqual({ rows: 5, ids: 5 });
    expect(await idsOf('25')).toEqual([...sent.get('25')!.ids].sort());
  }, 120_000);
});
