/**
 * The endpoint series of spec document 3 ("Metrics"). Labels never carry what a caller chose: the
 * endpoint label is a bound endpoint's name (an unknown name is never a label), and HTTP requests
 * are labelled by the route template `/endpoints/{name}/{rest...}`.
 *
 * `http_server_request_duration_seconds` and `http_rate_limited_total` are the platform's generic
 * series, which other surfaces may count into as well: they are taken from the registry when
 * another module registered them first.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

/** The route label of every request under /endpoints/ (never the caller's path). */
export const ENDPOINT_ROUTE = '/endpoints/{name}/{rest...}';

export interface EndpointMetrics {
  /** Requests a handler ran for, by endpoint and status class (2xx … 5xx). */
  requests: Counter<'endpoint' | 'status_class'>;
  /** Their duration, by endpoint. */
  duration: Histogram<'endpoint'>;
  /** Every request under /endpoints/, refusals included, by route template. */
  httpDuration: Histogram<'route'>;
  /** Requests refused by a rate limit, by limiter (`endpoint` here). */
  rateLimited: Counter<'limiter'>;
}

const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const registered = new WeakMap<Registry, EndpointMetrics>();

function shared<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export function endpointMetrics(registry: Registry): EndpointMetrics {
  let metrics = registered.get(registry);
  if (!metrics) {
    const registers = [registry];
    metrics = {
      requests: new Counter({ name: 'endpoint_requests_total', help: 'Scripted endpoint requests a handler ran for, by endpoint and status class', labelNames: ['endpoint', 'status_class'], registers }),
      duration: new Histogram({ name: 'endpoint_request_duration_seconds', help: 'Duration of scripted endpoint requests a handler ran for, by endpoint', labelNames: ['endpoint'], buckets: durationBuckets, registers }),
      httpDuration: shared(registry, 'http_server_request_duration_seconds', () =>
        new Histogram({ name: 'http_server_request_duration_seconds', help: 'HTTP request duration by route template', labelNames: ['route'], buckets: durationBuckets, registers }),
      ),
      rateLimited: shared(registry, 'http_rate_limited_total', () =>
        new Counter({ name: 'http_rate_limited_total', help: 'HTTP requests refused by a rate limit, by limiter', labelNames: ['limiter'], registers }),
      ),
    };
    registered.set(registry, metrics);
  }
  return metrics;
}

export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
