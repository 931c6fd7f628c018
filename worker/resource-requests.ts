/**
 * The client side of the resource requests (shared/resources/requests.ts): starts the workflow and
 * awaits its result, so the same request answers the same result.
 *  - extract: the workflow id names the request (`extract:{resourceId}:{requestId}`); a run of it
 *    that completed (a result or a refusal) or still runs is awaited, one that failed is started
 *    again. The request's fingerprint (caller and arguments) is in the memo: the same request id
 *    for another request is refused (409).
 *  - renameFolder: the id names the folder (`folder-rename:{library}:{path}`), so a later rename of
 *    a folder of that name is a new run. A running rename is awaited when it is the same request,
 *    else refused (409); after a completed one with the same request, the new run is told its
 *    result and answers it again while the folder is gone and the files are where it put them.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
import {
  formatLibrary,
  requestFingerprint,
  resultOf,
  ResourceError,
  type FolderRenameResult,
  type RequestOutcome,
  type ResourceRequests,
} from '../shared/resources/index.js';
import { extractArchive, extractWorkflowId, renameFolder, renameWorkflowId } from '../workflows/index.js';

/** The task queue of the resource activities: polled only by workers given the resources service. */
export function resourceActivityQueue(taskQueue: string): string {
  return `${taskQueue}-resources`;
}

/** Starts attempted before giving up on a request whose workflow keeps being started by someone else. */
const MAX_START_ROUNDS = 3;

export function resourceRequestClient(client: Pick<Client, 'workflow'>, opts: { taskQueue: string }): ResourceRequests {
  const activityQueue = resourceActivityQueue(opts.taskQueue);

  async function describe(workflowId: string): Promise<WorkflowExecutionDescription | undefined> {
    try {
      return await client.workflow.getHandle(workflowId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
  }

  function sameRequest(run: WorkflowExecutionDescription, fingerprint: string): boolean {
    return run.memo?.request === fingerprint;
  }

  async function awaitRun<T>(workflowId: string): Promise<T> {
    return resultOf(await client.workflow.getHandle(workflowId).result() as RequestOutcome<T>);
  }

  return {
    async extract(actor, request, requestId) {
      const workflowId = extractWorkflowId(request.resourceId, requestId);
      const fingerprint = requestFingerprint(actor.subject, request);
      for (let round = 0; round < MAX_START_ROUNDS; round++) {
        const run = await describe(workflowId);
        if (run && !sameRequest(run, fingerprint)) {
          throw new ResourceError('conflict', `request_id "${requestId}" was used for another extraction of this archive; use a new request_id`, { request_id: requestId });
        }
        if (run && (run.status.name === 'RUNNING' || run.status.name === 'COMPLETED')) return awaitRun(workflowId);
        try {
          await client.workflow.start(extractArchive, {
            workflowId,
            taskQueue: opts.taskQueue,
            args: [{ actor, request, activityQueue }],
            memo: { request: fingerprint },
            workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
          });
          return awaitRun(workflowId);
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      }
      throw new ResourceError('conflict', `extraction ${workflowId} keeps being started elsewhere; try again`);
    },

    async renameFolder(actor, rename) {
      const workflowId = renameWorkflowId(formatLibrary(rename.library), rename.path);
      const fingerprint = requestFingerprint(actor.subject, { new_path: rename.new_path });
      for (let round = 0; round < MAX_START_ROUNDS; round++) {
        const run = await describe(workflowId);
        if (run?.status.name === 'RUNNING') {
          if (sameRequest(run, fingerprint)) return awaitRun(workflowId);
          throw new ResourceError('conflict', `a rename of folder ${rename.path} is under way; try again when it has finished`);
        }
        let repeatOf: FolderRenameResult | undefined;
        if (run?.status.name === 'COMPLETED' && sameRequest(run, fingerprint)) {
          const last = (await client.workflow.getHandle(workflowId).result()) as RequestOutcome<FolderRenameResult>;
          if (last.ok) repeatOf = last.result;
        }
        try {
          await client.workflow.start(renameFolder, {
            workflowId,
            taskQueue: opts.taskQueue,
            args: [{ actor, rename: { ...rename, ...(repeatOf ? { repeat_of: repeatOf } : {}) }, activityQueue }],
            memo: { request: fingerprint },
            workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
          });
          return awaitRun(workflowId);
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      }
      throw new ResourceError('conflict', `a rename of folder ${rename.path} keeps being started elsewhere; try again`);
    },
  };
}
