import { pino, type Logger, type LoggerOptions } from 'pino';
import { flushAtExit, GatheredLines } from './gathered-lines.js';
import type { RequestFields } from './lines.js';
import { redactRequestUrl, redactUrlSecrets } from './redact-url.js';

export type { Logger };
export { isSecretParamName, redactRequestUrl, redactUrlSecrets } from './redact-url.js';
export { lazyChild, writeAccessLine, type AccessLine, type RequestFields } from './lines.js';

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

/** A Fastify request or a raw Node request: the fields a request log line shows. */
export interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/**
 * The `req` of every request log line (Fastify's own, on every listener built on this logger):
 * no headers at all, and the URL with path tokens and secret query parameters hidden.
 */
export function requestFields(req: LoggedRequest): RequestFields {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactRequestUrl(req.url) : undefined,
    host: req.host ?? req.headers?.host,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The `err` of a log line: pino's shape (type, message and stack with their causes, code, …) but
 * scalar fields only, so an HTTP client's request config (headers, credentials) or a raw response
 * never reaches a line, and URL secrets hidden in the text.
 */
function serializeError(err: unknown): unknown {
  const out: unknown = pino.stdSerializers.err(err as Error);
  if (typeof out === 'string') return redactUrlSecrets(out);
  if (!out || typeof out !== 'object') return out;
  return Object.fromEntries(
    Object.entries(out).flatMap(([field, value]): Array<[string, unknown]> => {
      if (typeof value === 'string') return [[field, redactUrlSecrets(value)]];
      return typeof value === 'number' || typeof value === 'boolean' ? [[field, value]] : [];
    }),
  );
}

/**
 * The platform's logger, at `LOG_LEVEL` (default info). Without a `destination` it writes to stderr
 * in batches, asynchronously: lines gather in memory (gathered-lines.ts) until 64 KiB wait or 200 ms
 * have passed since the first of them, and go out by one write that does not wait for the reader
 * (pino's SonicBoom, `sync: false`). A line costs the request its formatting only — no system call
 * or thread-pool dispatch of its own — and a slow log reader (a full pipe) never stalls requests:
 * past 32 MiB waiting, lines are dropped rather than held. What is still held is written
 * synchronously when the process exits, by process.exit or a crash alike; only a kill -9 or a
 * power cut can lose the last 200 ms of lines.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { req: requestFields, err: serializeError },
    base: { service: 'platform' },
  };
  return pino(opts, (options.destination as pino.DestinationStream | undefined) ?? bufferedStderr());
}

/** What waits for a slow stderr reader at most; more is dropped (SonicBoom's maxLength). */
const maxWaitingBytes = 32 * 1024 * 1024;

function bufferedStderr(): pino.DestinationStream {
  // minLength 0: each hand-over is already many lines, written as soon as the last write is done.
  const stderr = pino.destination({ fd: 2, sync: false, minLength: 0, maxLength: maxWaitingBytes });
  const gathered = new GatheredLines(stderr);
  flushAtExit(gathered);
  return gathered;
}

/** A logger that writes nowhere: for tests and for commands whose stdout is a protocol channel. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
