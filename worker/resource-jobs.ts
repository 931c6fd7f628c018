/**
 * The Temporal side of resource jobs (shared/resources/jobs/): starts the workflow a job names,
 * through a client. Coalescing kinds use signal-with-start, so a running workflow is told again and
 * a finished one is followed by a new run (ALLOW_DUPLICATE); the others start once per id, an id
 * already started (or finished) counting as done, a failed one started again.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { JobStarter } from '../shared/resources/index.js';

/** A start that hangs (Temporal unreachable: the SDK retries) ends here, well inside a claim's lease. */
const START_DEADLINE_MS = 10_000;

export function temporalJobStarter(client: Pick<Client, 'workflow' | 'connection'>, opts: { deadlineMs?: number } = {}): JobStarter {
  const deadlineMs = opts.deadlineMs ?? START_DEADLINE_MS;
  return {
    async start(job) {
      const { workflowType, workflowId, taskQueue, args, signal, signalArgs } = job;
      await client.connection.withDeadline(Date.now() + deadlineMs, async () => {
        if (signal) {
          await client.workflow.signalWithStart(workflowType, {
            workflowId,
            taskQueue,
            args,
            signal,
            signalArgs: signalArgs ?? [],
            workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
          });
          return;
        }
        try {
          await client.workflow.start(workflowType, { workflowId, taskQueue, args, workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
      });
    },
  };
}
