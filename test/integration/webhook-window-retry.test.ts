/**
 * The admin retries start a window's compaction at once (spec document 3, issue 15 acceptance:
 * "Admin retry of a failed window starts it again and the source page reflects it"), on a real
 * Temporal dev server, the platform worker, Postgres, the filesystem store and DuckDB: a failed
 * window whose workflow is no longer running is compacted by `POST .../retry` (and
 * `.../retry-failing`) without any sweep, with the sweep's workflow id and input, and the source
 * page shows it compacted; a workflow still running, waiting for its next try, is told
 * (`retryCompaction`) to try again at once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import type { TemporalHandle } from '../../shared/temporal/index.js';
import { workflowBundle } from '../../worker/index.js';
import { compactWorkflowId, webhookSweep, type CompactorSettings } from '../../workflows/index.js';
import { START, type Answer, type IngestRig } from './webhook-ingest-fixtures.js';
import { blockCompactions, hmacSender, startCompactorRig, until, type CompactorRig } from './webhook-compactor-fixtures.js';

const { auth: hmac, send } = hmacSender(() => rig, 'whsec-retry-S3CR3T');
let compactorRig: CompactorRig;
let rig: IngestRig;
let handle: TemporalHandle;
let taskQueue: string;
let settings: CompactorSettings;
/** The source routes of an api that starts workflows at once (the rig's own api has no Temporal client). */
let jobsAdmin: (method: string, path: string) => Promise<Answer>;

async function attempts(sourceId: string): Promise<number> {
  return (await rig.db.query('SELECT attempts FROM webhook_windows WHERE source_id = $1', [sourceId])).rows[0]?.attempts ?? 0;
}

/**
 * A source whose one window fails to compact (a table made by hand stands where its view goes, so
 * the compaction cannot put the view back), shown failing; its next try `retryBackoffMs` away
 * (the rig's settings: a second). `fix` removes that table.
 */
async function failedWindow(name: string, retryBackoffMs = settings.retryBackoffMs) {
  const source = await rig.createSource(name, hmac, { event_id_path: '$.id' });
  rig.clock.now = START;
  expect((await send(name, { id: `${name}-1` })).status).toBe(202);
  // The page counts windows owed once ended: its clock is past the hour.
  rig.clock.now = START + 2 * 3_600_000;
  const fix = await blockCompactions(rig, source);
  const pass = await handle.client.workflow.execute(webhookSweep, {
    workflowId: `sweep-${randomBytes(4).toString('hex')}`,
    taskQueue,
    args: [{ settings: { ...settings, retryBackoffMs } }],
  });
  const workflowId = compactWorkflowId({ source: name, dt: '2026-03-02', hour: '10', minute: '00' });
  expect(pass.started).toEqual([workflowId]);
  await until('a failed try', () => attempts(source.id), (n) => n >= 1);
  return { source, workflowId, fix };
}

beforeAll(async () => {
  compactorRig = await startCompactorRig({ enabled: true, queuePrefix: 'retry' });
  ({ rig, handle, taskQueue, settings } = compactorRig);
  ({ admin: jobsAdmin } = await compactorRig.startJobsApi());
}, 120_000);

afterAll(async () => {
  await compactorRig?.stop();
});

describe('admin retry of a window', () => {
  it('a retry while the compaction waits an hour for its next try cuts the wait: the same run tries again at once and succeeds (and replays)', async () => {
    const { workflowId, fix } = await failedWindow('still-running', 3_600_000);
    const run = handle.client.workflow.getHandle(workflowId);
    // The window's row counts the failed try before Temporal has scheduled the next one: wait for that.
    const before = await until(
      'the next try scheduled',
      () => run.describe(),
      (described) => described.raw.pendingActivities?.[0]?.nextAttemptScheduleTime?.seconds != null,
    );
    const [pending] = before.raw.pendingActivities ?? [];
    expect(Number(pending?.nextAttemptScheduleTime?.seconds ?? 0) * 1000).toBeGreaterThan(Date.now() + 30 * 60_000);
    await fix();
    const retry = await jobsAdmin('POST', '/still-running/windows/2026-03-02T10:00/retry');
    expect(retry.status).toBe(200);
    expect(retry.json.retried).toEqual([expect.objectContaining({ window: '2026-03-02T10:00' })]);
    // Without the retry this would wait the hour (the test's timeout is far shorter).
    expect(await run.result()).toMatchObject({ version: 1, events: 1 });
    expect((await run.describe()).runId).toBe(before.runId);
    const history = await run.fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
  }, 60_000);

  it('POST .../retry starts a failed window again at once: the workflow result arrives without a sweep and the source page shows it compacted, the failure cleared', async () => {
    const { source, workflowId, fix } = await failedWindow('retried');
    await handle.client.workflow.getHandle(workflowId).terminate('stopped by an operator');
    const failing = await jobsAdmin('GET', '/retried/status');
    expect(failing.json.last_failure).toMatchObject({ window: '2026-03-02T10:00', attempts: expect.any(Number) });
    expect(failing.json.windows_owed.count).toBe(1);

    await fix();
    const retry = await jobsAdmin('POST', '/retried/windows/2026-03-02T10:00/retry');
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual({ retried: [{ window: '2026-03-02T10:00', attempts: failing.json.last_failure.attempts, last_error: failing.json.last_failure.reason }] });
    // The newest run of the window's id: the one the retry started, with the sweep's input.
    const run = handle.client.workflow.getHandle(workflowId);
    expect(await run.result()).toMatchObject({ version: 1, events: 1 });
    const description = await run.describe();
    expect(description.typedSearchAttributes.getAll().map((pair) => [pair.key.name, pair.value])).toEqual(
      expect.arrayContaining([
        ['WebhookSource', 'retried'],
        ['WebhookWindow', '2026-03-02T10:00'],
      ]),
    );

    const page = (await jobsAdmin('GET', '/retried/status')).json;
    expect(page.last_failure).toBeNull();
    expect(page.windows_owed).toEqual({ count: 0, oldest: [] });
    expect(page.last_compacted).toMatchObject({ window: '2026-03-02T10:00', version: 1 });
    expect((await rig.db.query('SELECT attempts, last_error, next_try_at FROM webhook_windows WHERE source_id = $1', [source.id])).rows).toEqual([
      { attempts: 0, last_error: null, next_try_at: null },
    ]);
    expect(await rig.query('SELECT event_id FROM scratch.webhook_retried')).toEqual([{ event_id: 'retried-1' }]);
  });

  it('POST .../retry-failing starts every failing window of the source at once', async () => {
    const { workflowId, fix } = await failedWindow('all-failing');
    await handle.client.workflow.getHandle(workflowId).terminate('stopped by an operator');
    await fix();
    const retry = await jobsAdmin('POST', '/all-failing/windows/retry-failing');
    expect(retry.status).toBe(200);
    expect(retry.json.retried).toEqual([expect.objectContaining({ window: '2026-03-02T10:00' })]);
    expect(await handle.client.workflow.getHandle(workflowId).result()).toMatchObject({ version: 1 });
    expect((await jobsAdmin('GET', '/all-failing/status')).json.last_failure).toBeNull();
  });
});
