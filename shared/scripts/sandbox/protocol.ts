/**
 * Messages between the sandbox pool (the api's thread) and a sandbox worker thread. Values cross as
 * JSON text, parsed on the side that uses them. A thread may be handed several runs at once (each
 * in its own QuickJS module instance) but has at most one under way across a wait for the api's
 * thread: run messages carry the run's id and its claim cell (thread-state.ts). Each side posts its
 * messages in batches (an array per turn of its event loop), so a burst of runs wakes a thread once.
 */

/** What a worker thread starts with. */
export interface WorkerData {
  /** The thread's shared state (thread-state.ts): since when it computes, and its runs' claim cells. */
  state: SharedArrayBuffer;
}

/** Pool → worker: start a run. */
export interface RunRequest {
  type: 'run';
  runId: number;
  /** The run's claim cell: the thread starts the run only if it claims it there first. */
  slot: number;
  source: string;
  entry: 'main' | 'handle';
  argsJson: string;
  memoryBytes: number;
  maxStackBytes: number;
  /** The run's wall-clock allowance, counted by the worker from when its engine is ready to run it (when it claims the run). */
  deadlineMs: number;
  hostNames: string[];
  /** SandboxRun.authority: an instance is reused only within one. */
  authority: string;
  consoleLimitBytes: number;
}

/** Pool → worker: the answer to a worker's ask. */
export interface AskReply {
  type: 'reply';
  id: number;
  ok: boolean;
  /** library: the source, or null when there is none; host: the result as JSON text ('null' for undefined). */
  value?: string | null;
  /** The rejection's message. */
  error?: string;
}

export type ToWorker = RunRequest | AskReply;

/** Worker → pool: something only the api's thread can answer. */
export type Ask =
  | { type: 'library'; id: number; runId: number; name: string }
  | { type: 'host'; id: number; runId: number; name: string; argsJson: string };

/** Worker → pool: the run's end. `resultJson` is the entry's result as JSON text (status ok). */
export interface RunDone {
  type: 'done';
  status: 'ok' | 'error' | 'timeout' | 'memory';
  resultJson?: string;
  error?: string;
  console: string;
}

/** Worker → pool: the run was not started (another run of the thread waits on the api's thread): place it elsewhere. */
export interface RunReturned {
  type: 'returned';
  runId: number;
}

export type FromWorker = Ask | (RunDone & { runId: number }) | RunReturned | { type: 'ready' };
