/**
 * Archive extraction (`extractArchive`, id `extract:{resourceId}:{requestId}`; docs/resources.md,
 * "Extracting archives"): one activity on the resource activities' queue checks every selected
 * member and then writes them, heartbeating per member. A refusal is the workflow's result (so
 * the same request id answers it again); a try that failed otherwise is retried, and since members
 * are written with `skip_unchanged`, a retry adds no version for what the failed try wrote.
 * Deterministic: only @temporalio/workflow and types are imported.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ExtractRequest, ExtractResult, RequestOutcome, ResourceActor, ResourceRequestActivities } from '../activities/resources.js';

export interface ExtractArchiveInput {
  actor: ResourceActor;
  request: ExtractRequest;
  /** `{temporal.task_queue}-resources`. */
  activityQueue: string;
}

export function extractWorkflowId(resourceId: string, requestId: string): string {
  return `extract:${resourceId}:${requestId}`;
}

export async function extractArchive(input: ExtractArchiveInput): Promise<RequestOutcome<ExtractResult>> {
  const { extractArchiveMembers } = proxyActivities<ResourceRequestActivities>({
    taskQueue: input.activityQueue,
    startToCloseTimeout: '2 hours',
    heartbeatTimeout: '2 minutes',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
  });
  return extractArchiveMembers({ actor: input.actor, request: input.request });
}
