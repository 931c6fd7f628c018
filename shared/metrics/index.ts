import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus series. Labels never carry caller-supplied paths: HTTP requests are
 * labelled by their route template.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  /** Bytes of request bodies being held before their requests authenticated (server.unauthenticated_body_bytes). */
  httpUnauthenticatedBodyBytes: Gauge;
  toolCalls: Counter<'tool' | 'outcome'>;
  toolDuration: Histogram<'tool'>;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'platform_http_requests_total',
      help: 'HTTP requests answered, by route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'platform_http_request_duration_seconds',
      help: 'HTTP request duration by route template',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    httpUnauthenticatedBodyBytes: new Gauge({
      name: 'platform_http_unauthenticated_body_bytes',
      help: 'Bytes of request bodies this replica holds for requests not (yet) authenticated',
      registers: [registry],
    }),
    toolCalls: new Counter({
      name: 'platform_mcp_tool_calls_total',
      help: 'MCP tools/call requests by tool and outcome (ok | error)',
      labelNames: ['tool', 'outcome'],
      registers: [registry],
    }),
    toolDuration: new Histogram({
      name: 'platform_mcp_tool_call_duration_seconds',
      help: 'MCP tool call duration by tool',
      labelNames: ['tool'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers: [registry],
    }),
  };
}
