/**
 * Set-up of the resource-request tests (issue 19): a real Temporal dev server, the request client
 * the api uses (worker/resource-requests.ts) on a task queue of the test's own, and the platform
 * worker (worker/worker.ts) with the resource activities over a given resources service.
 */
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { ResourceActivityDeps } from '../../activities/resources.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import type { ResourceRequests } from '../../shared/resources/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { createPlatformWorker, resourceRequestClient, workflowBundle, type PlatformWorker } from '../../worker/index.js';
import { startTestTemporal } from '../support/temporal.js';

export interface RequestRuntime {
  handle: TemporalHandle;
  taskQueue: string;
  requests: ResourceRequests;
  /** Starts the platform worker, its resource activities over `deps`. */
  startWorker(db: Db, deps: ResourceActivityDeps): Promise<void>;
  /** Replays a finished workflow's history against today's workflow code. */
  replay(workflowId: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startRequestRuntime(): Promise<RequestRuntime> {
  const temporal = await startTestTemporal();
  let handle: TemporalHandle | undefined;
  let worker: PlatformWorker | undefined;
  let running: Promise<void> | undefined;
  const stop = async () => {
    await worker?.shutdown();
    await running?.catch(() => undefined);
    await handle?.close();
    await temporal.stop();
  };
  try {
    handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
    const client = handle.client;
    const taskQueue = `requests-${randomBytes(4).toString('hex')}`;
    const minute = 60_000;
    return {
      handle,
      taskQueue,
      requests: resourceRequestClient(client, { taskQueue }),
      async startWorker(db, deps) {
        worker = await createPlatformWorker({
          config: {
            temporal: { address: temporal.address, namespace: temporal.namespace, task_queue: taskQueue, tls: { enabled: false } },
            sessions: { store: 'memory', ttl: 10 * minute, idle_timeout: 2 * minute, cleanup_interval: 10 * minute },
          },
          db,
          temporal: handle!,
          log: silentLogger(),
          resources: deps,
        });
        running = worker.run();
      },
      async replay(workflowId) {
        const history = await client.workflow.getHandle(workflowId).fetchHistory();
        await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
