/**
 * The sandbox: worker threads running scripts, at most `maxConcurrent` runs at once (the
 * per-replica cap, with a cap per principal and slots kept for endpoint handlers: admission.ts;
 * over one a run is answered `busy` at once). No script runs on the caller's thread: QuickJS
 * cannot interrupt a long built-in call (a big `indexOf`, regex or `JSON.stringify`), so only a
 * thread can be stopped at a deadline, by terminating it.
 *
 * Threads are few: `maxThreads` of them (one per core but the api's own, one at least) carry every
 * run, several per thread when needed — each run in its own QuickJS module instance — and a warm
 * handler that does not wait runs start to end in one turn, so a thread serves a burst one run
 * after another. More threads than the cores left to them cost more than they give (measured: CPU
 * per trivial run grows from ~80 µs with 8 threads to ~480 µs with 32 on two cores; endpoint
 * requests/s on two cores, 2 threads vs 4: 4,300 vs 3,100, and 1 vs 2 in five interleaved pairs:
 * higher in four, ~10% less CPU per request). A thread takes no new run while its script has been computing past `stallMs` by
 * the clock, or while it holds a run under way across a wait for the host (worker.ts); runs handed
 * to a thread that then computes past `stallMs` are taken back before they start and placed again;
 * and when no thread takes runs a new one starts. Idle threads are kept — `keepIdle` of them; idle
 * ones beyond end after `idleMs` — and one that ended (terminated past a deadline, crashed) is
 * replaced: its runs that can run again are placed again (sandbox-worker.ts).
 */
import { availableParallelism } from 'node:os';
import { RunAdmission } from './admission.js';
import { SandboxWorker, type WorkerSettings } from './sandbox-worker.js';
import type { RunDone } from './protocol.js';
import type { Sandbox, SandboxOptions, SandboxOutcome, SandboxRun } from './types.js';

export function createSandbox(options: SandboxOptions): Sandbox {
  if (!Number.isInteger(options.maxConcurrent) || options.maxConcurrent < 1) throw new Error('sandbox: maxConcurrent must be a positive integer');
  const admission = new RunAdmission({
    total: options.maxConcurrent,
    perPrincipal: options.maxPerPrincipal ?? options.maxConcurrent,
    reservedForHandlers: options.reservedForHandlers ?? 0,
  });
  const settings: WorkerSettings = { maxStackBytes: options.maxStackBytes ?? 512 * 1024, terminateGraceMs: options.terminateGraceMs ?? 1_000, startAllowanceMs: 30_000 };
  const cores = availableParallelism();
  // The api's own thread keeps a core: sandbox threads on it wake and preempt the thread that serves every request.
  const maxThreads = Math.min(options.maxConcurrent, options.maxThreads ?? Math.max(1, cores - 1));
  const keepIdle = options.keepIdle ?? maxThreads;
  const idleMs = options.idleMs ?? 30_000;
  const stallMs = options.stallMs ?? 10;
  const threads = new Set<SandboxWorker>();
  /** Idle threads beyond keepIdle, and when each ends. */
  const retiring = new Map<SandboxWorker, NodeJS.Timeout>();
  /**
   * While runs are in flight: sees them start, takes runs back from threads computing past
   * stallMs, and stops a thread whose run overstayed its deadline (SandboxWorker.watch). One timer
   * for every run, held (not unref'd) while runs are in flight, as each run's own timer was.
   */
  let sweep: NodeJS.Timeout | undefined;
  const sweepThreads = () => {
    const now = Date.now();
    for (const worker of threads) worker.watch(now, stallMs);
  };
  let closed = false;

  const start = (): SandboxWorker => {
    const worker = new SandboxWorker(options.maxConcurrent);
    threads.add(worker);
    return worker;
  };

  /** An idle thread; else a new one while under maxThreads; else the least loaded thread that takes runs; else a new one. */
  const pick = (): SandboxWorker => {
    const now = Date.now();
    let least: SandboxWorker | undefined;
    for (const worker of threads) {
      if (!worker.alive) {
        threads.delete(worker);
        continue;
      }
      if (!worker.accepts(now, stallMs)) continue;
      if (worker.load === 0) return worker;
      if (!least || worker.load < least.load) least = worker;
    }
    if (threads.size < maxThreads || !least) return start();
    return least;
  };

  const settle = (worker: SandboxWorker) => {
    if (!worker.alive || closed) {
      threads.delete(worker);
      return;
    }
    if (worker.load > 0) return;
    let idle = 0;
    for (const other of threads) if (other.alive && other.load === 0 && !retiring.has(other)) idle++;
    if (idle <= keepIdle) return;
    const timer = setTimeout(() => {
      retiring.delete(worker);
      if (worker.load > 0 || !threads.has(worker)) return;
      threads.delete(worker);
      void worker.terminate();
    }, idleMs);
    timer.unref();
    retiring.set(worker, timer);
  };

  return {
    get running() {
      return admission.running;
    },

    get threads() {
      return [...threads].filter((worker) => worker.alive).length;
    },

    async run(run: SandboxRun): Promise<SandboxOutcome> {
      const started = performance.now();
      if (closed) return { status: 'error', error: 'the sandbox is closed', console: '', durationMs: 0 };
      const admitted = admission.admit(run);
      if (!admitted.ok) return { status: 'busy', error: admitted.error, console: '', durationMs: performance.now() - started };
      sweep ??= setInterval(sweepThreads, stallMs);
      try {
        let argsJson: string;
        try {
          argsJson = JSON.stringify(run.args);
        } catch (err) {
          // A value too deep or too large to copy in (RangeError) is the caller's error, not the sandbox's.
          return { status: 'error', error: `the run's arguments could not be copied in: ${(err as Error).message}`, console: '', durationMs: performance.now() - started };
        }
        // On a thread; placed again each time it comes back `moved` (a started one may be replayed once).
        for (let mayReplay = true; ; ) {
          if (closed) return { status: 'error', error: 'the sandbox was closed', console: '', durationMs: performance.now() - started };
          const worker = pick();
          clearTimeout(retiring.get(worker));
          retiring.delete(worker);
          const placed = await worker.execute(run, argsJson, settings, mayReplay);
          settle(worker);
          if (placed.type === 'done') return toOutcome(placed, performance.now() - started);
          if (placed.started) mayReplay = false;
        }
      } finally {
        admitted.release();
        if (admission.running === 0) {
          clearInterval(sweep);
          sweep = undefined;
        }
      }
    },

    async close() {
      closed = true;
      clearInterval(sweep);
      for (const timer of retiring.values()) clearTimeout(timer);
      retiring.clear();
      await Promise.all([...threads].map((worker) => worker.terminate()));
      threads.clear();
    },
  };
}

function toOutcome(done: RunDone, durationMs: number): SandboxOutcome {
  if (done.status !== 'ok') return { status: done.status, error: done.error ?? done.status, console: done.console, durationMs };
  return { status: 'ok', result: JSON.parse(done.resultJson ?? 'null') as unknown, console: done.console, durationMs };
}
