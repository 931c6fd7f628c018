/**
 * What a sandbox thread and the pool share, in memory both read without a message: since when the
 * thread computes (the clock, not the interpreter's interruption checks — a script inside one long
 * built-in call, a big `indexOf` or regex, passes none), and which of the runs handed to it it has
 * started. A run is started by the thread claiming it and taken back by the pool revoking it, each
 * a compare-and-swap on the run's cell: exactly one of them wins, so a run the pool moves to
 * another thread never starts on the first one.
 */

/** The shared memory of one thread: the clock reading, then one claim cell per run slot. */
export function threadStateBuffer(slots: number): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * (1 + slots));
}

/** The clock as an Int32 (Atomics need one): milliseconds, wrapping every 24 days; never 0, which means "not computing". */
const clock = (now: number) => now % 2 ** 31 || 1;

export class ThreadState {
  /** [0]: the clock when the thread began its current synchronous stretch of script work; 0 when it is not in one. */
  readonly #since: Int32Array;
  /** Per slot: the run id offered, its negation once claimed by the thread, 0 when free or revoked. */
  readonly #claims: Int32Array;
  /** Nested computing stretches (the thread's side only). */
  #depth = 0;

  constructor(buffer: SharedArrayBuffer) {
    this.#since = new Int32Array(buffer, 0, 1);
    this.#claims = new Int32Array(buffer, 4);
  }

  // ---- the thread's side (revoke: either side)

  /** Marks the thread computing (script work) from now until the matching `leave`; stretches nest. */
  enter(): void {
    if (this.#depth++ === 0) Atomics.store(this.#since, 0, clock(Date.now()));
  }

  leave(): void {
    if (--this.#depth === 0) Atomics.store(this.#since, 0, 0);
  }

  /** The thread starts run `runId` of `slot` unless the pool took it back: true when it may. */
  claim(slot: number, runId: number): boolean {
    return Atomics.compareExchange(this.#claims, slot, runId, -runId) === runId;
  }

  /** Takes run `runId` back before the thread started it (either side may): true when it had not, and now never will. */
  revoke(slot: number, runId: number): boolean {
    return Atomics.compareExchange(this.#claims, slot, runId, 0) === runId;
  }

  // ---- the pool's side

  /** How long the thread has been computing without returning to its event loop, in ms (0: it is not). */
  computingFor(now: number): number {
    const since = Atomics.load(this.#since, 0);
    return since === 0 ? 0 : Math.max(0, (clock(now) - since) | 0);
  }

  offer(slot: number, runId: number): void {
    Atomics.store(this.#claims, slot, runId);
  }

  /** Whether run `runId` is still offered: neither started nor taken back by either side. */
  offered(slot: number, runId: number): boolean {
    return Atomics.load(this.#claims, slot) === runId;
  }

  /** Whether the thread started run `runId` (read after the thread ended, or to decide a revoke). */
  claimed(slot: number, runId: number): boolean {
    return Atomics.load(this.#claims, slot) === -runId;
  }

  free(slot: number): void {
    Atomics.store(this.#claims, slot, 0);
  }
}
