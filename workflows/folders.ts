/**
 * Folder rename and nest (`renameFolder`, id `folder-rename:{library}:{path}`; docs/resources.md,
 * "Renaming folders"): one activity rewrites every path beneath in one transaction. A refusal is
 * the workflow's result; a try that failed otherwise (a file beneath being written meanwhile) rolled
 * back whole and is retried.
 * Deterministic: only @temporalio/workflow and types are imported.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { FolderRenameInput, FolderRenameResult, RequestOutcome, ResourceActor, ResourceRequestActivities } from '../activities/resources.js';

export interface RenameFolderInput {
  actor: ResourceActor;
  rename: FolderRenameInput;
  /** `{temporal.task_queue}-resources`. */
  activityQueue: string;
}

/** `folder-rename:{library}:{path}`, the library as text (`global`, `persona:<name>`, `person:<subject>`). */
export function renameWorkflowId(library: string, path: string): string {
  return `folder-rename:${library}:${path}`;
}

export async function renameFolder(input: RenameFolderInput): Promise<RequestOutcome<FolderRenameResult>> {
  const { renameFolderPaths } = proxyActivities<ResourceRequestActivities>({
    taskQueue: input.activityQueue,
    startToCloseTimeout: '5 minutes',
    // A worker lost mid-rename is noticed within this (the activity beats every 10 s), not after 5 minutes.
    heartbeatTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 10 },
  });
  return renameFolderPaths({ actor: input.actor, rename: input.rename });
}
