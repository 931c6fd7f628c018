import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Paths whose values are never written to a log line. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.password',
  '*.secret',
  '*.token',
  '*.key',
];

export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { service: 'platform' },
  };
  return options.destination ? pino(opts, options.destination as pino.DestinationStream) : pino(opts);
}

/** A logger that writes nowhere: for tests and for commands whose stdout is a protocol channel. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
