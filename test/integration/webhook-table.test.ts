/**
 * The webhook table (spec document 3, "Webhook table"; issue 14 item 4) on both engines: the view
 * `webhook_{source}` has exactly the spec's columns, reads raw segments of a window until its
 * compacted partition is registered and the compacted file after — never missing, never twice —
 * and `json_extract_scalar(payload, '$.field')` reads payloads on both.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentKey, segmentLine, tableTimestamp, windowOf, windowValues, type WebhookRow } from '../../shared/webhooks/layout.js';
import { WebhookTableCatalog } from '../../shared/webhooks/table.js';
import { duckdbRig, putParquet, trinoRig, type ScratchRig } from '../support/scratch-rigs.js';

const spec = [
  ['received_at', /^timestamp(\(6\))?$/i],
  ['landed_at', /^timestamp(\(6\))?$/i],
  ['event_id', /^varchar$/i],
  ['event_type', /^varchar$/i],
  ['key', /^varchar$/i],
  ['content_hash', /^varchar$/i],
  ['replica', /^varchar$/i],
  ['payload', /^varchar$/i],
  ['dt', /^varchar$/i],
  ['hour', /^varchar$/i],
  ['minute', /^varchar$/i],
] as const;

const row = (id: string, receivedAtMs: number, body: object): WebhookRow => ({
  receivedAtMs,
  eventId: id,
  eventType: 'order.created',
  key: `k-${id}`,
  contentHash: `h-${id}`,
  payload: JSON.stringify(body),
});

describe.each([
  ['trino', trinoRig, 'cluster'],
  ['duckdb', duckdbRig, 'local'],
] as const)('webhook table on %s', (_engine, start, connection) => {
  let rig: ScratchRig;
  let tables: WebhookTableCatalog;
  const source = { name: `orders-${randomBytes(2).toString('hex')}`, connection };
  const view = () => tables.scratch(source).relation(tables.names(source).view);

  async function writeSegment(rows: WebhookRow[], sequence: number): Promise<void> {
    const w = windowOf(rows[0]!.receivedAtMs, 60);
    const lines = rows.map((r) => segmentLine(r, r.receivedAtMs + 5, 'replica-a')).join('\n') + '\n';
    await rig.storage.connection.store.putObject(rig.storage.bucket, segmentKey(source.name, w, 'replica-a', 1_000, sequence), gzipSync(lines));
    await tables.registerRawWindow(source, w);
  }

  beforeAll(async () => {
    rig = await start();
    tables = new WebhookTableCatalog(rig.sql, rig.storage);
    await tables.create(source);
    await tables.create(source); // again: nothing changes
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('has exactly the spec columns, and an acknowledged event is read from raw at once', async () => {
    const t = Date.UTC(2026, 10, 22, 10, 15, 30, 123);
    await writeSegment([row('a1', t, { order: { id: 7, total: 12.5 }, status: 'new' }), row('a2', t + 1, { status: 'paid' })], 1);
    const r = await rig.call('sql_query', `SELECT * FROM ${view()} ORDER BY event_id`);
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { columns: Array<{ name: string; type: string }>; rows: Array<Record<string, unknown>> };
    expect(out.columns.map((c) => c.name)).toEqual(spec.map(([name]) => name));
    out.columns.forEach((c, i) => expect(c.type).toMatch(spec[i]![1]));
    expect(out.rows[0]).toMatchObject({
      event_id: 'a1',
      event_type: 'order.created',
      key: 'k-a1',
      content_hash: 'h-a1',
      replica: 'replica-a',
      dt: '2026-11-22',
      hour: '10',
      minute: '00',
    });
    const payloads = await rig.query(
      `SELECT event_id, json_extract_scalar(payload, '$.status') AS status, json_extract_scalar(payload, '$.order.id') AS order_id, ` +
        `json_extract_scalar(payload, '$.order') AS whole, CAST(received_at AS VARCHAR) AS received FROM ${view()} ORDER BY event_id`,
    );
    // Trino prints all six fractional digits, DuckDB drops trailing zeros.
    const micros = (v: unknown) => String(v).replace(/\.?0+$/, '');
    expect(payloads.map((p) => ({ ...p, received: micros(p.received) }))).toEqual([
      { event_id: 'a1', status: 'new', order_id: '7', whole: null, received: micros(tableTimestamp(t)) },
      { event_id: 'a2', status: 'paid', order_id: null, whole: null, received: micros(tableTimestamp(t + 1)) },
    ]);
  });

  it('a window shows each event id once, the earliest received: from raw, from compacted once registered, and late raw events beside it', async () => {
    const hour11 = Date.UTC(2026, 10, 22, 11, 5);
    const hour12 = Date.UTC(2026, 10, 22, 12, 5);
    await writeSegment([row('b1', hour11, {}), row('b2', hour11 + 1, {}), row('b1', hour11 + 2, {})], 2);
    await writeSegment([row('c1', hour12, {})], 3);
    const ids = async () => (await rig.query(`SELECT event_id, hour FROM ${view()} WHERE hour IN ('11', '12') ORDER BY event_id, hour`)).map((r) => `${String(r.event_id)}@${String(r.hour)}`);
    // Raw is read de-duplicated: b1 once, the copy received first.
    expect(await ids()).toEqual(['b1@11', 'b2@11', 'c1@12']);
    const firstB1 = await rig.query(`SELECT CAST(received_at AS VARCHAR) AS at FROM ${view()} WHERE event_id = 'b1'`);
    expect(firstB1.map((r) => String(r.at).slice(0, 19))).toEqual([tableTimestamp(hour11).slice(0, 19)]);

    // The compactor's file for hour 11: the earliest b1 and b2, de-duplicated.
    const names = tables.names(source);
    const where = { bucket: rig.storage.bucket, prefix: `compacted-test/${source.name}/11/` };
    const ts = (ms: number) => `TIMESTAMP '${tableTimestamp(ms)}'`;
    await putParquet(
      rig,
      where,
      '11-00.parquet',
      `SELECT * FROM (VALUES (${ts(hour11)}, ${ts(hour11 + 5)}, 'b1', 'order.created', 'k-b1', 'h-b1', 'replica-a', '{}', '2026-11-22', '11', '00'), ` +
        `(${ts(hour11 + 1)}, ${ts(hour11 + 6)}, 'b2', 'order.created', 'k-b2', 'h-b2', 'replica-a', '{}', '2026-11-22', '11', '00')) ` +
        `AS t(received_at, landed_at, event_id, event_type, "key", content_hash, replica, payload, dt, hour, minute)`,
    );
    await tables.registerCompactedWindow(source, windowOf(hour11, 60), 1, where);
    expect(await tables.scratch(source).listPartitions(names.compacted, windowValues(windowOf(hour11, 60)))).toEqual([['2026-11-22', '11', '00', '1']]);
    expect(await ids()).toEqual(['b1@11', 'b2@11', 'c1@12']);
    // Landed after the compaction: read from raw beside the Parquet file until the next one.
    await writeSegment([row('b3', hour11 + 3, {}), row('b2', hour11 + 4, {})], 4);
    expect(await ids()).toEqual(['b1@11', 'b2@11', 'b3@11', 'c1@12']);
    const everything = await rig.query(`SELECT count(*) AS n FROM ${view()}`);
    expect(everything).toEqual([{ n: 6 }]);
  });

  it('goes with its source: dropped, the view and both tables are gone', async () => {
    const other = { name: `gone-${randomBytes(2).toString('hex')}`, connection };
    await tables.create(other);
    const relation = tables.scratch(other).relation(tables.names(other).view);
    expect(await rig.query(`SELECT count(*) AS n FROM ${relation}`)).toEqual([{ n: 0 }]);
    await tables.drop(other);
    await tables.drop(other);
    const r = await rig.call('sql_query', `SELECT count(*) FROM ${relation}`);
    expect(r.isError).toBe(true);
  });
});
