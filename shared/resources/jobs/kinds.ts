/**
 * The kinds of resource job: what each starts in Temporal. Adding a kind is one entry here (and
 * the rule in `jobsForChange` saying which writes ask for it); the outbox, dispatcher and sweeper
 * treat every kind alike.
 */
import type { ResourceChangeKind } from '../types.js';

/** A job a write asks for: its kind, the resource, and what the kind needs beyond the id. */
export interface JobRequest {
  kind: JobKind;
  resourceId: string;
  params: Record<string, unknown>;
}

/** How a kind's workflow is started; `signal` makes the kind coalescing. */
export interface JobKindSpec {
  workflowType: string;
  /** Deterministic: the same request always names the same workflow (the idempotency of the hand-off). */
  workflowId(request: JobRequest): string;
  /** The task queue the workflow runs on, given `temporal.task_queue`. */
  taskQueue(platformQueue: string): string;
  /**
   * Coalescing kinds: signal-with-start with this signal (no arguments), so a burst of writes is
   * one run that handles the latest state, and a new run starts after a finished one. Without it
   * the workflow is started once per id; an id already started (running or finished) is done.
   */
  signal?: string;
  args(request: JobRequest): unknown[];
}

/**
 * `index` (docs/resources.md, "Search indexing"): the `indexResource` workflow of the resource,
 * told `reindex` by every later write; it reads the resource's current state itself.
 */
export const resourceJobKinds = {
  index: {
    workflowType: 'indexResource',
    workflowId: (request) => `index:${request.resourceId}`,
    taskQueue: (platformQueue) => platformQueue,
    signal: 'reindex',
    args: (request) => [{ resourceId: request.resourceId }],
  },
} as const satisfies Record<string, JobKindSpec>;

export type JobKind = keyof typeof resourceJobKinds;

export function isJobKind(kind: string): kind is JobKind {
  return Object.hasOwn(resourceJobKinds, kind);
}

export function jobSpec(kind: JobKind): JobKindSpec {
  return resourceJobKinds[kind];
}

/**
 * The jobs a committed change asks for: a new file, new content (replace, restore, a revision)
 * and a details edit or move are indexed again. A delete asks for none: its index entry goes in
 * the delete's own transaction.
 */
export function jobsForChange(change: ResourceChangeKind, resourceId: string): JobRequest[] {
  if (change === 'deleted') return [];
  return [{ kind: 'index', resourceId, params: {} }];
}
