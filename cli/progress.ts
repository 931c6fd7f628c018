/**
 * Start-up progress for the person watching `platform dev`'s terminal: each step goes through the
 * toolchain's progress lines (shared/toolchain/progress.ts — "starting Temporal dev server … 4 s",
 * again every `everyMs`, "…: done in N s"), with the threshold `platform dev` chose. Quick steps
 * print nothing, so a normal start stays one banner; the JSON logs are unchanged.
 */
import { withProgress } from '../shared/toolchain/index.js';

export interface ProgressOptions {
  /** Where a line goes (its newline included): stderr, as stdout carries the banner. */
  write(line: string): void;
  /** A step running this long is announced (`platform dev`: 2 s). */
  afterMs: number;
  /** Then it is announced again this often (default 5 s). */
  everyMs?: number;
}

export type Progress = <T>(label: string, work: () => Promise<T>) => Promise<T>;

/** Runs each step, announcing those that run past the threshold. */
export function startupProgress(opts: ProgressOptions): Progress {
  return (label, work) => withProgress(label, work, { write: (line) => opts.write(`${line}\n`), firstAfterMs: opts.afterMs, ...(opts.everyMs !== undefined ? { everyMs: opts.everyMs } : {}) });
}
