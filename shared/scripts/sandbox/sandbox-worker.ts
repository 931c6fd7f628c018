/**
 * The api's side of one sandbox worker thread: starts it, hands it runs (several at once when the
 * pool says so), answers each run's asks (libraries, host calls), and terminates it when a run
 * overstays its deadline by the grace (the interpreter's interrupt is the normal stop; this is the
 * last resort — a script inside one long built-in call cannot be interrupted). Ending one run's
 * thread fails no other run that can be run again: what was not started, or made no host call,
 * is placed again by the pool.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleThread } from '../../threads/index.js';
import type { Ask, FromWorker, RunDone, RunRequest, ToWorker, WorkerData } from './protocol.js';
import { ThreadState, threadStateBuffer } from './thread-state.js';
import { defaultConsoleLimitBytes, LazyHost, type SandboxRun } from './types.js';

/** The worker's entry (worker.ts), with the thread's heap bounds. */
function startWorker(workerData: WorkerData): Worker {
  // The JS heap of the thread (not QuickJS's WebAssembly memory, which setMemoryLimit bounds). It
  // holds only the engine's glue (some 7 MiB live) and each run's short-lived garbage, yet V8 would
  // grow its young generation, run after run, to 32 MiB and more per thread (a thread's heap from
  // 16 to 44 MiB over a few thousand runs): kept at 4 MiB, it stays near its live size.
  const resourceLimits = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 4 };
  return startModuleThread(import.meta.url, 'worker', { resourceLimits, workerData });
}

export interface WorkerSettings {
  maxStackBytes: number;
  terminateGraceMs: number;
  /** How long a thread may take to get its engine ready for a run (a WebAssembly module compiled on a busy machine). */
  startAllowanceMs: number;
}

/** A run on the thread: its asks are answered from it, its end resolves it. */
class ThreadRun {
  /** The pool saw it started (its deadline counts from then). */
  seenStarted = false;
  /** It asked the api's thread for anything: it is under way across waits, and the thread holds no other run. */
  asked = false;
  /** It made a host call: it can never be run again elsewhere. */
  calledHost = false;
  /** When the thread is terminated if the run is still on it (Date.now() ms; checked by `watch`). */
  overstayAt: number;
  /** Settles the promise `execute` answered (set as the promise is made). */
  resolve!: (placed: Placed) => void;

  constructor(
    readonly run: SandboxRun,
    readonly runId: number,
    /** Its claim cell on the thread (thread-state.ts). */
    readonly slot: number,
    /** Started, it may still be run again elsewhere if its thread ends before it made a host call (once). */
    readonly mayReplay: boolean,
    readonly settings: WorkerSettings,
  ) {
    this.overstayAt = Date.now() + run.deadlineMs + settings.terminateGraceMs + settings.startAllowanceMs;
  }
}

/** What a run handed to a thread came to: its end, or `moved` — not run there (or only its effect-free part), to be placed again. */
export type Placed = RunDone | { type: 'moved'; started: boolean };

let nextRunId = 1;

export class SandboxWorker {
  readonly #worker: Worker;
  readonly #ready: Promise<void>;
  /** The thread said it is ready: runs are sent without waiting on #ready. */
  #isReady = false;
  #alive = true;
  readonly #runs = new Map<number, ThreadRun>();
  /** Runs here that asked the api's thread for anything (ThreadRun.asked), counted as they ask and end. */
  #asking = 0;
  readonly #state: ThreadState;
  /** Claim cells not in use. */
  readonly #freeSlots: number[];
  #outbox: ToWorker[] = [];

  /** `slots`: the most runs the thread is ever handed at once (the pool's maxConcurrent). */
  constructor(slots: number) {
    const state = threadStateBuffer(slots);
    this.#state = new ThreadState(state);
    this.#freeSlots = Array.from({ length: slots }, (_, i) => slots - 1 - i);
    this.#worker = startWorker({ state });
    this.#worker.unref();
    this.#ready = new Promise((resolve, reject) => {
      this.#worker.once('error', reject);
      this.#worker.on('message', (messages: FromWorker[]) => {
        for (const message of messages) {
          if (message.type === 'done') this.#finishRun(message.runId, message);
          else if (message.type === 'returned') this.#finishRun(message.runId, { type: 'moved', started: false });
          else if (message.type === 'ready') {
            this.#isReady = true;
            resolve();
          } else void this.#answer(message);
        }
      });
    });
    this.#worker.on('error', (err) => this.#stopped(`the sandbox worker failed: ${err.message}`));
    this.#worker.on('exit', () => this.#stopped('the sandbox worker stopped'));
  }

  /** False once the thread has ended: the pool drops it. */
  get alive(): boolean {
    return this.#alive;
  }

  /** Runs on this thread now. */
  get load(): number {
    return this.#runs.size;
  }

  /**
   * Whether a new run may be placed here: the thread is alive, has not been computing for more
   * than `stallMs` by the clock (a script in one long built-in call passes no interruption check,
   * yet holds the thread), and holds no run under way across a wait (the thread would return it).
   */
  accepts(now: number, stallMs: number): boolean {
    return this.#alive && this.#asking === 0 && this.#state.computingFor(now) <= stallMs;
  }

  /**
   * Looks at the thread's runs (the pool's sweep, every `stallMs` while runs are in flight: one
   * clock for every run's deadline, no timer per run): a run the thread claimed has its deadline
   * count from now; one the thread handed back ends `moved` (its message may be held up behind a
   * script); while the thread computes past `stallMs`, runs handed here but not started are taken
   * back, each ending `moved` to be placed elsewhere; and a run past its overstay ends, its thread
   * terminated.
   */
  watch(now: number, stallMs: number): void {
    const stalled = this.#state.computingFor(now) > stallMs;
    let overstayed = false;
    for (const [runId, current] of [...this.#runs]) {
      if (now >= current.overstayAt) {
        overstayed = true;
        this.#finish(current, { type: 'done', status: 'timeout', error: 'the run passed its deadline and its worker was stopped', console: '' });
        continue;
      }
      if (current.seenStarted) continue;
      if (this.#state.claimed(current.slot, runId)) {
        current.seenStarted = true;
        current.overstayAt = now + current.run.deadlineMs + current.settings.terminateGraceMs;
      } else if (!this.#state.offered(current.slot, runId) || (stalled && this.#state.revoke(current.slot, runId))) this.#finish(current, { type: 'moved', started: false });
    }
    if (overstayed) void this.terminate();
  }

  /**
   * Runs `run` on this thread; the deadline counts from when the thread claimed it (its engine
   * ready; seen by `watch`). A run still going `terminateGraceMs` past its deadline — or, never started, past
   * the deadline and `startAllowanceMs` — has the thread terminated: its runs not started, and
   * (once, `mayReplay`) those that made no host call, end `moved`; one that made a host call ends as an error.
   */
  execute(run: SandboxRun, argsJson: string, settings: WorkerSettings, mayReplay: boolean): Promise<Placed> {
    const runId = nextRunId;
    nextRunId = nextRunId >= 0x7fffffff ? 1 : nextRunId + 1;
    const slot = this.#freeSlots.pop();
    // Never: a thread holds at most the sandbox's admitted runs, and as many cells.
    if (slot === undefined) return Promise.resolve({ type: 'done', status: 'error', error: 'the sandbox thread has no free run cell', console: '' });
    this.#state.offer(slot, runId);
    const request: RunRequest = {
      type: 'run',
      runId,
      slot,
      source: run.source,
      entry: run.entry,
      argsJson,
      memoryBytes: run.memoryBytes,
      maxStackBytes: settings.maxStackBytes,
      deadlineMs: run.deadlineMs,
      hostNames: run.host instanceof LazyHost ? (run.host.names as string[]) : Object.keys(run.host),
      authority: run.authority ?? '',
      consoleLimitBytes: run.consoleLimitBytes ?? defaultConsoleLimitBytes,
    };
    const current = new ThreadRun(run, runId, slot, mayReplay, settings);
    const finished = new Promise<Placed>((resolve) => (current.resolve = resolve));
    this.#runs.set(runId, current);
    if (this.#isReady) this.#send(request);
    else
      this.#ready.then(
        () => this.#send(request),
        (err: unknown) => this.#finish(current, { type: 'done', status: 'error', error: `the sandbox worker did not start: ${(err as Error).message}`, console: '' }),
      );
    return finished;
  }

  #finishRun(runId: number, done: Placed): void {
    const current = this.#runs.get(runId);
    if (current) this.#finish(current, done);
  }

  #finish(current: ThreadRun, done: Placed): void {
    if (!this.#runs.delete(current.runId)) return;
    if (current.asked) this.#asking--;
    this.#state.free(current.slot);
    this.#freeSlots.push(current.slot);
    current.resolve(done);
  }

  async terminate(): Promise<void> {
    this.#alive = false;
    await this.#worker.terminate();
  }

  /** The thread ended: its runs that made no host call are placed again (a started one once); the others end with `reason`. */
  #stopped(reason: string): void {
    this.#alive = false;
    for (const [runId, current] of [...this.#runs]) {
      const started = this.#state.claimed(current.slot, runId);
      if (!started || (!current.calledHost && current.mayReplay)) this.#finish(current, { type: 'moved', started });
      else this.#finish(current, { type: 'done', status: 'error', error: reason, console: '' });
    }
  }

  /**
   * Queues `message` for the thread: what one turn of the event loop sends — every request that
   * arrived in it, each starting its run beside its binding read — goes as one batch (one wake-up
   * of the thread). setImmediate, not a tick: a tick went with each arrival's own callback, one
   * message per request (docs/endpoints.md, "Performance").
   */
  #send(message: ToWorker): void {
    if (!this.#alive) return;
    this.#outbox.push(message);
    if (this.#outbox.length === 1) setImmediate(() => this.#flush());
  }

  #flush(): void {
    const batch = this.#outbox;
    this.#outbox = [];
    if (this.#alive && batch.length > 0) this.#worker.postMessage(batch);
  }

  async #answer(message: Ask): Promise<void> {
    const current = this.#runs.get(message.runId);
    if (!current) return;
    const { run } = current;
    if (!current.asked) this.#asking++;
    current.asked = true;
    if (message.type === 'host') current.calledHost = true;
    try {
      const value = message.type === 'library' ? ((await run.resolveLibrary(message.name)) ?? null) : await callHost(run, message.name, message.argsJson);
      this.#send({ type: 'reply', id: message.id, ok: true, value });
    } catch (err) {
      this.#send({ type: 'reply', id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  }
}
/** Calls a host function with the script's JSON arguments; answers its result as JSON text. */
async function callHost(run: SandboxRun, name: string, argsJson: string): Promise<string> {
  const host = run.host instanceof LazyHost ? (run.host.names.includes(name) ? run.host.functions() : {}) : run.host;
  const fn = Object.hasOwn(host, name) ? host[name] : undefined;
  if (!fn) throw new Error(`platform.${name} is not available`);
  const args: unknown = JSON.parse(argsJson);
  const result = await fn(...(Array.isArray(args) ? args : []));
  return JSON.stringify(result) ?? 'null';
}
