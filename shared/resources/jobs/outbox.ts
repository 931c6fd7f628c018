/**
 * The outbox table `resource_jobs` (migrations/0020_resource_jobs.sql): one row per workflow a
 * committed write asked for and nobody has started yet. Recorded inside the write's transaction;
 * claimed under a lease (`FOR UPDATE SKIP LOCKED`, so two dispatchers never take the same row at
 * once); removed after a successful start unless another write asked meanwhile; pushed back after
 * a failed one.
 */
import type { Db } from '../../db/index.js';
import { formatLibrary } from '../library.js';
import { rowLibrary, rowUri } from '../rows.js';
import { isJobKind, jobSpec, resourceJobKinds, type JobKind, type JobKindSpec, type JobRequest } from './kinds.js';

type Queryable = Pick<Db, 'query'>;

/** Where a job's resource is when the job is claimed: what an operator finds its workflow by. */
export interface JobResourceLabels {
  /** Library text: `global`, `person:<subject>`, `persona:<name>`. */
  library: string;
  /** '' at the library's root. */
  folderPath: string;
  fileName: string;
  /** The canonical `mcp://…` address. */
  uri: string;
}

/** A claimed row: the job and how many writes had asked when it was claimed. */
export interface ClaimedJob extends JobRequest {
  workflowId: string;
  requests: number;
  /** Dispatches tried, this one included. */
  attempts: number;
  /** Absent when the resource is gone (its workflow finds nothing to do). */
  labels?: JobResourceLabels;
}

interface JobRow {
  workflow_id: string;
  kind: string;
  resource_id: string;
  params: Record<string, unknown>;
  requests: number;
  attempts: number;
  library_kind: string | null;
  library_key: string | null;
  folder_path: string | null;
  file_name: string | null;
}

/** Longest `last_error` kept: Temporal's message, cut. */
const MAX_ERROR_CHARS = 1000;

/**
 * Inside a write's transaction: records its jobs (a row already waiting for the same workflow
 * counts one more request, its params merged for kinds that merge them). Returns the workflow ids,
 * for the dispatch after commit.
 */
export async function recordJobs(client: Queryable, requests: readonly JobRequest[], now: Date): Promise<string[]> {
  const byId = new Map(requests.map((request) => [jobSpec(request.kind).workflowId(request), request]));
  // In id order: two writes that ask for the same jobs lock their rows in the same order.
  const ids = [...byId.keys()].sort();
  for (const workflowId of ids) {
    const request = byId.get(workflowId)!;
    const merge = jobSpec(request.kind).mergeParams;
    if (merge) await recordMerging(client, workflowId, request, merge, now);
    else await client.query(`${insertJob} ON CONFLICT (workflow_id) DO UPDATE SET requests = resource_jobs.requests + 1, requested_at = EXCLUDED.requested_at`, insertParams(workflowId, request, now));
  }
  return ids;
}

const insertJob = `INSERT INTO resource_jobs (workflow_id, kind, resource_id, params, created_at, requested_at, due_at) VALUES ($1, $2, $3, $4::jsonb, $5, $5, $5)`;

function insertParams(workflowId: string, request: JobRequest, now: Date): unknown[] {
  return [workflowId, request.kind, request.resourceId, JSON.stringify(request.params), now];
}

/**
 * A kind whose params merge: the waiting row's params become what both requests asked. Compare
 * and set on the params read (no transaction needed): a concurrent request, a dispatch's delete or
 * an insert in between makes it read again.
 */
async function recordMerging(client: Queryable, workflowId: string, request: JobRequest, merge: NonNullable<JobKindSpec['mergeParams']>, now: Date): Promise<void> {
  for (;;) {
    const waiting = (await client.query<{ params: Record<string, unknown> }>(`SELECT params FROM resource_jobs WHERE workflow_id = $1`, [workflowId])).rows[0];
    if (!waiting) {
      if ((await client.query(`${insertJob} ON CONFLICT (workflow_id) DO NOTHING`, insertParams(workflowId, request, now))).rowCount === 1) return;
      continue;
    }
    const merged = await client.query(
      `UPDATE resource_jobs SET params = $2::jsonb, requests = requests + 1, requested_at = $3 WHERE workflow_id = $1 AND params = $4::jsonb`,
      [workflowId, JSON.stringify(merge(waiting.params, request.params)), now, JSON.stringify(waiting.params)],
    );
    if (merged.rowCount === 1) return;
  }
}

/**
 * Claims unclaimed (or lease-expired) rows until `now + leaseMs`: the named ones (the dispatch
 * right after a write, whatever their backoff says), or else up to `limit` of those due. Each
 * comes with where its resource is now (`labels`), which its workflow is started with.
 */
export async function claimJobs(db: Queryable, opts: { workflowIds?: readonly string[]; now: Date; leaseMs: number; limit: number }): Promise<ClaimedJob[]> {
  const pick = opts.workflowIds
    ? `workflow_id = ANY($4::text[])`
    : `due_at <= $1 ORDER BY due_at LIMIT $4`;
  const res = await db.query<JobRow>(
    `WITH picked AS (
       SELECT workflow_id FROM resource_jobs
       WHERE kind = ANY($3::text[]) AND (claimed_until IS NULL OR claimed_until <= $1) AND ${pick}
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE resource_jobs j SET claimed_until = $2, attempts = j.attempts + 1
       FROM picked WHERE j.workflow_id = picked.workflow_id
       RETURNING j.workflow_id, j.kind, j.resource_id, j.params, j.requests, j.attempts
     )
     SELECT c.*, r.library_kind, r.library_key, r.folder_path, r.file_name
     FROM claimed c LEFT JOIN resources r ON r.id = c.resource_id`,
    [opts.now, new Date(opts.now.getTime() + opts.leaseMs), Object.keys(resourceJobKinds), opts.workflowIds ?? opts.limit],
  );
  return res.rows.flatMap((row) => (isJobKind(row.kind) ? [claimed(row, row.kind)] : []));
}

function claimed(row: JobRow, kind: JobKind): ClaimedJob {
  const job: ClaimedJob = { kind, resourceId: row.resource_id, params: row.params, workflowId: row.workflow_id, requests: row.requests, attempts: row.attempts };
  const { library_kind, library_key, folder_path, file_name } = row;
  if (library_kind === null || library_key === null || folder_path === null || file_name === null) return job;
  const address = { library_kind, library_key, folder_path, file_name };
  return { ...job, labels: { library: formatLibrary(rowLibrary(address)), folderPath: folder_path, fileName: file_name, uri: rowUri(address) } };
}

/**
 * After a successful start: removes the row, unless a write asked again while it started (its
 * change may be newer than what the start saw). Then the claim is released, due now, and false
 * is answered: dispatch it again.
 */
export async function finishJob(db: Queryable, job: ClaimedJob, now: Date): Promise<boolean> {
  const gone = await db.query(`DELETE FROM resource_jobs WHERE workflow_id = $1 AND requests = $2`, [job.workflowId, job.requests]);
  if ((gone.rowCount ?? 0) > 0) return true;
  await db.query(
    `UPDATE resource_jobs SET claimed_until = NULL, due_at = $2, attempts = 0, last_error = NULL, requests = requests - $3 WHERE workflow_id = $1`,
    [job.workflowId, now, job.requests],
  );
  return false;
}

/** After a failed start: the claim released, the row due again at `retryAt`, the reason kept. */
export async function failJob(db: Queryable, job: ClaimedJob, error: string, retryAt: Date): Promise<void> {
  await db.query(`UPDATE resource_jobs SET claimed_until = NULL, due_at = $2, last_error = $3 WHERE workflow_id = $1`, [
    job.workflowId,
    retryAt,
    error.slice(0, MAX_ERROR_CHARS),
  ]);
}

/** Rows waiting, per kind (every registered kind, 0 included). */
export async function jobBacklog(db: Queryable): Promise<Record<JobKind, number>> {
  const res = await db.query<{ kind: string; n: number }>(`SELECT kind, count(*)::int AS n FROM resource_jobs GROUP BY kind`);
  const backlog = Object.fromEntries(Object.keys(resourceJobKinds).map((k) => [k, 0])) as Record<JobKind, number>;
  for (const row of res.rows) if (isJobKind(row.kind)) backlog[row.kind] = row.n;
  return backlog;
}
