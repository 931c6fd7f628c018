/** The outbox's Prometheus series: what waits, and how dispatches end. */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface ResourceJobMetrics {
  /** Rows waiting in the outbox, by kind, as the last sweep pass counted them. */
  backlog: Gauge<'kind'>;
  /** Dispatches by kind and result: `started` (started, signalled, or already started) or `failed` (left for a retry). */
  dispatches: Counter<'kind' | 'result'>;
}

const registered = new WeakMap<Registry, ResourceJobMetrics>();

/** The series on `registry`, created once per registry. */
export function resourceJobMetrics(registry: Registry): ResourceJobMetrics {
  let metrics = registered.get(registry);
  if (!metrics) {
    const registers = [registry];
    metrics = {
      backlog: new Gauge({ name: 'platform_resource_jobs_backlog', help: 'Resource jobs waiting in the outbox (not yet started in Temporal), by kind', labelNames: ['kind'], registers }),
      dispatches: new Counter({
        name: 'platform_resource_job_dispatches_total',
        help: 'Resource job dispatches to Temporal by kind and result (started, failed)',
        labelNames: ['kind', 'result'],
        registers,
      }),
    };
    registered.set(registry, metrics);
  }
  return metrics;
}
