/**
 * A sandbox worker thread: runs scripts (quickjs-run.ts: a fresh instance for `main()`, a warm one
 * for a repeated `handle(req)`), asking the pool for libraries and host calls. The pool may hand it
 * several runs at once; it starts one only when no other of its runs is under way (waiting on the
 * api's thread), and returns the others to be placed elsewhere — so a run that made host calls
 * never shares its thread with a script that may hold it past its deadline, which would have the
 * thread, and that run with it, terminated. A run starts only if it claims its cell first (the pool
 * takes back runs it placed behind a script computing too long: thread-state.ts), and its script
 * work is marked computing there, by the clock.
 *
 * Engines (engines.ts: one ceiling each, one run at a time) are kept for later runs with the same
 * ceiling (`keptEngines` of them), and replaced after a run that grew one past `retireAboveBytes`,
 * ran out of memory, or left it unhealthy.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { enginePages, keepable, newEngine, type Engine } from './engines.js';
import type { ThreadHooks } from './instance.js';
import type { Ask, AskReply, FromWorker, RunDone, RunRequest, ToWorker, WorkerData } from './protocol.js';
import { runInQuickJS, type RunEnd, type RunIo } from './quickjs-run.js';
import { ThreadState } from './thread-state.js';

/** Idle engines a thread keeps (each 16 MiB of linear memory at least). */
const keptEngines = 8;

if (!parentPort) throw new Error('sandbox worker: run as a worker thread');
const port = parentPort;
const state = new ThreadState((workerData as WorkerData).state);
/** Runs started and not ended on this thread (at most one across a wait). */
let underWay = 0;

/** Idle engines, oldest first. */
const idleEngines: Engine[] = [];

/**
 * An engine whose whole linear memory (engine, heap, stack) is at most `memoryBytes` (16 MiB at
 * least): preferably one warm for `source`; an idle one at once, a new one once compiled.
 */
function takeEngine(memoryBytes: number, source: string): Engine | Promise<Engine> {
  const pages = enginePages(memoryBytes);
  let chosen = -1;
  for (let i = idleEngines.length - 1; i >= 0; i--) {
    const engine = idleEngines[i]!;
    if (engine.pages !== pages) continue;
    if (chosen < 0) chosen = i;
    if (engine.warm.holds(source)) {
      chosen = i;
      break;
    }
  }
  if (chosen >= 0) return idleEngines.splice(chosen, 1)[0]!;
  return newEngine(pages);
}

function park(engine: Engine): void {
  idleEngines.push(engine);
  // The oldest goes to the garbage collector with its memory (and warm instance).
  if (idleEngines.length > keptEngines) idleEngines.shift();
}

let nextAskId = 1;
const asks = new Map<number, { runId: number; resolve: (value: string | null) => void; reject: (err: Error) => void }>();
/** Messages for the api's thread: what one turn of this thread's loop produces goes as one batch (one wake-up). */
let outbox: FromWorker[] = [];
function send(message: FromWorker): void {
  outbox.push(message);
  if (outbox.length === 1) setImmediate(flush);
}

function flush(): void {
  if (outbox.length === 0) return;
  const batch = outbox;
  outbox = [];
  port.postMessage(batch);
}

const hooks: ThreadHooks = {
  /** What waits in the outbox leaves now instead of after the script. */
  interruptCheck: flush,
  enter: () => state.enter(),
  leave: () => state.leave(),
};

function ask(runId: number, message: { type: 'library'; name: string } | { type: 'host'; name: string; argsJson: string }): Promise<string | null> {
  const id = nextAskId++;
  return new Promise((resolve, reject) => {
    asks.set(id, { runId, resolve, reject });
    send({ ...message, id, runId } as Ask);
  });
}

function answer(reply: AskReply): void {
  const waiting = asks.get(reply.id);
  if (!waiting) return;
  asks.delete(reply.id);
  if (reply.ok) waiting.resolve(reply.value ?? null);
  else waiting.reject(new Error(reply.error ?? 'host call failed'));
}

/**
 * One run: an engine taken, the script run in it, the engine parked again (unless spent) and the
 * outcome sent. A warm handler that settles without the host does all of it synchronously, so the
 * runs of one batch take turns on one engine instead of each holding its own. (A class, not
 * closures: a trivial handler's whole run is a few dozen microseconds, and each closure counts.)
 */
class ThreadRun implements RunIo {
  #engine: Engine | undefined;
  #claimed = false;

  constructor(readonly message: RunRequest) {}

  begin(): void {
    if (underWay > 0) return this.#handBack();
    let taken: Engine | Promise<Engine>;
    try {
      taken = takeEngine(this.message.memoryBytes, this.message.source);
      if (!(taken instanceof Promise)) return this.#start(taken);
    } catch (err) {
      return this.#fault(err);
    }
    taken.then(
      (ready) => {
        try {
          this.#start(ready);
        } catch (err) {
          this.#fault(err);
        }
      },
      (err: unknown) => this.#fault(err),
    );
  }

  async library(name: string): Promise<string | undefined> {
    return (await ask(this.message.runId, { type: 'library', name })) ?? undefined;
  }

  async host(name: string, argsJson: string): Promise<string> {
    return (await ask(this.message.runId, { type: 'host', name, argsJson })) ?? 'null';
  }

  #start(ready: Engine): void {
    const { message } = this;
    if (underWay > 0) {
      park(ready);
      return this.#handBack();
    }
    if (!state.claim(message.slot, message.runId)) return park(ready);
    this.#claimed = true;
    underWay++;
    this.#engine = ready;
    // The answers of the runs before it leave first: this script may hold the thread until it is terminated.
    flush();
    state.enter();
    let ran: RunEnd | Promise<RunEnd>;
    try {
      ran = runInQuickJS(ready.module, message, Date.now() + message.deadlineMs, this, ready.warm, hooks);
    } finally {
      state.leave();
    }
    if (ran instanceof Promise) ran.then((end) => this.#ended(end)).catch((err: unknown) => this.#fault(err));
    else this.#ended(ran);
  }

  #ended(end: RunEnd): void {
    if (!keepable(this.#engine!, end)) this.#engine = undefined;
    this.#finish(end.done);
  }

  /** The engine itself failed (not the script): it is not used again. */
  #fault(err: unknown): void {
    this.#engine = undefined;
    this.#finish({ type: 'done', status: 'error', error: `sandbox engine fault: ${(err as Error).message}`, console: '' });
  }

  #finish(done: RunDone): void {
    const { runId } = this.message;
    for (const [id, waiting] of asks) if (waiting.runId === runId) asks.delete(id);
    if (this.#engine) park(this.#engine);
    if (this.#claimed) underWay--;
    send({ ...done, runId });
  }

  // Not claimed: the pool may have revoked it meanwhile, and then already placed it elsewhere. Said
  // at once: a script of this thread may hold it from its next turn on (the pool's sweep sees the cell too).
  #handBack(): void {
    if (!state.revoke(this.message.slot, this.message.runId)) return;
    send({ type: 'returned', runId: this.message.runId });
    flush();
  }
}

port.on('message', (messages: ToWorker[]) => {
  for (const message of messages) {
    if (message.type === 'reply') answer(message);
    else new ThreadRun(message).begin();
  }
});

send({ type: 'ready' });
