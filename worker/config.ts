import type { TemporalConfig } from '../shared/temporal/index.js';
import type { CompactorConfig } from './webhooks.js';

/** `config.sessions` (durations already parsed to ms). */
export interface SessionsConfig {
  store: string;
  ttl: number;
  idle_timeout: number;
  cleanup_interval: number;
}

/** The slice of the platform config the worker reads; typed structurally so the full config fits. */
export interface WorkerConfig {
  temporal: TemporalConfig;
  sessions: SessionsConfig;
  /** `webhooks.compactor` (absent in worker configs that predate webhooks). */
  webhooks?: { compactor: CompactorConfig };
}
