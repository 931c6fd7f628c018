/**
 * Timers shared by the responses of one interval, not one per response: SSE keep-alive comments,
 * and the window in which a POST may still be answered as JSON. A timer set and cleared for each
 * response cost more than the rest of its stream handling (issue 41, session churn). A listener
 * registered here hears its first beat within one interval and one each interval after, until it
 * unregisters.
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
export function onBeat(intervalMs: number, listener: () => void): () => void {
  const listeners = beats.get(intervalMs) ?? startBeat(intervalMs);
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** How many intervals have a timer running (tests). */
export function beatTimers(): number {
  return beats.size;
}
