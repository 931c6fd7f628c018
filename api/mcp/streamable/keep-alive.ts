/**
 * Keep-alive comments for SSE responses from one timer per interval, not one per response: every
 * POST answered as a stream is an SSE response, and a timer set and cleared for each cost more
 * than the rest of its stream handling (issue 41, session churn). A response registered here
 * hears its first tick within one interval and one each interval after, until it unregisters.
 */
interface Beat {
  timer: NodeJS.Timeout;
  listeners: Set<() => void>;
}

const beats = new Map<number, Beat>();

/** Calls `listener` every `intervalMs` until the returned function is called. */
export function onKeepAlive(intervalMs: number, listener: () => void): () => void {
  let beat = beats.get(intervalMs);
  if (!beat) {
    const listeners = new Set<() => void>();
    const timer = setInterval(() => {
      // A beat with no listener for a whole interval stops; one that has them calls each.
      if (listeners.size === 0) {
        clearInterval(timer);
        beats.delete(intervalMs);
        return;
      }
      for (const each of listeners) each();
    }, intervalMs);
    timer.unref();
    beat = { timer, listeners };
    beats.set(intervalMs, beat);
  }
  const { listeners } = beat;
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** How many intervals have a timer running (tests). */
export function keepAliveTimers(): number {
  return beats.size;
}
