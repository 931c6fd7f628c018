/**
 * The slice of the platform config this module reads (`config.temporal`). Typed locally and
 * structurally so the config module can evolve without an import cycle.
 */
export interface TemporalTlsConfig {
  enabled: boolean;
  cert_file?: string;
  key_file?: string;
  ca_file?: string;
  server_name?: string;
}

export interface TemporalConfig {
  address?: string;
  namespace: string;
  task_queue: string;
  tls: TemporalTlsConfig;
}
