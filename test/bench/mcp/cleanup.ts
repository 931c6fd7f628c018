/**
 * How the MCP benchmark scripts end: whatever they started (servers, temp dirs, databases) is
 * undone in reverse order on every way out — normal end, an error, SIGINT/SIGTERM.
 */

export class Cleanups {
  readonly #undo: Array<() => unknown> = [];
  #running: Promise<void> | undefined;

  push(undo: () => unknown): void {
    this.#undo.push(undo);
  }

  /** True once cleaning has begun (an interruption: the children's ends are then expected, not news). */
  get started(): boolean {
    return this.#running !== undefined;
  }

  run(): Promise<void> {
    this.#running ??= (async () => {
      for (let undo = this.#undo.pop(); undo; undo = this.#undo.pop()) {
        try {
          await undo();
        } catch (error) {
          console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    return this.#running;
  }
}

/**
 * Runs a benchmark's `main` with a fresh Cleanups, cleaning up after it however it ends; a
 * signal cleans up and exits with 128 + its number. An error is printed and sets exit code 1.
 */
export async function runBench(main: (cleanups: Cleanups) => Promise<void>): Promise<void> {
  const cleanups = new Cleanups();
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      void cleanups.run().then(() => process.exit(code));
    });
  }
  try {
    await main(cleanups);
  } catch (error) {
    if (!cleanups.started) console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await cleanups.run();
  }
}
