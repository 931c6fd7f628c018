/**
 * The sandbox's contract: what a caller hands in for one run of a script, and what it gets back.
 * Everything crossing the boundary is JSON (args in, host-call arguments and results, the entry's
 * result out), so nothing of the host reaches the script and nothing the script builds reaches the
 * host as a live object.
 */

/** A function the script reaches as `platform.<name>(...args)`. */
export type HostFunction = (...args: unknown[]) => Promise<unknown>;

/**
 * Host functions named up front and made only when the script first calls one: a run that calls
 * none (most handlers) builds none. Extended by the caller (the script runner).
 */
export abstract class LazyHost {
  /** The names the script sees as `platform.<name>`. */
  abstract readonly names: readonly string[];
  /** The functions by name, made on first use (every later call answers the same ones). */
  abstract functions(): Record<string, HostFunction>;
}

/** One run of one script. */
export interface SandboxRun {
  /** The script's ES module source. */
  source: string;
  /** The export to call: `main()` for draft and scheduled runs, `handle(req)` for endpoints. */
  entry: 'main' | 'handle';
  /** The entry's arguments, copied in as JSON; `handle` is called with the first alone (its request), deep-frozen. */
  args: unknown[];
  /** Ceiling of the run's QuickJS heap, in bytes. */
  memoryBytes: number;
  /** Wall-clock budget from `run()` to outcome, enforced by interrupting the interpreter. */
  deadlineMs: number;
  /** A library's module source by name, or undefined when there is no such library. */
  resolveLibrary(name: string): Promise<string | undefined>;
  /**
   * Functions the script reaches as async `platform.<name>(...args)`: arguments and result are
   * JSON, and a rejection becomes an exception inside the script with the rejection's message.
   */
  host: Record<string, HostFunction> | LazyHost;
  /** Bytes of console output kept (default 64 KiB); what follows is replaced by "[truncated]". */
  consoleLimitBytes?: number;
  /** Who the run counts against for `maxPerPrincipal` (a caller's subject); absent: no one's. */
  principal?: string;
  /**
   * Whose authority the run acts under (its principal and roles; default ''): a warm module
   * instance is reused only by runs of the same authority, so what a script's module state kept
   * from a run with one principal's roles never reaches a run acting for another — two scripts, or
   * two versions by different authors, may share a source.
   */
  authority?: string;
}

export type SandboxOutcome =
  | { status: 'ok'; result: unknown; console: string; durationMs: number }
  | { status: 'error' | 'timeout' | 'memory' | 'busy'; error: string; console: string; durationMs: number };

export interface Sandbox {
  /** Runs a script in its own QuickJS runtime on a worker thread; answers `busy` at once when its slots are taken (admission.ts). */
  run(run: SandboxRun): Promise<SandboxOutcome>;
  /** Stops the worker threads; runs in flight end with `error`. */
  close(): Promise<void>;
  /** Runs in flight on this sandbox now. */
  readonly running: number;
  /** Worker threads alive now (busy and idle). */
  readonly threads: number;
}

export interface SandboxOptions {
  /** Runs at once; the next is answered `busy`. */
  maxConcurrent: number;
  /** Runs at once counted against one principal (SandboxRun.principal; default maxConcurrent: no cap of its own). */
  maxPerPrincipal?: number;
  /** Of maxConcurrent, slots only `handle(req)` runs may take (default 0; at most half of maxConcurrent): other runs get the rest. */
  reservedForHandlers?: number;
  /** Threads that carry the runs (default one per core but the api's own, one at least, at most maxConcurrent); more start only while none takes runs. */
  maxThreads?: number;
  /**
   * A thread whose script has been computing this long without returning to its event loop, by the
   * clock (default 10 ms), gets no new runs, and the runs handed to it but not started are placed
   * elsewhere. Time, not the interpreter's interruption checks: one long built-in call (a large
   * `indexOf`, regex or `JSON.stringify`) passes none.
   */
  stallMs?: number;
  /** Interpreter stack ceiling per run (default 512 KiB): deep recursion ends as an error, not a crash. */
  maxStackBytes?: number;
  /**
   * How long past its deadline a run whose interpreter did not stop (a long host-side step, a
   * stuck WebAssembly call) may take before its worker thread is terminated (default 1,000 ms).
   */
  terminateGraceMs?: number;
  /**
   * Idle threads kept ready for the next runs (default: maxThreads); an
   * idle thread beyond them ends after `idleMs` (default 30 s). Each thread holds QuickJS modules
   * (16 MiB at least each), so a burst of runs does not keep its memory.
   */
  keepIdle?: number;
  idleMs?: number;
}

export const defaultConsoleLimitBytes = 64 * 1024;
