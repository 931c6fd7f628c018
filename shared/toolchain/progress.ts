/**
 * Progress lines for slow start-up steps, on the terminal a person watches (stderr, plain text),
 * beside the JSON logs: a step still running after `firstAfterMs` prints "<what> … <n> s", then
 * again every `everyMs`, and "<what>: done in <n> s" at the end. A quick step prints nothing.
 */

export interface ProgressOptions {
  /** Where lines go; defaults to process.stderr. */
  write?: (line: string) => void;
  /** Injected for tests; defaults to Date.now. */
  now?: () => number;
  firstAfterMs?: number;
  everyMs?: number;
}

const defaultWrite = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const seconds = (ms: number): number => Math.round(ms / 1000);

/** Runs `step`, reporting `what` while it lasts longer than about two seconds. */
export async function withProgress<T>(what: string, step: () => Promise<T>, opts: ProgressOptions = {}): Promise<T> {
  const write = opts.write ?? defaultWrite;
  const now = opts.now ?? Date.now;
  const started = now();
  let reported = false;
  const report = () => {
    reported = true;
    write(`${what} … ${seconds(now() - started)} s`);
  };
  let repeat: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    report();
    repeat = setInterval(report, opts.everyMs ?? 5_000);
  }, opts.firstAfterMs ?? 2_000);
  try {
    const result = await step();
    if (reported) write(`${what}: done in ${seconds(now() - started)} s`);
    return result;
  } finally {
    clearTimeout(first);
    clearInterval(repeat);
  }
}
