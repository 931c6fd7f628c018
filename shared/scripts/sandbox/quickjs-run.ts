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
import { ScriptInstance, type InstanceSettings, type RunIo } from './instance.js';
import type { RunDone, RunRequest } from './protocol.js';

export type { RunIo } from './instance.js';

/** The warm instance an engine (a QuickJS module instance, one run at a time) keeps between handler runs. */
export class WarmSlot {
  #instance: ScriptInstance | undefined;

  /** Whether the kept instance was built from `source` (its libraries are compared on take). */
  holds(source: string): boolean {
    return this.#instance?.settings.source === source;
  }

  /** The kept instance if it was built from `settings`; any other one is freed. */
  take(settings: InstanceSettings): ScriptInstance | undefined {
    const instance = this.#instance;
    this.#instance = undefined;
    if (instance && sameSettings(instance.settings, settings)) return instance;
    instance?.dispose();
    return undefined;
  }

  keep(instance: ScriptInstance): void {
    this.#instance?.dispose();
    this.#instance = instance;
  }

  /** Forgets the instance without freeing it (its module instance is being dropped). */
  drop(): void {
    this.#instance = undefined;
  }
}

function sameSettings(a: InstanceSettings, b: InstanceSettings): boolean {
  if (a.source !== b.source || a.memoryBytes !== b.memoryBytes || a.maxStackBytes !== b.maxStackBytes) return false;
  if (a.hostNames.length !== b.hostNames.length || a.hostNames.some((name, i) => name !== b.hostNames[i])) return false;
  if (a.libraries.size !== b.libraries.size) return false;
  for (const [name, source] of a.libraries) if (b.libraries.get(name) !== source) return false;
  return true;
}

/**
 * Runs `request` in `quickjs`. Never throws for anything the script does; `engineHealthy` false
 * means the module instance is spent (the worker replaces it, and the warm slot with it).
 */
export async function runInQuickJS(
  quickjs: QuickJSWASMModule,
  request: RunRequest & { deadlineAt: number },
  io: RunIo,
  warm: WarmSlot,
  onInterruptCheck: () => void,
): Promise<{ done: RunDone; engineHealthy: boolean }> {
  // The deadline also covers waiting: for libraries, and for host calls while the script awaits them.
  let timer: NodeJS.Timeout | undefined;
  const untilDeadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, request.deadlineAt - Date.now()));
    timer.unref();
  });
  try {
    let libraries: Map<string, string>;
    try {
      const collected = await Promise.race([collectLibraries(request.source, (name) => io.library(name)), untilDeadline]);
      if (collected === 'deadline') return { done: bare(request, { status: 'timeout', error: 'the run passed its deadline' }), engineHealthy: true };
      libraries = collected;
    } catch (err) {
      if (err instanceof ImportError) return { done: bare(request, { status: 'error', error: err.message }), engineHealthy: true };
      throw err;
    }
    const settings: InstanceSettings = { source: request.source, libraries, memoryBytes: request.memoryBytes, maxStackBytes: request.maxStackBytes, hostNames: request.hostNames };
    const reuse = request.entry === 'handle';
    const instance = (reuse ? warm.take(settings) : undefined) ?? new ScriptInstance(quickjs, settings, onInterruptCheck);
    const end = await instance.call({ entry: request.entry, argsJson: request.argsJson, deadlineAt: request.deadlineAt, consoleLimitBytes: request.consoleLimitBytes, io, untilDeadline });
    if (!end.engineHealthy) {
      warm.drop();
      return { done: end.done, engineHealthy: false };
    }
    if (reuse && end.reusable) {
      warm.keep(instance);
      return { done: end.done, engineHealthy: true };
    }
    return { done: end.done, engineHealthy: instance.dispose() };
  } finally {
    // A pending timer keeps its promise, and through the waits raced against it the whole run
    // (runtime, context, console), alive until the deadline: 30 s of every run on a busy thread.
    clearTimeout(timer);
  }
}

/** A run that ended before its script had an instance (no console yet). */
function bare(request: RunRequest, fields: Pick<RunDone, 'status' | 'error'>): RunDone {
  return { type: 'done', ...fields, console: new ConsoleCapture(request.consoleLimitBytes).text() };
}
