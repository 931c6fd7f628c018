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

  /** The kept instance if it was built from `settings`; any other one is freed. */
  take(settings: InstanceSettings): ScriptInstance | undefined {
    const instance = this.#instance;
    this.#instance = undefined;
    if (instance && sameSettings(instance.settings, settings)) return instance;
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

function sameSettings(a: InstanceSettings, b: InstanceSettings): boolean {
  if (a.source !== b.source || a.authority !== b.authority || a.memoryBytes !== b.memoryBytes || a.maxStackBytes !== b.maxStackBytes) return false;
  if (a.hostNames.length !== b.hostNames.length || a.hostNames.some((name, i) => name !== b.hostNames[i])) return false;
  if (a.libraries.size !== b.libraries.size) return false;
  for (const [name, source] of a.libraries) if (b.libraries.get(name) !== source) return false;
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

  constructor(private readonly at: number) {}

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
 * Runs `request` in `quickjs`. Never throws for anything the script does; `engineHealthy` false
 * means the module instance is spent (the worker replaces it, and the warm slot with it). A warm
 * handler that imports nothing and settles without the host ends synchronously (no promise).
 */
export function runInQuickJS(
  quickjs: QuickJSWASMModule,
  request: RunRequest & { deadlineAt: number },
  io: RunIo,
  warm: WarmSlot,
  thread: ThreadHooks,
): RunEnd | Promise<RunEnd> {
  // The deadline also covers waiting: for libraries, and for host calls while the script awaits them.
  const deadline = new Deadline(request.deadlineAt);
  const refused = (err: unknown): RunEnd => {
    if (err instanceof ImportError) return { done: bare(request, { status: 'error', error: err.message }), engineHealthy: true };
    throw err;
  };
  const call = (libraries: Map<string, string>): RunEnd | Promise<RunEnd> => {
    const settings: InstanceSettings = { source: request.source, libraries, memoryBytes: request.memoryBytes, maxStackBytes: request.maxStackBytes, hostNames: request.hostNames, authority: request.authority };
    const reuse = request.entry === 'handle';
    const instance = (reuse ? warm.take(settings) : undefined) ?? new ScriptInstance(quickjs, settings, thread);
    const ended = instance.call({ entry: request.entry, argsJson: request.argsJson, deadlineAt: request.deadlineAt, consoleLimitBytes: request.consoleLimitBytes, io, untilDeadline: () => deadline.reached() });
    const settle = (end: CallEnd): RunEnd => {
      if (!end.engineHealthy) {
        warm.drop();
        return { done: end.done, engineHealthy: false };
      }
      if (reuse && end.reusable) {
        warm.keep(instance);
        return { done: end.done, engineHealthy: true };
      }
      return { done: end.done, engineHealthy: instance.dispose() };
    };
    return ended instanceof Promise ? ended.then(settle) : settle(ended);
  };
  let ended: RunEnd | Promise<RunEnd>;
  try {
    const collected = collectLibraries(request.source, (name) => io.library(name));
    ended =
      collected instanceof Promise
        ? Promise.race([collected, deadline.reached()]).then(
            (libraries) => (libraries === 'deadline' ? { done: bare(request, { status: 'timeout', error: 'the run passed its deadline' }), engineHealthy: true } : call(libraries)),
            refused,
          )
        : call(collected);
  } catch (err) {
    ended = refused(err);
  }
  if (ended instanceof Promise) return ended.finally(() => deadline.clear());
  deadline.clear();
  return ended;
}

/** A run that ended before its script had an instance (no console yet). */
function bare(request: RunRequest, fields: Pick<RunDone, 'status' | 'error'>): RunDone {
  return { type: 'done', ...fields, console: new ConsoleCapture(request.consoleLimitBytes).text() };
}
