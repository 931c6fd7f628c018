/**
 * The sandbox: worker threads running scripts, at most `maxConcurrent` runs at once (the
 * per-replica cap; over it a run is answered `busy` at once). A script's CPU loop runs on its
 * thread, so the api's event loop keeps answering.
 *
 * Threads are few: `maxThreads` of them (one per core, two at least) carry every run, several per
 * thread when needed — each run in its own QuickJS module instance, interleaving only where a
 * script awaits the host; a warm handler that does not wait runs start to end in one turn, so a
 * thread serves a burst one run after another. More threads than cores cost more than they give
 * (measured: CPU per trivial run grows from ~80 µs with 8 threads to ~480 µs with 32 on two cores;
 * endpoint requests/s on two cores, 2 threads vs 4: 4,300 vs 3,100). A thread whose
 * script computes without pause for `stallMs` is passed over, and when every thread is so stalled
 * a new one starts (up to one per run), so one CPU-bound script delays the others little. Silence
 * alone is not a stall: on a busy machine every thread is silent for a while (waiting for a core,
 * or for the api's thread to read its answers), and taking that for computing started a thread
 * per run — each compiling its engine and evaluating its script — just when cores were scarcest. Idle
 * threads are kept — `keepIdle` of them; idle ones beyond end after `idleMs` — and one that ended
 * (terminated past a deadline, crashed) is replaced.
 */
import { availableParallelism } from 'node:os';
import { InlineHandlers } from './inline.js';
import { SandboxWorker, type WorkerSettings } from './sandbox-worker.js';
import type { RunDone } from './protocol.js';
import { defaultConsoleLimitBytes, type Sandbox, type SandboxOptions, type SandboxOutcome, type SandboxRun } from './types.js';

export function createSandbox(options: SandboxOptions): Sandbox {
  if (!Number.isInteger(options.maxConcurrent) || options.maxConcurrent < 1) throw new Error('sandbox: maxConcurrent must be a positive integer');
  const settings: WorkerSettings = { maxStackBytes: options.maxStackBytes ?? 512 * 1024, terminateGraceMs: options.terminateGraceMs ?? 1_000, startAllowanceMs: 30_000 };
  const cores = availableParallelism();
  const maxThreads = Math.min(options.maxConcurrent, options.maxThreads ?? Math.max(2, cores));
  const keepIdle = options.keepIdle ?? Math.min(options.maxConcurrent, cores);
  const idleMs = options.idleMs ?? 30_000;
  const stallMs = options.stallMs ?? 20;
  const stallChecks = options.stallChecks ?? 8;
  const inlineChecks = options.inlineChecks ?? 4;
  const inline = inlineChecks > 0 ? new InlineHandlers({ budgetChecks: inlineChecks, loadChecks: 64, maxStackBytes: settings.maxStackBytes }) : undefined;
  const threads = new Set<SandboxWorker>();
  /** Idle threads beyond keepIdle, and when each ends. */
  const retiring = new Map<SandboxWorker, NodeJS.Timeout>();
  let running = 0;
  let closed = false;

  const start = (): SandboxWorker => {
    const worker = new SandboxWorker();
    threads.add(worker);
    return worker;
  };

  /** An idle thread; else a new one while under maxThreads; else the least loaded thread that is not stalled; else a new one. */
  const pick = (): SandboxWorker => {
    const now = performance.now();
    let least: SandboxWorker | undefined;
    for (const worker of threads) {
      if (!worker.alive) {
        threads.delete(worker);
        continue;
      }
      if (worker.load === 0) return worker;
      if (!worker.stalled(now, stallMs, stallChecks) && (!least || worker.load < least.load)) least = worker;
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
      return running;
    },

    get threads() {
      return [...threads].filter((worker) => worker.alive).length;
    },

    get answeredInline() {
      return inline?.answered ?? 0;
    },

    async run(run: SandboxRun): Promise<SandboxOutcome> {
      const started = performance.now();
      const elapsed = () => performance.now() - started;
      if (closed) return { status: 'error', error: 'the sandbox is closed', console: '', durationMs: 0 };
      if (running >= options.maxConcurrent) return { status: 'busy', error: `all ${options.maxConcurrent} script runs of this replica are in use`, console: '', durationMs: elapsed() };
      running++;
      try {
        const answered = inline?.tryRun(run, run.consoleLimitBytes ?? defaultConsoleLimitBytes);
        const here = answered instanceof Promise ? await answered : answered;
        if (here) return toOutcome(here, elapsed());
        const worker = pick();
        clearTimeout(retiring.get(worker));
        retiring.delete(worker);
        const done = await worker.execute(run, settings);
        settle(worker);
        return toOutcome(done, elapsed());
      } finally {
        running--;
      }
    },

    async close() {
      closed = true;
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
