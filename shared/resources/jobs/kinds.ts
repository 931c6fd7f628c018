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
   * Coalescing kinds: signal-with-start with this signal, so a burst of writes is one run that
   * handles the latest state, and a new run starts after a finished one. Without it the workflow
   * is started once per id; an id already started (running or finished) is done.
   */
  signal?: string;
  args(request: JobRequest): unknown[];
  /** The signal's arguments (default none): what a run under way must learn of a later request. */
  signalArgs?(request: JobRequest): unknown[];
  /**
   * Kinds whose requests differ in params: what a row still waiting keeps when another request for
   * the same workflow comes (default: the first request's params). Pure.
   */
  mergeParams?(pending: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown>;
}

/**
 * Why the `table` job's run brings tables up to date: an upload moves tables that correct the
 * file; a follow-up (an export's or extraction's new version) moves those and followed tables too.
 */
export type TableJobMode = 'upload' | 'follow';

/** One run that does what both requests asked: `follow` moves every table `upload` moves, and more. */
export function widerTableMode(a: unknown, b: unknown): TableJobMode {
  return a === 'follow' || b === 'follow' ? 'follow' : 'upload';
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
  /**
   * `thumbnail` (docs/resources.md, "Thumbnails"): `drawThumbnail` of one file version, started
   * once per id (`thumb:{resourceId}:v{n}`; the k-th Recapture of that version appends `:r{k}`).
   */
  thumbnail: {
    workflowType: 'drawThumbnail',
    workflowId: (request) => thumbnailWorkflowId(request.resourceId, thumbnailParams(request).version, thumbnailParams(request).recapture),
    taskQueue: (platformQueue) => platformQueue,
    args: (request) => [{ resourceId: request.resourceId, ...thumbnailParams(request) }],
  },
  /**
   * `table` (docs/resources.md, "Table registration"): `registerTable` of the resource, started by
   * manage_table and by uploads and follow-ups whose correction is too large to run inline; it
   * brings the resource's tables to its latest version (correcting it when a table corrects the
   * file). Coalescing: a later request signals `reconcile` with its mode, and a run after a
   * finished one starts; a request while one waits in the outbox widens the waiting one's mode.
   */
  table: {
    workflowType: 'registerTable',
    workflowId: (request) => `table:${request.resourceId}`,
    taskQueue: (platformQueue) => platformQueue,
    signal: 'reconcile',
    args: (request) => [{ resourceId: request.resourceId, ...request.params }],
    signalArgs: (request) => [{ mode: request.params['mode'] }],
    mergeParams: (pending, next) => ({ ...pending, mode: widerTableMode(pending['mode'], next['mode']) }),
  },
} as const satisfies Record<string, JobKindSpec>;

export type JobKind = keyof typeof resourceJobKinds;

export function isJobKind(kind: string): kind is JobKind {
  return Object.hasOwn(resourceJobKinds, kind);
}

export function jobSpec(kind: JobKind): JobKindSpec {
  return resourceJobKinds[kind];
}

/** What a `thumbnail` job names: the file version, and which Recapture of it (0: the first draw). */
export interface ThumbnailJobParams {
  version: number;
  recapture: number;
}

function thumbnailParams(request: JobRequest): ThumbnailJobParams {
  return { version: Number(request.params['version']), recapture: Number(request.params['recapture'] ?? 0) };
}

export function thumbnailWorkflowId(resourceId: string, version: number, recapture = 0): string {
  return `thumb:${resourceId}:v${version}${recapture > 0 ? `:r${recapture}` : ''}`;
}

/**
 * The jobs a committed change asks for: a new file, new content (replace, restore, a revision)
 * and a details edit or move are indexed again; new content (never a metadata-only edit) is drawn
 * as a thumbnail of its version. A delete asks for none: its index entry goes in the delete's own
 * transaction, its thumbnail with its row.
 */
export function jobsForChange(change: ResourceChangeKind, resource: { id: string; head_version: number }): JobRequest[] {
  if (change === 'deleted') return [];
  const index: JobRequest = { kind: 'index', resourceId: resource.id, params: {} };
  if (change === 'updated') return [index];
  return [index, { kind: 'thumbnail', resourceId: resource.id, params: { version: resource.head_version } }];
}
