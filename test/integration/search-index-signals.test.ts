/**
 * The coalescing rule of `indexResource` (docs/resources.md "Search indexing"): started by
 * signal-with-start of `reindex`, it indexes the latest state, and once more — exactly once — when
 * `reindex` arrived during a pass, however many times. The real workflow bundle on a Temporal dev
 * server; the search activities are recording stand-ins whose first pass waits for the test, so a
 * signal can be sent while a pass runs (the real activities are proven in search-index.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchActivities, SearchIndexOutcome } from '../../activities/search.js';
import { resourceJobKinds } from '../../shared/resources/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { searchActivityQueue, temporalJobStarter, workflowBundle } from '../../worker/index.js';
import { indexWorkflowId, reindexSignal, type IndexResourceInput } from '../../workflows/index.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';

let temporal: TestTemporal;
let handle: TemporalHandle;
let connection: NativeConnection;
const taskQueue = `index-signals-${randomBytes(4).toString('hex')}`;
let workers: Worker[] = [];
let running: Promise<unknown>;

/** Passes per resource, and a gate the next pass of a resource waits on (opened by the test). */
const passes = new Map<string, number>();
const gates = new Map<string, { entered: () => void; open: Promise<void> }>();

function gate(resourceId: string): { entered: Promise<void>; open: () => void } {
  let entered!: () => void;
  let open!: () => void;
  const enteredPromise = new Promise<void>((resolve) => (entered = resolve));
  gates.set(resourceId, { entered, open: new Promise<void>((resolve) => (open = resolve)) });
  return { entered: enteredPromise, open };
}

const activities: Pick<SearchActivities, 'indexSearchResource' | 'embedSearchResource'> = {
  async indexSearchResource(resourceId: string): Promise<SearchIndexOutcome> {
    const pass = (passes.get(resourceId) ?? 0) + 1;
    passes.set(resourceId, pass);
    const waiting = gates.get(resourceId);
    if (waiting) {
      gates.delete(resourceId);
      waiting.entered();
      await waiting.open;
    }
    return { status: 'indexed', resourceId, version: pass, mode: 'contents', chars: 0 };
  },
  async embedSearchResource(resourceId: string) {
    return { status: 'off', resourceId };
  },
};

beforeAll(async () => {
  temporal = await startTestTemporal();
  handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
  connection = await NativeConnection.connect({ address: temporal.address });
  workers = [
    await Worker.create({ connection, namespace: temporal.namespace, taskQueue, workflowBundle: await workflowBundle() }),
    await Worker.create({ connection, namespace: temporal.namespace, taskQueue: searchActivityQueue(taskQueue), activities }),
  ];
  running = Promise.all(workers.map((w) => w.run()));
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.shutdown();
  await running;
  await connection?.close();
  await handle?.close();
  await temporal?.stop();
});

/** Starts indexing as the job dispatcher does: signal-with-start of `reindex` on `index:{id}`. */
async function requestIndexing(resourceId: string): Promise<void> {
  const spec = resourceJobKinds.index;
  const request = { kind: 'index' as const, resourceId, params: {} };
  await temporalJobStarter(handle.client).start({ workflowType: spec.workflowType, workflowId: spec.workflowId(request), taskQueue: spec.taskQueue(taskQueue), args: spec.args(request), signal: spec.signal });
}

function result(resourceId: string): Promise<SearchIndexOutcome> {
  return handle.client.workflow.getHandle<(input: IndexResourceInput) => Promise<SearchIndexOutcome>>(indexWorkflowId(resourceId)).result();
}

describe('indexResource: a burst of writes coalesces', () => {
  it('a write with no other during its pass is indexed once', async () => {
    const id = `res-${randomBytes(4).toString('hex')}`;
    await requestIndexing(id);
    expect(await result(id)).toMatchObject({ status: 'indexed', version: 1 });
    expect(passes.get(id)).toBe(1);
  });

  it('a reindex arriving during a pass makes exactly one more pass', async () => {
    const id = `res-${randomBytes(4).toString('hex')}`;
    const first = gate(id);
    await requestIndexing(id);
    await first.entered;
    await requestIndexing(id);
    first.open();
    expect(await result(id)).toMatchObject({ status: 'indexed', version: 2 });
    expect(passes.get(id)).toBe(2);
  });

  it('many reindex signals during one pass still make only one more pass', async () => {
    const id = `res-${randomBytes(4).toString('hex')}`;
    const first = gate(id);
    await requestIndexing(id);
    await first.entered;
    for (let i = 0; i < 5; i++) await requestIndexing(id);
    // A plain signal (not a start) counts the same.
    await handle.client.workflow.getHandle(indexWorkflowId(id)).signal(reindexSignal);
    first.open();
    expect(await result(id)).toMatchObject({ status: 'indexed', version: 2 });
    expect(passes.get(id)).toBe(2);
  });
});
