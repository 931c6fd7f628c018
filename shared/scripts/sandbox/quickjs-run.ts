/**
 * One run of a script inside a sandbox worker thread: its libraries fetched, an instance of the
 * script (instance.ts) found or made, its entry called within the deadline.
 *
 * A `main()` run gets a fresh instance and frees it after. A `handle(req)` run reuses the thread's
 * warm instance when it was built from the same source, libraries, ceiling and host names — the
 * request answers without evaluating the module again, as a serverless isolate would (module-level
 * state may outlive a request; docs/endpoints.md says so). An instance whose call left anything
 * pending, failed its engine, timed out or ran out of memory is never reused.
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { ConsoleCapture } from './console-capture.js';
import { collectLibraries, ImportError } from './imports.js';
import { ScriptInstance, type CallEnd, type InstanceSettings, type RunIo, type ThreadHooks } from './instance.js';
import type { RunDone, RunRequest } from './protocol.js';

export type { RunIo } from './instance.js';

/** The warm instance an engine (a QuickJS module instance, one run at a time) keeps between handler runs. */
export class WarmSlot {
  #instance: ScriptInstance | undefined;
  #spent = false;

  /** A kept instance could not be freed (QuickJS found its heap inconsistent): the module instance must not serve again. */
  get spent(): boolean {
    return this.#spent;
  }

  /** Whether the kept instance was built from `source` (its libraries are compared on take). */
  holds(source: string): boolean {
    return this.#instance?.settings.source === source;
  }

  /** The kept instance if it was built from these settings; any other one is freed. */
  take(request: InstanceRequest, libraries: ReadonlyMap<string, string>): ScriptInstance | undefined {
    const instance = this.#instance;
    this.#instance = undefined;
    if (instance && sameSettings(instance.settings, request, libraries)) return instance;
    this.#free(instance);
    return undefined;
  }

  keep(instance: ScriptInstance): void {
    this.#free(this.#instance);
    this.#instance = instance;
  }

  #free(instance: ScriptInstance | undefined): void {
    if (instance && !instance.dispose()) this.#spent = true;
  }

  /** Forgets the instance without freeing it (its module instance is being dropped). */
  drop(): void {
    this.#instance = undefined;
  }
}

/** What of a run request decides its instance (InstanceSettings, libraries apart). */
type InstanceRequest = Pick<RunRequest, 'source' | 'memoryBytes' | 'maxStackBytes' | 'hostNames' | 'authority'>;

function sameSettings(a: InstanceSettings, b: InstanceRequest, libraries: ReadonlyMap<string, string>): boolean {
  if (a.source !== b.source || a.authority !== b.authority || a.memoryBytes !== b.memoryBytes || a.maxStackBytes !== b.maxStackBytes) return false;
  if (a.hostNames.length !== b.hostNames.length) return false;
  for (let i = 0; i < a.hostNames.length; i++) if (a.hostNames[i] !== b.hostNames[i]) return false;
  if (a.libraries.size !== libraries.size) return false;
  for (const [name, source] of a.libraries) if (libraries.get(name) !== source) return false;
  return true;
}

export interface RunEnd {
  done: RunDone;
  engineHealthy: boolean;
}

/**
 * The run's deadline as a promise for its waits (libraries, host calls), made only when a run
 * first waits: a run that never waits sets no timer.
 */
class Deadline {
  #timer: NodeJS.Timeout | undefined;
  #reached: Promise<'deadline'> | undefined;

  constructor(readonly at: number) {}

  reached(): Promise<'deadline'> {
    this.#reached ??= new Promise<'deadline'>((resolve) => {
      this.#timer = setTimeout(() => resolve('deadline'), Math.max(0, this.at - Date.now()));
      this.#timer.unref();
    });
    return this.#reached;
  }

  /** A pending timer keeps its promise, and through the waits raced against it the whole run (runtime, context, console), alive until the deadline. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * Runs `request` in `quickjs`, its deadline at `deadlineAt`. Never throws for anything the script
 * does; `engineHealthy` false means the module instance is spent (the worker replaces it, and the
 * warm slot with it). A warm handler that imports nothing and settles without the host ends
 * synchronously (no promise).
 */
export function runInQuickJS(quickjs: QuickJSWASMModule, request: RunRequest, deadlineAt: number, io: RunIo, warm: WarmSlot, thread: ThreadHooks): RunEnd | Promise<RunEnd> {
  // The deadline also covers waiting: for libraries, and for host calls while the script awaits them.
  const deadline = new Deadline(deadlineAt);
  let ended: RunEnd | Promise<RunEnd>;
  try {
    const collected = collectLibraries(request.source, io);
    ended =
      collected instanceof Promise
        ? Promise.race([collected, deadline.reached()]).then(
            (libraries) =>
              libraries === 'deadline'
                ? { done: bare(request, { status: 'timeout', error: 'the run passed its deadline' }), engineHealthy: true }
                : callEntry(quickjs, request, deadline, libraries, io, warm, thread),
            (err: unknown) => refused(request, err),
          )
        : callEntry(quickjs, request, deadline, collected, io, warm, thread);
  } catch (err) {
    ended = refused(request, err);
  }
  if (ended instanceof Promise) return ended.finally(() => deadline.clear());
  deadline.clear();
  return ended;
}

/** A library refused (unknown, not a library name, a cycle): the run's error. */
function refused(request: RunRequest, err: unknown): RunEnd {
  if (err instanceof ImportError) return { done: bare(request, { status: 'error', error: err.message }), engineHealthy: true };
  throw err;
}

/** The entry called in the engine's warm instance when it fits (handlers), else in a new one. */
function callEntry(quickjs: QuickJSWASMModule, request: RunRequest, deadline: Deadline, libraries: ReadonlyMap<string, string>, io: RunIo, warm: WarmSlot, thread: ThreadHooks): RunEnd | Promise<RunEnd> {
  const reuse = request.entry === 'handle';
  const instance =
    (reuse ? warm.take(request, libraries) : undefined) ??
    new ScriptInstance(
      quickjs,
      { source: request.source, libraries, memoryBytes: request.memoryBytes, maxStackBytes: request.maxStackBytes, hostNames: request.hostNames, authority: request.authority },
      thread,
    );
  const ended = instance.call({ entry: request.entry, argsJson: request.argsJson, deadlineAt: deadline.at, consoleLimitBytes: request.consoleLimitBytes, io, deadline });
  return ended instanceof Promise ? ended.then((end) => settleInstance(instance, end, reuse, warm)) : settleInstance(instance, ended, reuse, warm);
}

/** The instance after its call: kept warm, freed, or dropped with its engine. */
function settleInstance(instance: ScriptInstance, end: CallEnd, reuse: boolean, warm: WarmSlot): RunEnd {
  if (!end.engineHealthy) {
    warm.drop();
    return { done: end.done, engineHealthy: false };
  }
  if (reuse && end.reusable) {
    warm.keep(instance);
    return { done: end.done, engineHealthy: true };
  }
  return { done: end.done, engineHealthy: instance.dispose() };
}

/** A run that ended before its script had an instance (no console yet). */
function bare(request: RunRequest, fields: Pick<RunDone, 'status' | 'error'>): RunDone {
  return { type: 'done', ...fields, console: new ConsoleCapture(request.consoleLimitBytes).text() };
}
