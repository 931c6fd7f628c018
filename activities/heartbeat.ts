/**
 * Every activity heartbeats. The worker runs each through `heartbeatInterceptor`, which beats
 * every HEARTBEAT_EVERY_MS while the activity runs — also while it awaits one long step (a query,
 * a PDF, an upload) —, repeating the last detail the activity reported with `progress`. A worker that stalls or dies stops beating, so the try is retried after the
 * workflow's `heartbeatTimeout` instead of hanging for its whole start-to-close timeout (which also
 * holds up a Schedule's next runs); and cancellation, which reaches an activity only in a
 * heartbeat's answer, stops it at its next `progress`.
 */
import { Context } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/** How often a running activity beats; a workflow's heartbeatTimeout is at least three of these. */
export const HEARTBEAT_EVERY_MS = 10_000;

/** What each running activity last reported, which its periodic beats repeat. */
const reported = new WeakMap<Context, unknown>();

/**
 * Reports the running activity's progress (a heartbeat now, with `detail`), and stops it there
 * when it was cancelled: between two steps is where a cancelled activity ends.
 */
export function progress(detail: unknown): void {
  const context = Context.current();
  reported.set(context, detail);
  context.heartbeat(detail);
  context.cancellationSignal.throwIfAborted();
}

/** The worker's activity interceptor: a heartbeat every `everyMs` until the activity ends. */
export function heartbeatInterceptor(everyMs = HEARTBEAT_EVERY_MS): ActivityInterceptorsFactory {
  return (context) => ({
    inbound: {
      async execute(input, next) {
        // None at start: the SDK sends an activity's first beat at once and throttles the next, so
        // the activity's own first progress is the one that goes out at once.
        const timer = setInterval(() => context.heartbeat(reported.get(context)), everyMs);
        try {
          return await next(input);
        } finally {
          clearInterval(timer);
        }
      },
    },
  });
}
