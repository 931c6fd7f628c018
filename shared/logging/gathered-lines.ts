/**
 * Log lines gathered in memory and handed to the stderr writer as one write of many lines. Each
 * hand-over costs the logging thread a dispatch to libuv's thread pool (SonicBoom writes
 * asynchronously), and under load that dispatch measured ~145 µs of the event loop's time — more
 * than formatting the line: at 4 KiB per write (SonicBoom's own batching) an access line cost a
 * request ~10 µs in dispatches alone. Gathering 64 KiB, or what arrived within 200 ms, makes it a
 * few hundred lines per dispatch.
 */

/** Where gathered lines go: SonicBoom's surface as pino uses it. */
export interface LineWriter {
  write(text: string): boolean;
  flushSync(): void;
}

export interface GatherLimits {
  /** Lines are handed over once this many characters wait. */
  maxChars: number;
  /** …or this long after the first of them arrived. */
  maxDelayMs: number;
}

export const defaultGatherLimits: GatherLimits = { maxChars: 64 * 1024, maxDelayMs: 200 };

export class GatheredLines implements LineWriter {
  #lines: string[] = [];
  #chars = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly writer: LineWriter,
    private readonly limits: GatherLimits = defaultGatherLimits,
  ) {}

  write(line: string): boolean {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= this.limits.maxChars) this.#handOver();
    // Unref'd: a held line never keeps a process alive; exit writes it (flushSync).
    else this.#timer ??= setTimeout(() => this.#handOver(), this.limits.maxDelayMs).unref();
    return true;
  }

  /** Hands over what is held and writes everything synchronously (process exit). */
  flushSync(): void {
    this.#handOver();
    this.writer.flushSync();
  }

  #handOver(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#lines.length === 0) return;
    const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.writer.write(text);
  }
}

/** Writers to flush when the process exits, held weakly: a logger dropped by its owner is not kept for this. */
const flushedAtExit = new Set<WeakRef<GatheredLines>>();
let exitHooked = false;

/** Writes what `lines` holds when the process exits (process.exit, the end of the loop, a crash). */
export function flushAtExit(lines: GatheredLines): void {
  for (const ref of flushedAtExit) if (!ref.deref()) flushedAtExit.delete(ref);
  if (!exitHooked) process.once('exit', () => flushedAtExit.forEach((ref) => ref.deref()?.flushSync()));
  exitHooked = true;
  flushedAtExit.add(new WeakRef(lines));
}
