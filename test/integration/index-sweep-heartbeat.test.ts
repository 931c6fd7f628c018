/**
 * The index sweep heartbeats (activities/heartbeat.ts, workflows/search.ts), against a real
 * Temporal dev server and Postgres: the platform worker's sweep keeps beating while it awaits a
 * step that blocks (a table lock held by another session), with its last reported step as the
 * detail; and a try that stops beating (a stalled worker) is retried after the 30 s heartbeat
 * timeout instead of hanging for its 10-minute start-to-close timeout (and holding the Schedule's
 * next passes). Both histories replay, and so does one recorded before the heartbeat timeout was
 * added (test/fixtures/histories/index-sweep-before-heartbeats.json).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { temporal as temporalApi } from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { indexSweepSchedule, workflowBundle, type PlatformWorker } from '../../worker/index.js';
import type { IndexSweepOutcome } from '../../activities/search.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';
import { startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';
import { startSearchWorker } from './search-worker-fixtures.js';

let temporal: TestTemporal;
let handle: TemporalHandle;

beforeAll(async () => {
  temporal = await startTestTemporal();
  handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await temporal?.stop();
});

async function pendingSweep(workflowId: string) {
  const description = await handle.client.workflow.getHandle(workflowId).describe();
  return description.raw.pendingActivities?.[0];
}

/** Polls `read` until it answers something other than undefined (each step a real round trip). */
async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The detail of the pending activity's last heartbeat, when it carried one. */
function detailOf(pending: { heartbeatDetails?: { payloads?: Array<{ data?: Uint8Array | null }> | null } | null }): unknown {
  const data = pending.heartbeatDetails?.payloads?.[0]?.data;
  return data && data.length > 0 ? JSON.parse(Buffer.from(data).toString('utf8')) : undefined;
}

async function replays(workflowId: string): Promise<void> {
  const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId);
}

describe('the index sweep heartbeats', () => {
  let env: ResourceEnv;
  let worker: PlatformWorker;
  let taskQueue: string;

  beforeAll(async () => {
    env = await startResourceEnv('filesystem');
    ({ worker, taskQueue } = await startSearchWorker(env, temporal, handle, { queuePrefix: 'sweep-beat' }));
  }, 120_000);

  afterAll(async () => {
    await worker?.shutdown();
    await env?.stop();
  });

  it('keeps beating while a step is blocked, repeating the step it reported last', async () => {
    const lock: PoolClient = await env.db.connect();
    const workflowId = `sweep-${randomBytes(4).toString('hex')}`;
    try {
      // The pass's lagging-resources query waits on this lock.
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE resource_search_index IN ACCESS EXCLUSIVE MODE');
      await handle.client.workflow.start('indexSweep', { workflowId, taskQueue, args: indexSweepSchedule(taskQueue).args });
      const first = await until(async () => {
        const pending = await pendingSweep(workflowId);
        return pending?.lastHeartbeatTime && detailOf(pending) !== undefined ? pending : undefined;
      });
      const detail = detailOf(first) as { step: string };
      expect(detail.step).toBe('unembedded found');
      const firstBeat = Number(first.lastHeartbeatTime!.seconds);
      // A later beat of the same try, still blocked on the same step.
      const later = await until(async () => {
        const pending = await pendingSweep(workflowId);
        return pending && Number(pending.lastHeartbeatTime?.seconds) > firstBeat ? pending : undefined;
      });
      expect(later.attempt).toBe(1);
      expect(detailOf(later)).toEqual(detail);
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }
    expect(await handle.client.workflow.getHandle<() => Promise<IndexSweepOutcome>>(workflowId).result()).toMatchObject({ requested: 0 });
    await replays(workflowId);
  }, 120_000);

  it('a try that stops beating is retried after the heartbeat timeout, not its start-to-close timeout', async () => {
    // A stalled worker: its sweep never answers and never beats (no heartbeat interceptor).
    const stalledQueue = `sweep-stalled-${randomBytes(4).toString('hex')}`;
    const connection = await NativeConnection.connect({ address: temporal.address });
    let release: () => void = () => undefined;
    const attempts: number[] = [];
    const sweepSearchIndex = async (): Promise<IndexSweepOutcome> => {
      const { Context } = await import('@temporalio/activity');
      const attempt = Context.current().info.attempt;
      attempts.push(attempt);
      if (attempt === 1) await new Promise<void>((resolve) => (release = resolve));
      return { entries: 0, requested: 0 };
    };
    const workflows = await Worker.create({ connection, taskQueue: stalledQueue, workflowBundle: await workflowBundle() });
    const activities = await Worker.create({ connection, taskQueue: `${stalledQueue}-search`, activities: { sweepSearchIndex } });
    const workflowId = `sweep-${randomBytes(4).toString('hex')}`;
    try {
      await workflows.runUntil(
        activities.runUntil(async () => {
          const result = await handle.client.workflow.execute('indexSweep', { workflowId, taskQueue: stalledQueue, args: indexSweepSchedule(stalledQueue).args });
          expect(result).toEqual({ entries: 0, requested: 0 });
          release();
        }),
      );
    } finally {
      release();
      await connection.close();
    }
    expect(attempts).toEqual([1, 2]);
    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    const started = history.events!.find((e) => e.activityTaskStartedEventAttributes)!.activityTaskStartedEventAttributes!;
    expect(started.attempt).toBe(2);
    expect(started.lastFailure?.timeoutFailureInfo?.timeoutType).toBe(temporalApi.api.enums.v1.TimeoutType.TIMEOUT_TYPE_HEARTBEAT);
    await replays(workflowId);
  }, 180_000);

  it('replays a sweep recorded before the heartbeat timeout was added', async () => {
    // Written as JSON.stringify wrote the fetched history (protobufjs's object form: enums and longs as strings).
    const json = JSON.parse(await readFile(join(import.meta.dirname, '../fixtures/histories/index-sweep-before-heartbeats.json'), 'utf8')) as Record<string, unknown>;
    const history = temporalApi.api.history.v1.History.fromObject(json);
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, 'index-sweep')).resolves.toBeUndefined();
  }, 60_000);
});
