/**
 * The sandbox: a pool of worker threads, one run at a time on each, at most `maxConcurrent` at
 * once (the per-replica cap). A script's CPU loop runs on its thread, so the api's event loop keeps
 * answering; over the cap a run is answered `busy` at once. Threads start on first need and are
 * kept for later runs — `keepIdle` of them; idle ones beyond end after `idleMs` — and one that
 * ended (terminated past a deadline, crashed) is replaced.
 */
import { availableParallelism } from 'node:os';
import { SandboxWorker, type WorkerSettings } from './sandbox-worker.js';
import type { RunDone } from './protocol.js';
import type { Sandbox, SandboxOptions, SandboxOutcome, SandboxRun } from './types.js';

export function createSandbox(options: SandboxOptions): Sandbox {
  if (!Number.isInteger(options.maxConcurrent) || options.maxConcurrent < 1) throw new Error('sandbox: maxConcurrent must be a positive integer');
  const settings: WorkerSettings = { maxStackBytes: options.maxStackBytes ?? 512 * 1024, terminateGraceMs: options.terminateGraceMs ?? 1_000, startAllowanceMs: 30_000 };
  const keepIdle = options.keepIdle ?? Math.min(options.maxConcurrent, availableParallelism());
  const idleMs = options.idleMs ?? 30_000;
  const idle: SandboxWorker[] = [];
  const all = new Set<SandboxWorker>();
  /** Idle threads beyond keepIdle, and when each ends. */
  const retiring = new Map<SandboxWorker, NodeJS.Timeout>();
  let running = 0;
  let closed = false;

  const take = (): SandboxWorker => {
    for (let worker = idle.pop(); worker; worker = idle.pop()) {
      clearTimeout(retiring.get(worker));
      retiring.delete(worker);
      if (worker.alive) return worker;
      all.delete(worker);
    }
    const worker = new SandboxWorker();
    all.add(worker);
    return worker;
  };

  const park = (worker: SandboxWorker) => {
    idle.push(worker);
    if (idle.length <= keepIdle) return;
    const timer = setTimeout(() => {
      retiring.delete(worker);
      const at = idle.indexOf(worker);
      if (at < 0) return;
      idle.splice(at, 1);
      all.delete(worker);
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
      return [...all].filter((worker) => worker.alive).length;
    },

    async run(run: SandboxRun): Promise<SandboxOutcome> {
      const started = performance.now();
      const elapsed = () => performance.now() - started;
      if (closed) return { status: 'error', error: 'the sandbox is closed', console: '', durationMs: 0 };
      if (running >= options.maxConcurrent) return { status: 'busy', error: `all ${options.maxConcurrent} script runs of this replica are in use`, console: '', durationMs: elapsed() };
      running++;
      let worker: SandboxWorker | undefined;
      let done: RunDone;
      try {
        worker = take();
        done = await worker.execute(run, settings);
      } catch (err) {
        done = { type: 'done', status: 'error', error: `the sandbox worker did not start: ${(err as Error).message}`, console: '' };
      } finally {
        running--;
      }
      if (worker?.alive && !closed) park(worker);
      else if (worker) all.delete(worker);
      return toOutcome(done, elapsed());
    },

    async close() {
      closed = true;
      idle.length = 0;
      for (const timer of retiring.values()) clearTimeout(timer);
      retiring.clear();
      await Promise.all([...all].map((worker) => worker.terminate()));
      all.clear();
    },
  };
}

function toOutcome(done: RunDone, durationMs: number): SandboxOutcome {
  if (done.status !== 'ok') return { status: done.status, error: done.error ?? done.status, console: done.console, durationMs };
  return { status: 'ok', result: JSON.parse(done.resultJson ?? 'null') as unknown, console: done.console, durationMs };
}
