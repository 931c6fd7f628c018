import type { FastifyInstance } from 'fastify';
import type { Readiness } from './readiness.js';

export interface ShutdownPlan {
  readiness: Readiness;
  /** `server.shutdown.pre_shutdown_delay`: time for load balancers to notice readiness turned false. */
  preShutdownDelayMs: number;
  /** `server.shutdown.grace_period`: how long in-flight requests may take to finish. */
  gracePeriodMs: number;
  /** Ends long-lived streams (MCP GET streams, legacy SSE) that would otherwise hold the drain open. */
  endStreams?: () => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Graceful stop: readiness turns false, wait the pre-shutdown delay, stop accepting and let
 * in-flight requests finish; whatever still runs after the grace period is cut off.
 */
export async function drainAndClose(app: FastifyInstance, plan: ShutdownPlan): Promise<{ forced: boolean }> {
  const sleep = plan.sleep ?? realSleep;
  plan.readiness.startDraining();
  await sleep(plan.preShutdownDelayMs);
  await plan.endStreams?.();
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), plan.gracePeriodMs);
  });
  const outcome = await Promise.race([app.close().then(() => 'closed' as const), graceOver]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    app.server.closeAllConnections();
    await app.close().catch(() => undefined);
    return { forced: true };
  }
  return { forced: false };
}
