/**
 * Start-up progress for the person watching `platform dev`'s terminal: a step still running after
 * `afterMs` says what it is doing and for how long ("starting Temporal dev server … 4 s"), again
 * every `everyMs`, and once more when it is done. Quick steps print nothing, so a normal start stays
 * one banner. Lines go to stderr (stdout carries the banner); the JSON logs are unchanged.
 */

export interface ProgressOptions {
  write(line: string): void;
  /** A step running this long is announced (`platform dev`: 2 s). */
  afterMs: number;
  /** Then it is announced again this often (default 5 s). */
  everyMs?: number;
}

export type Progress = <T>(label: string, work: () => Promise<T>) => Promise<T>;

const DEFAULT_EVERY_MS = 5_000;

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/** Runs each step, announcing those that run past the threshold; clocks and timers are the global ones (fake in tests). */
export function startupProgress(opts: ProgressOptions): Progress {
  const everyMs = opts.everyMs ?? DEFAULT_EVERY_MS;
  return async (label, work) => {
    const started = Date.now();
    let announced = false;
    let timer: NodeJS.Timeout | undefined;
    const announce = (delayMs: number) => {
      timer = setTimeout(() => {
        announced = true;
        opts.write(`${label} … ${seconds(Date.now() - started)}\n`);
        announce(everyMs);
      }, delayMs);
      timer.unref();
    };
    announce(opts.afterMs);
    try {
      return await work();
    } finally {
      clearTimeout(timer);
      if (announced) opts.write(`${label}: done in ${seconds(Date.now() - started)}\n`);
    }
  };
}
