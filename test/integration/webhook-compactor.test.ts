/**
 * Webhook windows on Temporal end to end (spec document 3, "Webhook window"): a real Temporal dev
 * server and the platform worker with the webhook activities, over real Postgres, the filesystem
 * store and the embedded DuckDB. The sweep starts `webhook-compact:{source}:{window}` for an ended
 * window; the view switches to the Parquet file with duplicates gone; a failing compaction is
 * retried with growing delay and shown failing until it succeeds; a late segment makes the window
 * owed and the next sweep writes version 2; retention removes raw segments and old windows in the
 * spec's order, finishing a pass stopped half-way; every history replays.
 */
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ResourceService } from '../../shared/resources/index.js';
import { type TemporalHandle } from '../../shared/temporal/index.js';
import { workflowBundle } from '../../worker/index.js';
import { compactWorkflowId, retentionWorkflowId, webhookRetentionSweep, webhookSweep, type CompactorSettings } from '../../workflows/index.js';
import { START, type IngestRig } from './webhook-ingest-fixtures.js';
import { blockCompactions, hmacSender, startCompactorRig, until, type CompactorRig } from './webhook-compactor-fixtures.js';

const { auth: hmac, send } = hmacSender(() => rig, 'whsec-compactor-S3CR3T');
let compactorRig: CompactorRig;
let rig: IngestRig;
let handle: TemporalHandle;
let taskQueue: string;
let settings: CompactorSettings;
let resources: ResourceService;

/** One sweep pass, then every compaction it started awaited. */
async function sweepAndWait(): Promise<{ started: string[]; results: unknown[] }> {
  const sweep = await handle.client.workflow.execute(webhookSweep, { workflowId: `sweep-${randomBytes(4).toString('hex')}`, taskQueue, args: [{ settings }] });
  const results = await Promise.all(sweep.started.map((id) => handle.client.workflow.getHandle(id).result()));
  return { started: sweep.started, results };
}

async function windowRow(source: string) {
  const { rows } = await rig.db.query(
    `SELECT w.hour, w.minute, w.compacted_seq, w.landed_seq, w.attempts, w.last_error, w.next_try_at, w.resource_version
       FROM webhook_windows w JOIN webhook_sources s ON s.id = w.source_id WHERE s.name = $1 ORDER BY w.start_at`,
    [source],
  );
  return rows;
}


beforeAll(async () => {
  compactorRig = await startCompactorRig({ enabled: true, queuePrefix: 'webhooks' });
  ({ rig, handle, taskQueue, settings, resources } = compactorRig);
}, 120_000);

afterAll(async () => {
  await compactorRig?.stop();
});

describe('webhook windows on Temporal', () => {
  it('an ended window is compacted by webhook-compact:{source}:{window}: the view reads the Parquet file, duplicates gone, the earliest kept', async () => {
    await rig.createSource('orders', hmac, { event_id_path: '$.id' });
    rig.clock.now = START;
    expect((await send('orders', { id: 'a', n: 1 })).status).toBe(202);
    rig.clock.now = START + 60_000;
    expect((await send('orders', { id: 'a', n: 2 })).status).toBe(202);
    expect((await send('orders', { id: 'b', n: 3 })).status).toBe(202);
    // Read from raw one row per id: the earliest a.
    expect(await rig.query('SELECT count(*) AS n FROM scratch.webhook_orders')).toEqual([{ n: 2 }]);

    const { started, results } = await sweepAndWait();
    expect(started).toEqual([compactWorkflowId({ source: 'orders', dt: '2026-03-02', hour: '10', minute: '00' })]);
    expect(results).toEqual([expect.objectContaining({ version: 1, events: 2, duplicatesDropped: 1, created: true })]);
    const rows = await rig.query("SELECT event_id, json_extract_scalar(payload, '$.n') AS n FROM scratch.webhook_orders ORDER BY event_id");
    expect(rows).toEqual([
      { event_id: 'a', n: '1' },
      { event_id: 'b', n: '3' },
    ]);
    const [window] = await windowRow('orders');
    expect(window).toMatchObject({ hour: '10', minute: '00', attempts: 0, last_error: null, resource_version: 1 });
    expect(Number(window.compacted_seq)).toBe(Number(window.landed_seq));
    const metrics = await rig.scrape();
    expect(metrics).toMatch(/webhook_compactions_total\{source="orders",result="compacted"\} 1/);
    expect(metrics).toMatch(/webhook_duplicates_dropped_total\{source="orders"\} 1\n/);

    // Nothing is due now: the next pass starts nothing.
    expect((await sweepAndWait()).started).toEqual([]);
    const history = await handle.client.workflow.getHandle(started[0]!).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, started[0])).resolves.toBeUndefined();
  });

  it('a late segment makes the window owed: the next sweep writes version 2 of the same resource, every event once', async () => {
    rig.clock.now = START + 120_000;
    expect((await send('orders', { id: 'c', n: 4 })).status).toBe(202);
    expect((await send('orders', { id: 'b', n: 5 })).status).toBe(202);
    const { results } = await sweepAndWait();
    expect(results).toEqual([expect.objectContaining({ version: 2, events: 3, created: true })]);
    // The window's duplicates are now a (twice) and b (twice): only the new one is counted.
    expect(await rig.scrape()).toMatch(/webhook_duplicates_dropped_total\{source="orders"\} 2\n/);
    expect(await rig.query("SELECT event_id, json_extract_scalar(payload, '$.n') AS n FROM scratch.webhook_orders ORDER BY event_id")).toEqual([
      { event_id: 'a', n: '1' },
      { event_id: 'b', n: '3' },
      { event_id: 'c', n: '4' },
    ]);
  });

  it('a failing compaction is retried with growing delay and shown failing (reason, attempts, next try), then succeeds', async () => {
    const source = await rig.createSource('flaky', hmac, { event_id_path: '$.id' });
    rig.clock.now = START;
    expect((await send('flaky', { id: 'x' })).status).toBe(202);
    // A table made by hand where the view goes: the compaction cannot put the view back, so it
    // fails (and says so) until the table is removed.
    const unblock = await blockCompactions(rig, source);

    const sweep = await handle.client.workflow.execute(webhookSweep, { workflowId: `sweep-${randomBytes(4).toString('hex')}`, taskQueue, args: [{ settings }] });
    expect(sweep.started).toHaveLength(1);
    const failing = await until('two failed tries', () => windowRow('flaky'), (rows) => rows[0]?.attempts >= 2);
    expect(failing[0].last_error).toMatch(/\S/);
    expect(failing[0].compacted_seq).toBeNull();
    const status = await rig.admin('GET', '/flaky/status');
    expect(status.status).toBe(200);
    expect(JSON.stringify(status.json)).toContain(failing[0].last_error.slice(0, 40));

    expect(failing[0].last_error).toMatch(/webhook_flaky/);
    await unblock();
    const result = await handle.client.workflow.getHandle(sweep.started[0]!).result();
    expect(result).toMatchObject({ version: 1, events: 1 });
    const [done] = await windowRow('flaky');
    expect(done).toMatchObject({ attempts: 0, last_error: null, next_try_at: null });
    expect(await rig.scrape()).toMatch(/webhook_compactions_total\{source="flaky",result="failed"\} [2-9]/);
    const history = await handle.client.workflow.getHandle(sweep.started[0]!).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, sweep.started[0])).resolves.toBeUndefined();
  });

  it('retention: raw segments of compacted windows past raw_retention_days go, the view keeps reading Parquet; a window past compacted_retention_days is removed in order, a stopped pass finished by the next', async () => {
    // The events were received on 2026-03-02: months past raw_retention_days (7) and past 30 days.
    const shortLived = await rig.createSource('short-lived', hmac, { event_id_path: '$.id', compacted_retention_days: 30 });
    rig.clock.now = START;
    expect((await send('short-lived', { id: 's1' })).status).toBe(202);
    await sweepAndWait();
    const [compactedWindow] = await windowRow('short-lived');
    expect(compactedWindow.resource_version).toBe(1);
    const { rows: [{ resource_id: resourceId }] } = await rig.db.query('SELECT resource_id FROM webhook_windows WHERE source_id = $1', [shortLived.id]);
    // A pass that stopped right after its first step: the partition is unregistered and recorded, nothing else.
    await rig.services.tables.unregisterCompactedWindow(shortLived, { dt: '2026-03-02', hour: '10', minute: '00' });
    await rig.db.query("UPDATE webhook_windows SET removal_step = 'unregistered' WHERE source_id = $1", [shortLived.id]);

    const sweep = await handle.client.workflow.execute(webhookRetentionSweep, { workflowId: `retention-${randomBytes(4).toString('hex')}`, taskQueue, args: [{ settings }] });
    expect(sweep.started).toEqual(expect.arrayContaining([retentionWorkflowId('orders'), retentionWorkflowId('short-lived')]));
    const results = Object.fromEntries(await Promise.all(sweep.started.map(async (id) => [id, await handle.client.workflow.getHandle(id).result()] as const)));
    expect(results[retentionWorkflowId('orders')]).toMatchObject({ rawRemoved: 1, windowsRemoved: 0 });
    expect(results[retentionWorkflowId('short-lived')]).toMatchObject({ windowsRemoved: 1 });

    // orders: its raw segments are gone, its rows are all still there, from the Parquet file.
    expect((await rig.segments('orders')).filter((key) => key.includes('/raw/'))).toEqual([]);
    expect(await rig.query('SELECT event_id FROM scratch.webhook_orders ORDER BY event_id')).toEqual([{ event_id: 'a' }, { event_id: 'b' }, { event_id: 'c' }]);
    // short-lived: partition, resource and segments gone, the step recorded.
    expect(await rig.query('SELECT count(*) AS n FROM scratch.webhook_short_lived')).toEqual([{ n: 0 }]);
    expect(await rig.segments('short-lived')).toEqual([]);
    await expect(resources.get({ subject: 'root', personas: ['admin'], adminOfPersonas: ['admin'], platformAdmin: true, writer: { kind: 'person', subject: 'root' } }, resourceId)).rejects.toMatchObject({ code: 'not_found' });
    const { rows: [state] } = await rig.db.query('SELECT removal_step FROM webhook_windows WHERE source_id = $1', [shortLived.id]);
    expect(state.removal_step).toBe('removed');

    // The next pass has nothing left to do.
    const again = await handle.client.workflow.execute(webhookRetentionSweep, { workflowId: `retention-${randomBytes(4).toString('hex')}`, taskQueue, args: [{ settings }] });
    const second = await Promise.all(again.started.map((id) => handle.client.workflow.getHandle(id).result()));
    expect(second.every((r) => (r as { rawRemoved: number; windowsRemoved: number }).rawRemoved === 0 && (r as { windowsRemoved: number }).windowsRemoved === 0)).toBe(true);
    const history = await handle.client.workflow.getHandle(retentionWorkflowId('short-lived')).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, retentionWorkflowId('short-lived'))).resolves.toBeUndefined();
  });

  it('the sweep and the retention pass replay from their histories (children started, and none)', async () => {
    await rig.createSource('replayed', hmac, { event_id_path: '$.id' });
    rig.clock.now = START;
    expect((await send('replayed', { id: 'r1' })).status).toBe(202);
    const bundle = await workflowBundle();
    for (const [workflow, name] of [
      [webhookSweep, 'sweep'],
      [webhookRetentionSweep, 'retention'],
    ] as const) {
      const workflowId = `${name}-replay-${randomBytes(4).toString('hex')}`;
      const pass = await handle.client.workflow.execute(workflow, { workflowId, taskQueue, args: [{ settings }] });
      if (name === 'sweep') expect(pass.started).toEqual([compactWorkflowId({ source: 'replayed', dt: '2026-03-02', hour: '10', minute: '00' })]);
      await Promise.all(pass.started.map((id) => handle.client.workflow.getHandle(id).result()));
      const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
      await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, workflowId)).resolves.toBeUndefined();
    }
  });
});
