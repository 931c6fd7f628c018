/**
 * When to start a supervised process again after it stopped unexpectedly (the embedded DuckDB
 * engine, api workers of a cluster): at once the first time in a while, then after a growing
 * delay, and not at all once it has stopped too often within a window (a crash loop).
 */
export interface RestartPolicy {
  maxRestarts: number;
  windowMs: number;
  /** Delay before the first restart after a stop; doubles with every further stop in the window. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * How long to wait before starting the process again, given when it stopped unexpectedly before
 * (`stops`, ms timestamps): 0 with none in the window, else the growing delay counted from the last
 * stop; undefined when `maxRestarts` stops fell within the window.
 */
export function restartDelay(stops: readonly number[], now: number, policy: RestartPolicy): number | undefined {
  const recent = stops.filter((t) => now - t < policy.windowMs);
  if (recent.length === 0) return 0;
  if (recent.length >= policy.maxRestarts) return undefined;
  const wait = Math.min(policy.baseDelayMs * 2 ** (recent.length - 1), policy.maxDelayMs);
  return Math.max(0, Math.max(...recent) + wait - now);
}
