/**
 * The receiver's Prometheus series, with document 3's names and labels. A request to an unknown
 * name is counted with an empty source label, so an attacker's invented names never become series.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The outcomes of webhook_requests_total. */
export const WEBHOOK_OUTCOMES = ['accepted', 'unauthorized', 'too_large', 'rate_limited', 'buffer_full', 'write_failed', 'unknown_source', 'invalid_body'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

export interface WebhookMetrics {
  requests: Counter<'source' | 'outcome'>;
  events: Counter<'source'>;
  segments: Counter<'source'>;
  bufferEvents: Gauge<'source'>;
  ackSeconds: Histogram<'source'>;
  compactions: Counter<'source' | 'result'>;
  duplicatesDropped: Counter<'source'>;
}

const registered = new WeakMap<Registry, WebhookMetrics>();

/** The webhook series on `registry` (created once per registry: every receiver of a process shares them). */
export function webhookMetrics(registry: Registry): WebhookMetrics {
  let metrics = registered.get(registry);
  if (!metrics) {
    const registers = [registry];
    metrics = {
      requests: new Counter({ name: 'webhook_requests_total', help: 'Webhook requests by source and outcome', labelNames: ['source', 'outcome'], registers }),
      events: new Counter({ name: 'webhook_events_total', help: 'Webhook events accepted (in object storage), by source', labelNames: ['source'], registers }),
      segments: new Counter({ name: 'webhook_segments_written_total', help: 'Raw segments written, by source', labelNames: ['source'], registers }),
      bufferEvents: new Gauge({ name: 'webhook_buffer_events', help: 'Events held in memory on this replica, by source', labelNames: ['source'], registers }),
      ackSeconds: new Histogram({
        name: 'webhook_ack_seconds',
        help: 'From a webhook request to its acknowledgement (202), by source',
        labelNames: ['source'],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
        registers,
      }),
      compactions: new Counter({ name: 'webhook_compactions_total', help: 'Window compactions by source and result (compacted, failed)', labelNames: ['source', 'result'], registers }),
      duplicatesDropped: new Counter({ name: 'webhook_duplicates_dropped_total', help: 'Events dropped at compaction as duplicates of an earlier event id, by source', labelNames: ['source'], registers }),
    };
    registered.set(registry, metrics);
  }
  return metrics;
}
