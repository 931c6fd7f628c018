/**
 * Messages between the sandbox pool (the api's thread) and a sandbox worker thread. Values cross as
 * JSON text, parsed on the side that uses them. A thread may hold several runs at once (each in its
 * own QuickJS module instance): run messages carry the run's id. Each side posts its messages in
 * batches (an array per turn of its event loop), so a burst of runs wakes a thread once.
 */

/** What a worker thread starts with. */
export interface WorkerData {
  /** One Int32 the thread adds 1 to at each interruption check of its interpreter (wrapping): how much it computes, read by the pool. */
  checks: SharedArrayBuffer;
}

/** Pool → worker: start a run. */
export interface RunRequest {
  type: 'run';
  runId: number;
  source: string;
  entry: 'main' | 'handle';
  argsJson: string;
  memoryBytes: number;
  maxStackBytes: number;
  /** The run's wall-clock allowance, counted by the worker from when its engine is ready to run it. */
  deadlineMs: number;
  hostNames: string[];
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

/** Worker → pool: the run has its engine and its deadline starts now. */
export interface RunStarted {
  type: 'started';
  runId: number;
}

export type FromWorker = Ask | (RunDone & { runId: number }) | RunStarted | { type: 'ready' };
