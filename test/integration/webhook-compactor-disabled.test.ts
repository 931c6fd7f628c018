/**
 * `webhooks.compactor.enabled: false` (issue 15, item 4): a replica's worker takes no compaction.
 * A real Temporal dev server and the platform worker given the webhook activities' deps — only the
 * key turns them off. It registers no `webhook-sweep` Schedule and no webhook activity; a
 * `compactWindow` started on its task queue must not be taken by it.
 *
 * The webhook activities run on `{temporal.task_queue}-webhooks`, polled only by workers that
 * compact: before that queue, the disabled worker took the compaction's activity task from the
 * shared queue and failed it ("not registered on this Worker").
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { type TemporalHandle } from '../../shared/temporal/index.js';
import { compactWindow, type CompactorSettings } from '../../workflows/index.js';
import type { IngestRig } from './webhook-ingest-fixtures.js';
import { startCompactorRig, type CompactorRig } from './webhook-compactor-fixtures.js';

let compactorRig: CompactorRig;
let rig: IngestRig;
let handle: TemporalHandle;
let taskQueue: string;
let settings: CompactorSettings;

beforeAll(async () => {
  compactorRig = await startCompactorRig({ enabled: false, queuePrefix: 'webhooks-off' });
  ({ rig, handle, taskQueue, settings } = compactorRig);
}, 120_000);

afterAll(async () => {
  await compactorRig?.stop();
});

describe('a worker with webhooks.compactor.enabled false', () => {
  it('registers no webhook-sweep Schedule (its housekeeping Schedule is there)', async () => {
    const ids: string[] = [];
    for await (const schedule of handle.client.schedule.list()) ids.push(schedule.scheduleId);
    expect(ids).toContain('housekeeping');
    expect(ids).not.toContain('webhook-sweep');
  });

  it('the platform activities hold no webhook activity: those run only on the webhook queue, polled by workers that compact', () => {
    expect(Object.keys(createActivities({ db: rig.db, log: silentLogger() }))).not.toContain('compactWebhookWindow');
    expect(settings.activityQueue).toBe(`${taskQueue}-webhooks`);
  });

  it('does not take a compactWindow started on its task queue: the activity stays on its first try, unfailed', async () => {
    const workflowId = `webhook-compact:off-${randomBytes(4).toString('hex')}:2026-03-02T10:15`;
    const started = await handle.client.workflow.start(compactWindow, {
      workflowId,
      taskQueue,
      args: [{ window: { sourceId: '00000000-0000-0000-0000-000000000000', source: 'off', connection: 'local', persona: 'admin', dt: '2026-03-02', hour: '10', minute: '15', landedSeq: 1, duplicatesDropped: 0 }, settings }],
    });
    try {
      // The workflow task is the disabled worker's (every worker runs every workflow); the activity's
      // first try shows within seconds whether a poller of this queue took it.
      const deadline = Date.now() + 10_000;
      let pending: { attempt?: number | null; lastFailure?: { message?: string | null } | null } | undefined;
      do {
        const description = await started.describe();
        pending = description.raw.pendingActivities?.[0];
        if (pending?.lastFailure) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      } while (Date.now() < deadline);
      expect(pending, 'the workflow scheduled its activity').toBeDefined();
      expect(pending?.lastFailure?.message ?? null).toBeNull();
    } finally {
      await started.terminate('test over');
    }
  }, 30_000);
});
