import cluster, { type Worker } from 'node:cluster';
import type { PlatformConfig } from '../shared/config/index.js';
import type { Logger } from '../shared/logging/index.js';
import { restartDelay, type RestartPolicy } from '../shared/supervision/index.js';
import { onSignals } from './context.js';

/** Replacements of dead workers: at once, then backing off; a crash loop stops the whole cluster. */
const workerRestartPolicy: RestartPolicy = { maxRestarts: 5, windowMs: 60_000, baseDelayMs: 500, maxDelayMs: 10_000 };

/** Past their own drain window (pre-shutdown delay + grace period), workers are killed. */
const stopMarginMs = 5_000;

/**
 * `platform serve` with `server.workers` above 1, in the primary process: forks that many workers,
 * each of which runs the api role on the same listen address (node:cluster hands each new
 * connection to one of them). The workers share what the api keeps in the database (sessions,
 * audit, resources); the config rules refuse what they could not share.
 *
 * A worker that stops unexpectedly is replaced (restartDelay backoff); when workers keep stopping
 * (workerRestartPolicy.maxRestarts within its window) the primary stops the others and exits 1,
 * so the failure is visible to whatever runs the platform. On SIGTERM/SIGINT every worker gets
 * SIGTERM and drains as a single api process would; the primary exits once all have exited.
 */
export function superviseApiWorkers(opts: { config: PlatformConfig; log: Logger }): void {
  const { config, log } = opts;
  const policy = workerRestartPolicy;
  const live = new Set<Worker>();
  let stops: number[] = [];
  let stopping: Promise<void> | undefined;
  let allExited: () => void = () => undefined;

  const fork = () => {
    const worker = cluster.fork();
    live.add(worker);
    log.info({ worker: worker.id, pid: worker.process.pid }, 'api worker started');
  };

  const stopWorkers = () =>
    (stopping ??= new Promise<void>((resolve) => {
      allExited = resolve;
      if (live.size === 0) return resolve();
      for (const worker of live) worker.process.kill('SIGTERM');
      const { pre_shutdown_delay, grace_period } = config.server.shutdown;
      setTimeout(() => {
        for (const worker of live) worker.process.kill('SIGKILL');
      }, pre_shutdown_delay + grace_period + stopMarginMs).unref();
    }));

  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    if (stopping) {
      if (live.size === 0) allExited();
      return;
    }
    const now = Date.now();
    stops = [...stops.filter((t) => now - t < policy.windowMs), now];
    const delay = restartDelay(stops, now, policy);
    const facts = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (delay === undefined) {
      log.error({ ...facts, stops: stops.length, windowMs: policy.windowMs }, 'api workers keep stopping; stopping the cluster');
      void stopWorkers().then(() => process.exit(1));
      return;
    }
    log.warn({ ...facts, restartInMs: delay }, 'api worker stopped unexpectedly; starting a replacement');
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  onSignals(stopWorkers, log);
  for (let i = 0; i < config.server.workers; i++) fork();
}
