/**
 * Hands resource jobs to Temporal: right after a write commits, the process that wrote starts its
 * jobs' workflows (`dispatch`); a sweeper in every process with a Temporal client retries what a
 * crash or a failed start left in the outbox (`sweep`, every `sweepEveryMs`), with a growing
 * backoff per row. A claim's lease keeps two dispatchers off one row at a time; the start itself
 * is idempotent (deterministic workflow ids; signal-with-start for coalescing kinds).
 */
import { reconnectDelay, type Backoff, type Db } from '../../db/index.js';
import type { Logger } from '../../logging/index.js';
import { jobSpec } from './kinds.js';
import type { ResourceJobMetrics } from './metrics.js';
import { claimJobs, failJob, finishJob, jobBacklog, type ClaimedJob, type JobResourceLabels } from './outbox.js';

/** One workflow to start, as the kind registry describes it. */
export interface JobStart {
  workflowType: string;
  workflowId: string;
  taskQueue: string;
  args: unknown[];
  /** Coalescing kinds: signal-with-start with this signal, */
  signal?: string;
  /** carrying these arguments (none when absent). */
  signalArgs?: unknown[];
  /** Where the resource is, for operators to find the workflow by (absent when the resource is gone). */
  labels?: JobResourceLabels;
}

/** Starts workflows (worker/resource-jobs.ts, through a Temporal client). Resolves once Temporal accepted; an id already started counts as accepted. */
export interface JobStarter {
  start(job: JobStart): Promise<void>;
}

/** What a write's transaction hands its committed jobs to. */
export interface ResourceJobHandOff {
  /** Starts the named jobs' workflows now, in the background (never fails the write). */
  dispatch(workflowIds: readonly string[]): void;
}

export interface ResourceJobDispatcherOptions {
  db: Db;
  starter: JobStarter;
  /** `temporal.task_queue`. */
  platformQueue: string;
  log: Pick<Logger, 'warn' | 'info' | 'debug'>;
  metrics?: ResourceJobMetrics;
  clock?: () => Date;
  /** How long a claim keeps other dispatchers off a row; longer than a start may take. */
  leaseMs?: number;
  /** Wait before retrying a row whose start failed: doubling from `initialMs` per attempt, up to `maxMs`. */
  backoff?: Backoff;
  sweepEveryMs?: number;
  /** Rows claimed per sweep query. */
  batch?: number;
}

export const RESOURCE_JOB_DEFAULTS = {
  leaseMs: 60_000,
  backoff: { initialMs: 5_000, maxMs: 600_000 },
  sweepEveryMs: 30_000,
  batch: 100,
} as const;

export class ResourceJobDispatcher implements ResourceJobHandOff {
  readonly #opts: ResourceJobDispatcherOptions;
  readonly #clock: () => Date;
  readonly #leaseMs: number;
  readonly #backoff: Backoff;
  readonly #batch: number;
  readonly #inflight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(opts: ResourceJobDispatcherOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? (() => new Date());
    this.#leaseMs = opts.leaseMs ?? RESOURCE_JOB_DEFAULTS.leaseMs;
    this.#backoff = opts.backoff ?? RESOURCE_JOB_DEFAULTS.backoff;
    this.#batch = opts.batch ?? RESOURCE_JOB_DEFAULTS.batch;
  }

  dispatch(workflowIds: readonly string[]): void {
    if (workflowIds.length === 0 || this.#closed) return;
    this.#track(this.#dispatchNamed(workflowIds));
  }

  /**
   * One sweep pass: dispatches every due row (claim batches until one comes back short) and
   * counts the backlog. Answers how many rows were started and how many failed.
   */
  async sweep(): Promise<{ started: number; failed: number }> {
    const counts = { started: 0, failed: 0 };
    const again: string[] = [];
    for (;;) {
      const claimed = await claimJobs(this.#opts.db, { now: this.#clock(), leaseMs: this.#leaseMs, limit: this.#batch });
      // All at once: each start ends within its deadline, so every claim of the batch is settled well inside its lease.
      const outcomes = await Promise.all(claimed.map(async (job) => ({ job, outcome: await this.#run(job) })));
      for (const { job, outcome } of outcomes) {
        if (outcome === 'failed') counts.failed++;
        else counts.started++;
        if (outcome === 'again') again.push(job.workflowId);
      }
      if (claimed.length < this.#batch) break;
    }
    // Asked again while starting: started again now, as after a write.
    await this.#dispatchNamed(again);
    const backlog = await jobBacklog(this.#opts.db);
    for (const [kind, n] of Object.entries(backlog)) this.#opts.metrics?.backlog.set({ kind }, n);
    if (counts.failed > 0 || counts.started > 0) this.#opts.log.info({ ...counts, backlog }, 'resource job sweep');
    return counts;
  }

  /** Sweeps now and then every `sweepEveryMs` until close(); a failed pass is logged and the next one comes as usual. */
  startSweeping(): void {
    if (this.#timer !== undefined || this.#closed) return;
    const every = this.#opts.sweepEveryMs ?? RESOURCE_JOB_DEFAULTS.sweepEveryMs;
    const pass = () => {
      const run = this.sweep().then(
        () => undefined,
        (error: unknown) => this.#opts.log.warn({ err: { message: errorMessage(error) } }, 'resource job sweep failed'),
      );
      this.#track(
        run.finally(() => {
          if (!this.#closed) this.#timer = setTimeout(pass, every).unref();
        }),
      );
    };
    this.#timer = setTimeout(pass, 0).unref();
  }

  /** Resolves once every dispatch and sweep pass under way has ended. */
  async idle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  /** Stops sweeping and waits for what is under way; later dispatches are left to another process's sweeper. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.idle();
  }

  #track(work: Promise<void>): void {
    this.#inflight.add(work);
    void work.finally(() => this.#inflight.delete(work));
  }

  async #dispatchNamed(workflowIds: readonly string[]): Promise<void> {
    try {
      // Another round only for jobs a newer write asked for while they started: it ends when the writes do.
      let again = workflowIds;
      while (again.length > 0) {
        const claimed = await claimJobs(this.#opts.db, { workflowIds: again, now: this.#clock(), leaseMs: this.#leaseMs, limit: again.length });
        const outcomes = await Promise.all(claimed.map(async (job) => ({ job, outcome: await this.#run(job) })));
        again = outcomes.filter((o) => o.outcome === 'again').map((o) => o.job.workflowId);
      }
    } catch (error) {
      // The database failed us (the rows are still there): the sweeper takes them.
      this.#opts.log.warn({ workflowIds, err: { message: errorMessage(error) } }, 'resource jobs not dispatched; the sweeper will');
    }
  }

  /** Starts one claimed job and settles its row: done, asked again meanwhile, or failed (backoff). */
  async #run(job: ClaimedJob): Promise<'done' | 'again' | 'failed'> {
    const spec = jobSpec(job.kind);
    try {
      await this.#opts.starter.start({
        workflowType: spec.workflowType,
        workflowId: job.workflowId,
        taskQueue: spec.taskQueue(this.#opts.platformQueue),
        args: spec.args(job),
        ...(spec.signal ? { signal: spec.signal } : {}),
        ...(spec.signalArgs ? { signalArgs: spec.signalArgs(job) } : {}),
        ...(job.labels ? { labels: job.labels } : {}),
      });
    } catch (error) {
      const retryInMs = reconnectDelay(job.attempts - 1, this.#backoff);
      const message = errorMessage(error);
      await failJob(this.#opts.db, job, message, new Date(this.#clock().getTime() + retryInMs));
      this.#opts.metrics?.dispatches.inc({ kind: job.kind, result: 'failed' });
      this.#opts.log.warn({ workflowId: job.workflowId, kind: job.kind, attempts: job.attempts, retryInMs, err: { message } }, 'resource job not started; it waits in the outbox');
      return 'failed';
    }
    this.#opts.metrics?.dispatches.inc({ kind: job.kind, result: 'started' });
    return (await finishJob(this.#opts.db, job, this.#clock())) ? 'done' : 'again';
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
