/**
 * Keep-alive comments for SSE responses from one timer per interval, not one per response: every
 * POST answered as a stream is an SSE response, and a timer set and cleared for each cost more
 * than the rest of its stream handling (issue 41, session churn). A response registered here
 * hears its first tick within one interval and one each interval after, until it unregisters.
 */

/** The listeners of each interval that has a timer running. */
const beats = new Map<number, Set<() => void>>();

/** Starts the timer of `intervalMs`: it calls its listeners each interval, and stops after one with none. */
function startBeat(intervalMs: number): Set<() => void> {
  const listeners = new Set<() => void>();
  const timer = setInterval(() => {
    if (listeners.size === 0) {
      clearInterval(timer);
      beats.delete(intervalMs);
      return;
    }
    for (const each of listeners) each();
  }, intervalMs);
  timer.unref();
  beats.set(intervalMs, listeners);
  return listeners;
}

/** Calls `listener` every `intervalMs` until the returned function is called. */
export function onKeepAlive(intervalMs: number, listener: () => void): () => void {
  const listeners = beats.get(intervalMs) ?? startBeat(intervalMs);
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** How many intervals have a timer running (tests). */
export function keepAliveTimers(): number {
  return beats.size;
}
