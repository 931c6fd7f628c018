/** A running embedded Postgres owned by this process (or reused from an earlier one). */
export interface EmbeddedPostgres {
  /** Connection string for createPool(). */
  dsn: string;
  /** `cluster`: a private server from local Postgres binaries; `pglite`: PGlite served over TCP. */
  kind: 'cluster' | 'pglite';
  /** Stops the server; safe to call twice. */
  stop(): Promise<void>;
}

/** Logger shape for the embedded server (pino's Logger satisfies it). */
export interface EmbeddedLog {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
}

export const silentEmbeddedLog: EmbeddedLog = { info: () => undefined, warn: () => undefined };

/** The private cluster cannot be used here (no binaries, no way to drop root, …); PGlite may stand in. */
export class ClusterUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClusterUnavailableError';
  }
}
