/**
 * The api's side of one sandbox worker thread: starts it, hands it runs (several at once when the
 * pool says so), answers each run's asks (libraries, host calls), and terminates it when a run
 * overstays its deadline by the grace (the interpreter's interrupt is the normal stop; this is the
 * last resort).
 */
import type { Worker } from 'node:worker_threads';
import { startModuleThread } from '../../threads/index.js';
import type { Ask, FromWorker, RunDone, RunRequest, ToWorker, WorkerData } from './protocol.js';
import { defaultConsoleLimitBytes, type SandboxRun } from './types.js';

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
interface ThreadRun {
  run: SandboxRun;
  started: () => void;
  finish: (done: RunDone) => void;
  /** Host or library asks sent and not answered yet: the run waits on the api's thread meanwhile. */
  waiting: number;
}

let nextRunId = 1;

export class SandboxWorker {
  readonly #worker: Worker;
  readonly #ready: Promise<void>;
  #alive = true;
  readonly #runs = new Map<number, ThreadRun>();
  #outbox: ToWorker[] = [];
  /** When the thread last sent anything, or was handed work while it had none (performance.now()). */
  #lastHeard = performance.now();
  /** The interpreter's interruption checks on the thread so far (WorkerData.checks), and their count at #lastHeard. */
  readonly #checks = new Int32Array(new SharedArrayBuffer(4));
  #checksHeard = 0;

  constructor() {
    this.#worker = startWorker({ checks: this.#checks.buffer as SharedArrayBuffer });
    this.#worker.unref();
    this.#ready = new Promise((resolve, reject) => {
      this.#worker.once('error', reject);
      this.#worker.on('message', (messages: FromWorker[]) => {
        this.#heard();
        for (const message of messages) {
          if (message.type === 'ready') resolve();
          else if (message.type === 'done') this.#runs.get(message.runId)?.finish(message);
          else if (message.type === 'started') this.#runs.get(message.runId)?.started();
          else void this.#answer(message);
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
   * Whether a run is executing on the thread (not waiting on the api's thread), the thread has
   * said nothing for `stallMs`, and its interpreter passed `stallChecks` interruption checks
   * meanwhile: a long synchronous stretch of a script, which the thread's other runs wait behind.
   */
  stalled(now: number, stallMs: number, stallChecks: number): boolean {
    if (now - this.#lastHeard < stallMs || ((Atomics.load(this.#checks, 0) - this.#checksHeard) | 0) < stallChecks) return false;
    for (const run of this.#runs.values()) if (run.waiting === 0) return true;
    return false;
  }

  /** The thread spoke, or was handed work while it had none: its silence and its computing count from now. */
  #heard(): void {
    this.#lastHeard = performance.now();
    this.#checksHeard = Atomics.load(this.#checks, 0);
  }

  /**
   * Runs `run` on this thread; the deadline counts from when the thread's engine is ready for it
   * (`started`). A run still going `terminateGraceMs` past its deadline — or, never started, past
   * the deadline and `startAllowanceMs` — has the thread terminated (its other runs end as errors).
   */
  async execute(run: SandboxRun, settings: WorkerSettings): Promise<RunDone> {
    if (this.#runs.size === 0) this.#heard();
    const runId = nextRunId++;
    const request: RunRequest = {
      type: 'run',
      runId,
      source: run.source,
      entry: run.entry,
      argsJson: JSON.stringify(run.args),
      memoryBytes: run.memoryBytes,
      maxStackBytes: settings.maxStackBytes,
      deadlineMs: run.deadlineMs,
      hostNames: Object.keys(run.host),
      consoleLimitBytes: run.consoleLimitBytes ?? defaultConsoleLimitBytes,
    };
    const finished = new Promise<RunDone>((resolve) => {
      const stop = () => {
        void this.terminate();
        finish({ type: 'done', status: 'timeout', error: 'the run passed its deadline and its worker was stopped', console: '' });
      };
      let overstay = setTimeout(stop, run.deadlineMs + settings.terminateGraceMs + settings.startAllowanceMs);
      const started = () => {
        clearTimeout(overstay);
        overstay = setTimeout(stop, run.deadlineMs + settings.terminateGraceMs);
      };
      const finish = (done: RunDone) => {
        clearTimeout(overstay);
        this.#runs.delete(runId);
        resolve(done);
      };
      this.#runs.set(runId, { run, started, finish, waiting: 0 });
    });
    try {
      await this.#ready;
    } catch (err) {
      this.#runs.get(runId)?.finish({ type: 'done', status: 'error', error: `the sandbox worker did not start: ${(err as Error).message}`, console: '' });
      return finished;
    }
    this.#send(request);
    return finished;
  }

  async terminate(): Promise<void> {
    this.#alive = false;
    await this.#worker.terminate();
  }

  #stopped(reason: string): void {
    this.#alive = false;
    for (const run of [...this.#runs.values()]) run.finish({ type: 'done', status: 'error', error: reason, console: '' });
  }

  /** Queues `message` for the thread: what one turn of the event loop sends goes as one batch (one wake-up of the thread). */
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
    current.waiting++;
    try {
      const value = message.type === 'library' ? ((await run.resolveLibrary(message.name)) ?? null) : await callHost(run, message.name, message.argsJson);
      this.#send({ type: 'reply', id: message.id, ok: true, value });
    } catch (err) {
      this.#send({ type: 'reply', id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    } finally {
      current.waiting--;
      // The run executes again from the reply on: its silence counts from here.
      this.#heard();
    }
  }
}

/** Calls a host function with the script's JSON arguments; answers its result as JSON text. */
async function callHost(run: SandboxRun, name: string, argsJson: string): Promise<string> {
  const fn = Object.hasOwn(run.host, name) ? run.host[name] : undefined;
  if (!fn) throw new Error(`platform.${name} is not available`);
  const args: unknown = JSON.parse(argsJson);
  const result = await fn(...(Array.isArray(args) ? args : []));
  return JSON.stringify(result) ?? 'null';
}
