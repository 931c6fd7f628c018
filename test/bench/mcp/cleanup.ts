/**
 * How the MCP benchmark scripts end: whatever they started (servers, temp dirs, databases) is
 * undone in reverse order on every way out — normal end, an error, SIGINT/SIGTERM. Something
 * registered once cleaning has begun (a server that was still starting) is undone at once.
 */

const attempt = async (undo: () => unknown): Promise<void> => {
  try {
    await undo();
  } catch (error) {
    console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
  }
};

export class Cleanups {
  readonly #undo: Array<() => unknown> = [];
  readonly #late: Array<Promise<void>> = [];
  #running: Promise<void> | undefined;

  push(undo: () => unknown): void {
    if (this.#running) this.#late.push(attempt(undo));
    else this.#undo.push(undo);
  }

  /** True once cleaning has begun (an interruption: the children's ends are then expected, not news). */
  get started(): boolean {
    return this.#running !== undefined;
  }

  async run(): Promise<void> {
    this.#running ??= (async () => {
      for (let undo = this.#undo.pop(); undo; undo = this.#undo.pop()) await attempt(undo);
    })();
    await this.#running;
    await Promise.all(this.#late);
  }
}

/** How long an interrupted script waits for its main to unwind (a server mid-start, a stop's grace) before exiting. */
const unwindMs = 30_000;

/**
 * Runs a benchmark's `main` with a fresh Cleanups, cleaning up after it however it ends. A signal
 * cleans up at once (main then fails fast: its servers are gone), lets main unwind, undoes what
 * it registered meanwhile, and exits with 128 + the signal's number. An error is printed and sets
 * exit code 1.
 */
export async function runBench(main: (cleanups: Cleanups) => Promise<void>): Promise<void> {
  const cleanups = new Cleanups();
  const finished = (async () => {
    try {
      await main(cleanups);
    } catch (error) {
      if (!cleanups.started) console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    } finally {
      await cleanups.run();
    }
  })();
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      let timer: NodeJS.Timeout | undefined;
      const unwound = Promise.race([finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, unwindMs)))]);
      void cleanups
        .run()
        .then(() => unwound)
        .then(() => cleanups.run())
        .then(() => {
          clearTimeout(timer);
          process.exit(code);
        });
    });
  }
  await finished;
}
