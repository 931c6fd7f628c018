/**
 * A script loaded in its own QuickJS runtime and context (inside a sandbox worker thread): the
 * prelude run and the module evaluated once, then its entry called per run. A `main()` run uses
 * an instance once; an endpoint's `handle(req)` keeps it warm for the next request of the same
 * script, libraries, ceiling and host (warm.ts) — module evaluation is most of a run's cost.
 *
 * The context has ECMAScript's built-ins and nothing else: no std/os modules, no timers, no
 * `process` or `require`. We add `console` (captured, bounded), `platform` (one async function
 * per host name, JSON in and out through the pool) and UTF-8 `TextEncoder`/`TextDecoder` (bytes.ts),
 * all built by a prelude that keeps its own references to JSON.parse/stringify so a script cannot
 * reroute them. Console output, host calls
 * and the deadline belong to the run in progress.
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { bytesNatives } from './bytes.js';
import { ConsoleCapture } from './console-capture.js';
import { scriptModuleName } from './imports.js';
import type { RunDone } from './protocol.js';

/** What a run asks of the api's thread. */
export interface RunIo {
  library(name: string): Promise<string | undefined>;
  /** Resolves with the host function's result as JSON text; rejects with its error. */
  host(name: string, argsJson: string): Promise<string>;
}

/** What an instance is built from: equal settings give an interchangeable instance. */
export interface InstanceSettings {
  source: string;
  /** Every library the source reaches, by name. */
  libraries: ReadonlyMap<string, string>;
  memoryBytes: number;
  maxStackBytes: number;
  hostNames: string[];
  /** Whose authority its runs act under (SandboxRun.authority): module state is never shared across authorities. */
  authority: string;
}

/** What an instance tells its thread, and how the thread watches it. */
export interface ThreadHooks {
  /** At each of the interpreter's interruption checks. */
  interruptCheck(): void;
  /** Marks the thread computing (script work, synchronous) until the matching `leave` (thread-state.ts). */
  enter(): void;
  leave(): void;
}

/** One call of the entry. */
export interface InstanceCall {
  entry: 'main' | 'handle';
  argsJson: string;
  deadlineAt: number;
  consoleLimitBytes: number;
  io: RunIo;
  /** Resolves at the deadline (shared with the library waits before the call); its timer is made when first asked for. */
  deadline: { reached(): Promise<'deadline'> };
}

/**
 * The call's end. `reusable`: the instance is fit for another call (nothing of this call is still
 * pending in it); `engineHealthy` false: the module instance itself is spent.
 */
export interface CallEnd {
  done: RunDone;
  reusable: boolean;
  engineHealthy: boolean;
}

/**
 * Builds `console`, `platform`, `TextEncoder` and `TextDecoder` on the global object and answers
 * the entry's invoker: (namespace, entry, argsJson) → the result as JSON text, or a promise of it
 * for an async entry. For `handle`, bytes cross in their wire form `{base64}`: `req.body` arrives
 * as a Uint8Array, and an answer whose `body` is an ArrayBuffer or a view of one leaves as {base64}.
 */
const prelude = `(function (write, hostCall, hostNamesJson, toBase64, fromBase64, decodeUtf8, encodeUtf8) {
  'use strict';
  const { parse, stringify } = JSON;
  const { isView } = ArrayBuffer;
  const ArrayBufferOf = ArrayBuffer;
  const Uint8ArrayOf = Uint8Array;
  // [buffer, offset, length] of an ArrayBuffer or any view of one; undefined for anything else.
  const spanOf = (value) => value instanceof ArrayBufferOf ? [value, 0, value.byteLength] : isView(value) ? [value.buffer, value.byteOffset, value.byteLength] : undefined;
  const isWireBytes = (value) => value !== null && typeof value === 'object' && typeof value.base64 === 'string';
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') { return new Uint8ArrayOf(encodeUtf8(String(input))); }
  }
  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      if (!/^(utf-?8|unicode-1-1-utf-8)$/i.test(String(label).trim())) throw new RangeError('TextDecoder supports only utf-8, not ' + label);
      Object.defineProperties(this, { fatal: { value: Boolean(options.fatal) }, ignoreBOM: { value: Boolean(options.ignoreBOM) } });
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) return '';
      const span = spanOf(input);
      if (!span) throw new TypeError('TextDecoder.decode takes an ArrayBuffer or a view of one');
      const text = decodeUtf8(...span, this.fatal, this.ignoreBOM);
      if (text === undefined) throw new TypeError('The encoded data was not valid utf-8');
      return text;
    }
  }
  globalThis.TextEncoder = TextEncoder;
  globalThis.TextDecoder = TextDecoder;
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
  // Object functions: a script's module code runs before the call. Frozen as it is parsed, by a
  // reviver: walking the parsed request again in the interpreter cost more (13 against 8 µs for a GET's).
  const { freeze } = Object;
  const frozen = (key, value) => (value !== null && typeof value === 'object' ? freeze(value) : value);
  const toText = (result) => {
    const text = stringify(result);
    return text === undefined ? 'null' : text;
  };
  // A handler's bytes body crosses back in the wire form (a copy of the answer: it may be frozen).
  const answerText = (result) => {
    const span = result !== null && typeof result === 'object' ? spanOf(result.body) : undefined;
    return toText(span ? { ...result, body: { base64: toBase64(...span) } } : result);
  };
  // A synchronous entry answers its text at once (no promise jobs to drive); an async one a promise of it.
  return (namespace, entry, argsJson) => {
    const fn = namespace[entry];
    if (typeof fn !== 'function') throw new TypeError('the script does not export ' + entry + '()');
    const handle = entry === 'handle';
    let result;
    if (handle) {
      let req = parse(argsJson, frozen)[0];
      // Its body a Uint8Array, left writable (a typed array with elements cannot be frozen); an
      // empty body (every GET) needs no call out of the interpreter.
      if (req !== null && typeof req === 'object' && isWireBytes(req.body)) req = freeze({ ...req, body: req.body.base64 === '' ? new Uint8ArrayOf(0) : new Uint8ArrayOf(fromBase64(req.body.base64)) });
      result = fn(req);
    } else result = fn(...parse(argsJson));
    const answer = handle ? answerText : toText;
    const thenable = result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function';
    return thenable ? Promise.resolve(result).then(answer) : answer(result);
  };
})`;

/** Ends a run early with a status other than error. */
class RunStop extends Error {
  constructor(readonly status: 'timeout' | 'memory', message: string) {
    super(message);
  }
}

const maxStackLines = 10;
const timeoutMessage = 'the run passed its deadline';

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

/** The call in progress: where its console goes, its host calls, its deadline. */
class ActiveCall {
  /** Made on the first console line: most handlers write none. */
  captured: ConsoleCapture | undefined;
  interrupted = false;
  /** Wakes `settle` when a host call is answered. */
  wake: (() => void) | undefined;

  constructor(readonly call: InstanceCall) {}

  write(level: string, text: string): void {
    (this.captured ??= new ConsoleCapture(this.call.consoleLimitBytes)).write(level, text);
  }

  done(fields: Omit<RunDone, 'type' | 'console'>): RunDone {
    return { type: 'done', ...fields, console: this.captured?.text() ?? '' };
  }
}

export class ScriptInstance {
  readonly settings: InstanceSettings;
  readonly #thread: ThreadHooks;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #owned: QuickJSHandle[] = [];
  /** Host calls not answered yet: their resolvers must go before the context does. */
  readonly #pending = new Set<QuickJSDeferredPromise>();
  #call: ActiveCall | undefined;
  /** The module's namespace and the prelude's invoker, once evaluated (on the first call). */
  #loaded: { namespace: QuickJSHandle; invoke: QuickJSHandle } | undefined;
  /** The entry names as QuickJS strings, made once per instance. */
  readonly #entries = new Map<string, QuickJSHandle>();

  constructor(quickjs: QuickJSWASMModule, settings: InstanceSettings, thread: ThreadHooks) {
    this.settings = settings;
    this.#thread = thread;
    const runtime = (this.#runtime = quickjs.newRuntime());
    runtime.setMemoryLimit(settings.memoryBytes);
    runtime.setMaxStackSize(settings.maxStackBytes);
    runtime.setInterruptHandler(() => {
      thread.interruptCheck();
      const call = this.#call;
      return call ? (call.interrupted = Date.now() >= call.call.deadlineAt) : false;
    });
    runtime.setModuleLoader(
      (name) => settings.libraries.get(name) ?? { error: new Error(`unknown library '${name}' (dynamic imports need a literal library name)`) },
      (_base, requested) => requested,
    );
    this.#context = runtime.newContext();
  }

  /**
   * Calls the entry (evaluating the module first on an instance's first call). Never throws for
   * anything the script does. A warm instance whose entry settles without waiting on the host
   * answers synchronously: the thread's next run then finds this run's engine free again.
   */
  call(call: InstanceCall): CallEnd | Promise<CallEnd> {
    this.#thread.enter();
    try {
      return this.#start(call);
    } finally {
      this.#thread.leave();
    }
  }

  #start(call: InstanceCall): CallEnd | Promise<CallEnd> {
    const active = new ActiveCall(call);
    this.#call = active;
    let outcome: RunDone | Promise<RunDone>;
    try {
      outcome = this.#loaded ? this.#invoke(active) : this.#loadAndInvoke(active);
    } catch (err) {
      outcome = this.#caught(active, err);
    }
    if (outcome instanceof Promise) return outcome.then((o) => this.#end(o), (err: unknown) => this.#end(this.#caught(active, err)));
    return this.#end(outcome);
  }

  /** What a call that threw (a QuickJS exception handle, an engine error, a stop) ends as. */
  #caught(active: ActiveCall, err: unknown): RunDone {
    if (err instanceof RunStop) return active.done({ status: err.status, error: err.message });
    if (!(err instanceof Error)) return this.#failure(active, err as QuickJSHandle);
    if (active.interrupted) return active.done({ status: 'timeout', error: timeoutMessage });
    if (/out of memory/.test(err.message)) return active.done({ status: 'memory', error: `the run reached its memory ceiling of ${this.settings.memoryBytes} bytes` });
    return active.done({ status: 'error', error: err.message });
  }

  #end(outcome: RunDone): CallEnd {
    this.#call = undefined;
    // QuickJS does not always unwind its reference counts after a failed allocation or an interrupt
    // (a module record half evaluated): freeing that runtime fails its heap assertion, an abort of
    // the module. Such a runtime goes unfreed with its module instance, which the worker drops.
    if (outcome.status === 'memory' || outcome.status === 'timeout') return { done: outcome, reusable: false, engineHealthy: false };
    // A call that left host calls unanswered or jobs queued would have them run inside the next
    // call (under the next request's session): such an instance is not used again.
    const reusable = this.#loaded !== undefined && this.#pending.size === 0 && !this.#runtime.hasPendingJob();
    return { done: outcome, reusable, engineHealthy: true };
  }

  /** Frees the runtime; false when QuickJS found its heap inconsistent (the module instance is spent). */
  dispose(): boolean {
    try {
      for (const deferred of this.#pending) deferred.dispose();
      this.#pending.clear();
      for (const handle of this.#entries.values()) handle.dispose();
      this.#entries.clear();
      for (const handle of this.#owned.reverse()) if (handle.alive) handle.dispose();
      this.#context.dispose();
      this.#runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  /** An instance's first call: the prelude and the module evaluated, then the entry called. */
  async #loadAndInvoke(active: ActiveCall): Promise<RunDone> {
    const invoke = this.#runPrelude();
    const evaluated = this.#context.evalCode(this.settings.source, scriptModuleName, { type: 'module' });
    if (evaluated.error) return this.#failure(active, evaluated.error);
    const promise = this.#own(evaluated.value);
    const settled = await this.#settle(active, promise);
    this.#loaded = { namespace: settled === promise ? promise : this.#own(settled), invoke };
    // Past an await: the thread's loop is back in this run's script.
    this.#thread.enter();
    try {
      return this.#invoke(active);
    } finally {
      this.#thread.leave();
    }
  }

  /** Calls the entry of the evaluated module: synchronously when it settles without waiting on the host. */
  #invoke(active: ActiveCall): RunDone | Promise<RunDone> {
    const context = this.#context;
    const loaded = this.#loaded!;
    const { entry } = active.call;
    let entryHandle = this.#entries.get(entry);
    if (!entryHandle) this.#entries.set(entry, (entryHandle = context.newString(entry)));
    const args = context.newString(active.call.argsJson);
    const call = context.callFunction(loaded.invoke, context.undefined, loaded.namespace, entryHandle, args);
    args.dispose();
    if (call.error) return this.#failure(active, call.error);
    const value = call.value;
    let settled: QuickJSHandle | undefined;
    try {
      settled = this.#settleNow(active, value);
    } catch (err) {
      value.dispose();
      throw err;
    }
    if (settled) return this.#answer(active, value, settled);
    return this.#settle(active, value, true).then(
      (result) => this.#answer(active, value, result),
      (err: unknown) => {
        value.dispose();
        throw err;
      },
    );
  }

  /** The entry's answer text; a warm instance outlives the call, so every handle of the call goes with it. */
  #answer(active: ActiveCall, value: QuickJSHandle, result: QuickJSHandle): RunDone {
    try {
      return active.done({ status: 'ok', resultJson: this.#context.getString(result) });
    } finally {
      if (result !== value) result.dispose();
      value.dispose();
    }
  }

  /** Builds `console` and `platform`; answers the invoker. */
  #runPrelude(): QuickJSHandle {
    const context = this.#context;
    const write = this.#own(context.newFunction('write', (level, text) => {
      this.#call?.write(context.getString(level), context.getString(text));
    }));
    const hostCall = this.#own(context.newFunction('hostCall', (nameHandle, argsHandle) => this.#hostCall(context.getString(nameHandle), context.getString(argsHandle))));
    const preludeFn = context.evalCode(prelude, 'prelude', { type: 'global' });
    if (preludeFn.error) throw new Error(`sandbox prelude failed: ${describeError(context.dump(preludeFn.error))}`);
    this.#own(preludeFn.value);
    const natives = bytesNatives(context).map((handle) => this.#own(handle));
    const invoke = context.callFunction(preludeFn.value, context.undefined, write, hostCall, this.#own(context.newString(JSON.stringify(this.settings.hostNames))), ...natives);
    if (invoke.error) throw new Error(`sandbox prelude failed: ${describeError(context.dump(invoke.error))}`);
    return this.#own(invoke.value);
  }

  /** A platform call from the script: a promise settled when the api's thread answers, if its call is still the one in progress. */
  #hostCall(name: string, argsJson: string): QuickJSHandle {
    const context = this.#context;
    const call = this.#call;
    const deferred = context.newPromise();
    this.#pending.add(deferred);
    const settleWith = (apply: () => void) => {
      if (this.#call !== call || !call) return;
      this.#pending.delete(deferred);
      apply();
      deferred.dispose();
      call.wake?.();
    };
    if (!call) settleWith(() => undefined);
    else
      call.call.io.host(name, argsJson).then(
        (json) => settleWith(() => context.newString(json).consume((h) => deferred.resolve(h))),
        (err: unknown) => settleWith(() => context.newError(err instanceof Error ? err.message : String(err)).consume((h) => deferred.reject(h))),
      );
    return deferred.handle;
  }

  /** An exception handle as the run's end: memory, timeout or the script's error. */
  #failure(active: ActiveCall, errorHandle: QuickJSHandle): RunDone {
    const dumped: unknown = this.#context.dump(errorHandle);
    errorHandle.dispose();
    if (active.interrupted) return active.done({ status: 'timeout', error: timeoutMessage });
    if (isOutOfMemory(dumped)) return active.done({ status: 'memory', error: `the run reached its memory ceiling of ${this.settings.memoryBytes} bytes` });
    return active.done({ status: 'error', error: describeError(dumped) });
  }

  /** Drives the job queue until `promise` settles, waiting for host replies in between; answers the value (a new handle unless `promise` was no promise). */
  async #settle(active: ActiveCall, promise: QuickJSHandle, justChecked = false): Promise<QuickJSHandle> {
    for (let check = !justChecked; ; check = true) {
      if (check) {
        this.#thread.enter();
        let settled: QuickJSHandle | undefined;
        try {
          settled = this.#settleNow(active, promise);
        } finally {
          this.#thread.leave();
        }
        if (settled) return settled;
      }
      const woken = new Promise<void>((resolve) => (active.wake = resolve));
      await Promise.race([woken, active.call.deadline.reached()]);
    }
  }

  /** Runs the jobs queued now; answers `promise`'s value if that settled it, undefined while it waits on the host. */
  #settleNow(active: ActiveCall, promise: QuickJSHandle): QuickJSHandle | undefined {
    // Asked first: running an empty queue still allocates in the engine.
    if (this.#runtime.hasPendingJob()) {
      const jobs = this.#runtime.executePendingJobs();
      if (jobs.error) throw jobs.error;
      jobs.dispose();
    }
    const state = this.#context.getPromiseState(promise);
    if (state.type === 'fulfilled') return state.notAPromise ? promise : state.value;
    if (state.type === 'rejected') throw state.error;
    if (Date.now() >= active.call.deadlineAt) throw new RunStop('timeout', timeoutMessage);
    if (this.#pending.size === 0) throw new Error('the script awaits a promise that nothing will settle');
    return undefined;
  }

  #own(handle: QuickJSHandle): QuickJSHandle {
    this.#owned.push(handle);
    return handle;
  }
}
