/**
 * One run of a script in a fresh QuickJS runtime and context (runs inside a sandbox worker thread).
 * The context has ECMAScript's built-ins and nothing else: no std/os modules, no timers, no
 * `process` or `require`. We add `console` (captured, bounded) and `platform` (one async function
 * per host name, JSON in and out through the pool), both built by a prelude that keeps its own
 * references to JSON.parse/stringify so a script cannot reroute them.
 */
import type { QuickJSDeferredPromise, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { ConsoleCapture } from './console-capture.js';
import { collectLibraries, ImportError, scriptModuleName } from './imports.js';
import type { RunDone, RunRequest } from './protocol.js';

/** What a run asks of the api's thread. */
export interface RunIo {
  library(name: string): Promise<string | undefined>;
  /** Resolves with the host function's result as JSON text; rejects with its error. */
  host(name: string, argsJson: string): Promise<string>;
}

/**
 * Builds `console` and `platform` on the global object and answers the entry's invoker:
 * (namespace, entry, argsJson) → a promise of the result as JSON text.
 */
const prelude = `(function (write, hostCall, hostNamesJson) {
  'use strict';
  const { parse, stringify } = JSON;
  const format = (value) => {
    if (typeof value === 'string') return value;
    try { const text = stringify(value); return text === undefined ? String(value) : text; } catch { return String(value); }
  };
  const level = (name) => (...values) => { write(name, values.map(format).join(' ')); };
  globalThis.console = Object.freeze({ log: level('log'), info: level('info'), warn: level('warn'), error: level('error') });
  const platform = {};
  for (const name of parse(hostNamesJson)) {
    platform[name] = async (...args) => parse(await hostCall(name, stringify(args)));
  }
  globalThis.platform = Object.freeze(platform);
  // handle(req) gets its request deep-frozen (spec: a frozen dict), with the prelude's own
  // Object functions: a script's module code runs before the call.
  const { freeze, isFrozen, keys } = Object;
  const deepFreeze = (value) => {
    if (value !== null && typeof value === 'object' && !isFrozen(value)) {
      freeze(value);
      for (const key of keys(value)) deepFreeze(value[key]);
    }
    return value;
  };
  return (namespace, entry, argsJson) => Promise.resolve().then(() => {
    const fn = namespace[entry];
    if (typeof fn !== 'function') throw new TypeError('the script does not export ' + entry + '()');
    const args = parse(argsJson);
    if (entry === 'handle') for (let i = 0; i < args.length; i++) deepFreeze(args[i]);
    return fn(...args);
  }).then((result) => {
    const text = stringify(result);
    return text === undefined ? 'null' : text;
  });
})`;

/** Ends a run early with a status other than error. */
class RunStop extends Error {
  constructor(readonly status: 'timeout' | 'memory', message: string) {
    super(message);
  }
}

const maxStackLines = 10;

/** "Name: message" and the script's stack, from an exception's dump. */
function describeError(dumped: unknown): string {
  if (dumped && typeof dumped === 'object' && 'message' in dumped) {
    const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
    const head = `${typeof name === 'string' ? name : 'Error'}: ${String(message)}`;
    // A deep recursion's stack is thousands of identical lines: keep the first few.
    return typeof stack === 'string' && stack.trim() ? `${head}\n${stack.trimEnd().split('\n').slice(0, maxStackLines).join('\n')}` : head;
  }
  return `uncaught ${typeof dumped === 'string' ? dumped : JSON.stringify(dumped) ?? String(dumped)}`;
}

const isOutOfMemory = (dumped: unknown) => dumped === null || /out of memory/i.test(describeError(dumped));

/**
 * Runs `request` in a fresh runtime of `quickjs`. Never throws for anything the script does; a
 * fault of the engine itself (a failed dispose after the run) throws, so the caller replaces
 * the module instance.
 */
export async function runInQuickJS(quickjs: QuickJSWASMModule, request: RunRequest & { deadlineAt: number }, io: RunIo): Promise<{ done: RunDone; engineHealthy: boolean }> {
  // The deadline also covers waiting: for libraries, and for host calls while the script awaits them.
  let timer: NodeJS.Timeout | undefined;
  const untilDeadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, request.deadlineAt - Date.now()));
    timer.unref();
  });
  try {
    return await runUntil(quickjs, request, io, untilDeadline);
  } finally {
    // A pending timer keeps its promise, and through the waits raced against it the whole run
    // (runtime, context, console), alive until the deadline: 30 s of every run on a busy thread.
    clearTimeout(timer);
  }
}

async function runUntil(
  quickjs: QuickJSWASMModule,
  request: RunRequest & { deadlineAt: number },
  io: RunIo,
  untilDeadline: Promise<'deadline'>,
): Promise<{ done: RunDone; engineHealthy: boolean }> {
  const captured = new ConsoleCapture(request.consoleLimitBytes);
  const done = (fields: Omit<RunDone, 'type' | 'console'>): RunDone => ({ type: 'done', ...fields, console: captured.text() });
  const timeoutMessage = 'the run passed its deadline';
  const memoryMessage = `the run reached its memory ceiling of ${request.memoryBytes} bytes`;
  /** Wakes `settle` when a host call is answered. */
  let wake: () => void = () => undefined;

  let libraries: Map<string, string>;
  try {
    const collected = await Promise.race([collectLibraries(request.source, (name) => io.library(name)), untilDeadline]);
    if (collected === 'deadline') return { done: done({ status: 'timeout', error: timeoutMessage }), engineHealthy: true };
    libraries = collected;
  } catch (err) {
    if (err instanceof ImportError) return { done: done({ status: 'error', error: err.message }), engineHealthy: true };
    throw err;
  }

  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(request.memoryBytes);
  runtime.setMaxStackSize(request.maxStackBytes);
  let interrupted = false;
  runtime.setInterruptHandler(() => (interrupted = Date.now() >= request.deadlineAt));
  runtime.setModuleLoader(
    (name) => libraries.get(name) ?? { error: new Error(`unknown library '${name}' (dynamic imports need a literal library name)`) },
    (_base, requested) => requested,
  );
  const context = runtime.newContext();
  const owned: QuickJSHandle[] = [];
  const own = (handle: QuickJSHandle) => (owned.push(handle), handle);
  let finished = false;
  // Host calls not answered yet: their resolvers must go before the context does.
  const pending = new Set<QuickJSDeferredPromise>();

  /** An exception handle as the run's end: memory, timeout or the script's error. */
  const failure = (errorHandle: QuickJSHandle): RunDone => {
    const dumped: unknown = context.dump(errorHandle);
    errorHandle.dispose();
    if (interrupted) return done({ status: 'timeout', error: timeoutMessage });
    if (isOutOfMemory(dumped)) return done({ status: 'memory', error: memoryMessage });
    return done({ status: 'error', error: describeError(dumped) });
  };

  /** Drives the job queue until `promise` settles, waiting for host replies in between. */
  const settle = async (promise: QuickJSHandle): Promise<QuickJSHandle> => {
    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) throw jobs.error;
      jobs.dispose();
      const state = context.getPromiseState(promise);
      if (state.type === 'fulfilled') return state.notAPromise ? promise : own(state.value);
      if (state.type === 'rejected') throw state.error;
      if (Date.now() >= request.deadlineAt) throw new RunStop('timeout', timeoutMessage);
      if (pending.size === 0) throw new Error('the script awaits a promise that nothing will settle');
      const woken = new Promise<void>((resolve) => (wake = resolve));
      await Promise.race([woken, untilDeadline]);
    }
  };

  const execute = async (): Promise<RunDone> => {
    const write = own(context.newFunction('write', (level, text) => {
      captured.write(context.getString(level), context.getString(text));
    }));
    const hostCall = own(context.newFunction('hostCall', (nameHandle, argsHandle) => {
      const deferred = context.newPromise();
      pending.add(deferred);
      const settleWith = (apply: () => void) => {
        if (finished) return;
        pending.delete(deferred);
        apply();
        deferred.dispose();
        wake();
      };
      io.host(context.getString(nameHandle), context.getString(argsHandle)).then(
        (json) => settleWith(() => context.newString(json).consume((h) => deferred.resolve(h))),
        (err: unknown) => settleWith(() => context.newError(err instanceof Error ? err.message : String(err)).consume((h) => deferred.reject(h))),
      );
      return deferred.handle;
    }));
    const preludeFn = context.evalCode(prelude, 'prelude', { type: 'global' });
    if (preludeFn.error) throw new Error(`sandbox prelude failed: ${describeError(context.dump(preludeFn.error))}`);
    own(preludeFn.value);
    const invoke = context.callFunction(preludeFn.value, context.undefined, write, hostCall, own(context.newString(JSON.stringify(request.hostNames))));
    if (invoke.error) throw new Error(`sandbox prelude failed: ${describeError(context.dump(invoke.error))}`);
    own(invoke.value);

    const evaluated = context.evalCode(request.source, scriptModuleName, { type: 'module' });
    if (evaluated.error) return failure(evaluated.error);
    const namespace = await settle(own(evaluated.value));
    const call = context.callFunction(invoke.value, context.undefined, namespace, own(context.newString(request.entry)), own(context.newString(request.argsJson)));
    if (call.error) return failure(call.error);
    const result = await settle(own(call.value));
    return done({ status: 'ok', resultJson: context.getString(result) });
  };

  let outcome: RunDone;
  try {
    outcome = await execute();
  } catch (err) {
    if (err instanceof RunStop) outcome = done({ status: err.status, error: err.message });
    else if (!(err instanceof Error)) outcome = failure(err as QuickJSHandle);
    else if (interrupted) outcome = done({ status: 'timeout', error: timeoutMessage });
    else if (/out of memory/.test(err.message)) outcome = done({ status: 'memory', error: memoryMessage });
    else outcome = done({ status: 'error', error: err.message });
  }
  finished = true;
  // QuickJS does not always unwind its reference counts after a failed allocation or an interrupt
  // (a module record half evaluated): freeing that runtime fails its heap assertion, an abort of
  // the module. Such a runtime goes unfreed with its module instance, which the worker drops.
  if (outcome.status === 'memory' || outcome.status === 'timeout') return { done: outcome, engineHealthy: false };
  // A failed dispose (QuickJS asserts its heap is empty) means this module instance is spent.
  try {
    for (const deferred of pending) deferred.dispose();
    for (const handle of owned.reverse()) if (handle.alive) handle.dispose();
    context.dispose();
    runtime.dispose();
    return { done: outcome, engineHealthy: true };
  } catch {
    return { done: outcome, engineHealthy: false };
  }
}
