/**
 * Warm handlers answered on the caller's thread. Handing a run to a sandbox thread costs two
 * thread hops, each a wake-up of a sleeping thread (measured: about a millisecond each on a busy
 * two-core machine, and half of an endpoint request's throughput). Most handlers are short and
 * touch no platform function, so `handle(req)` is first tried here, in a warm instance on this
 * thread, under a tight budget; the run goes to a thread as before when it cannot finish here:
 *
 * - it calls a platform function: the call is refused here, never made, and the attempt thrown
 *   away — so the pre-call part of a handler may run twice, the first time unseen (its console,
 *   result and instance discarded): only deterministic work is repeated, never a host effect;
 * - it computes past its budget: `budgetChecks` of the interpreter's interruption checks (some
 *   10,000 operations each; the call that evaluates the module may pass `loadChecks` more) — work,
 *   not time, so a busy machine does not send a short handler away; it runs out of memory, imports
 *   a library, or the engine fails.
 * Each such source is then sent straight to a thread (the last `declinedMax` of them), so a
 * handler that needs the host or the CPU pays the attempt once per replica, not per request.
 * One attempt at a time: a run arriving during an attempt that awaits goes to a thread.
 */
import { enginePages, keepable, newEngine, type Engine } from './engines.js';
import { importedNames, scriptModuleName } from './imports.js';
import type { RunDone } from './protocol.js';
import { runInQuickJS, type RunEnd } from './quickjs-run.js';
import type { SandboxRun } from './types.js';

/** Sources sent straight to a thread, the oldest forgotten first. */
const declinedMax = 256;
/** Engines kept here, one per ceiling (each 16 MiB of linear memory at least). */
const keptEngines = 2;

class Declined extends Error {}

export class InlineHandlers {
  readonly #budgetChecks: number;
  readonly #loadChecks: number;
  readonly #maxStackBytes: number;
  readonly #engines = new Map<number, Engine | Promise<void>>();
  readonly #declined = new Set<string>();
  #busy = false;
  #answered = 0;

  constructor(opts: { budgetChecks: number; loadChecks: number; maxStackBytes: number }) {
    this.#budgetChecks = opts.budgetChecks;
    this.#loadChecks = opts.loadChecks;
    this.#maxStackBytes = opts.maxStackBytes;
  }

  /** Runs answered here so far. */
  get answered(): number {
    return this.#answered;
  }

  /**
   * The run's end when it could be answered here; undefined when it must go to a thread. A warm
   * handler that needs nothing but its own instance is answered synchronously.
   */
  tryRun(run: SandboxRun, consoleLimitBytes: number): RunDone | Promise<RunDone | undefined> | undefined {
    if (run.entry !== 'handle' || this.#busy || this.#declined.has(run.source) || !this.#importsNothing(run.source)) return undefined;
    const engine = this.#engine(run.memoryBytes);
    if (!engine) return undefined;
    this.#busy = true;
    let askedHost = false;
    const maxChecks = this.#budgetChecks + (engine.warm.holds(run.source) ? 0 : this.#loadChecks);
    const request = {
      type: 'run' as const,
      runId: 0,
      source: run.source,
      entry: run.entry,
      argsJson: JSON.stringify(run.args),
      memoryBytes: run.memoryBytes,
      maxStackBytes: this.#maxStackBytes,
      deadlineMs: run.deadlineMs,
      deadlineAt: Date.now() + run.deadlineMs,
      maxChecks,
      hostNames: Object.keys(run.host),
      consoleLimitBytes,
    };
    const io = {
      library: () => Promise.reject(new Declined('no libraries here')),
      host: () => {
        askedHost = true;
        return Promise.reject(new Declined('platform calls are made on a sandbox thread'));
      },
    };
    const settle = (end: RunEnd): RunDone | undefined => {
      this.#busy = false;
      const stays = keepable(engine, end);
      if (!askedHost && stays && end.done.status !== 'timeout') {
        this.#answered++;
        return end.done;
      }
      // Not answerable here: what the attempt left in its instance (or the engine) goes with it.
      if (stays) engine.warm.clear();
      if (!stays || engine.warm.spent) this.#engines.delete(engine.pages);
      this.#decline(run.source);
      return undefined;
    };
    let ended: RunEnd | Promise<RunEnd>;
    try {
      ended = runInQuickJS(engine.module, request, io, engine.warm, () => undefined);
    } catch {
      // The engine failed (not the script): the run goes to a thread, the engine goes.
      return settle({ done: { type: 'done', status: 'error', console: '' }, engineHealthy: false });
    }
    if (ended instanceof Promise) return ended.then(settle, () => settle({ done: { type: 'done', status: 'error', console: '' }, engineHealthy: false }));
    return settle(ended);
  }

  #importsNothing(source: string): boolean {
    try {
      return importedNames(source, scriptModuleName).length === 0;
    } catch {
      return false; // a syntax error is reported by a thread's run
    }
  }

  /** Compiles the engine for this ceiling unless it is there or on its way: runs with this ceiling may then be answered here. */
  async prepare(memoryBytes: number): Promise<void> {
    const pages = enginePages(memoryBytes);
    const kept = this.#engines.get(pages);
    if (kept) return kept instanceof Promise ? kept : undefined;
    if (this.#engines.size >= keptEngines) this.#engines.delete(this.#engines.keys().next().value!);
    const compiling = newEngine(pages).then(
      (engine) => {
        if (this.#engines.get(pages) === compiling) this.#engines.set(pages, engine);
      },
      () => void this.#engines.delete(pages),
    );
    this.#engines.set(pages, compiling);
    return compiling;
  }

  /** This ceiling's engine when ready; otherwise undefined, its compiling started. */
  #engine(memoryBytes: number): Engine | undefined {
    const kept = this.#engines.get(enginePages(memoryBytes));
    if (kept && !(kept instanceof Promise)) return kept;
    if (!kept) void this.prepare(memoryBytes);
    return undefined;
  }

  #decline(source: string): void {
    if (this.#declined.size >= declinedMax) this.#declined.delete(this.#declined.values().next().value!);
    this.#declined.add(source);
  }
}
