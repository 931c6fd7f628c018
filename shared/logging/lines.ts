/**
 * What every request pays for logging, kept to what it uses. Most requests log nothing of their
 * own, yet each had a pino child logger made for it (its bindings serialised and redacted) and
 * its access line passed through pino's generic path (serializers, redaction of wildcard paths,
 * a stringify of the whole object): ~8% of the api's CPU per MCP tools/call (bench:mcp-anchor
 * W1). Here a request's child logger is made when it first logs, and the access line — fields
 * the platform chose, none of them secret — is written as pino would write it, by hand.
 */
import { pino, type Logger } from 'pino';

/** What a lazy child holds until it logs. */
interface Pending {
  parent: Logger;
  bindings: pino.Bindings;
  options: pino.ChildLoggerOptions | undefined;
  made: Logger | undefined;
}

const pendingOf = Symbol('pending child');

function made(pending: Pending): Logger {
  return (pending.made ??= pending.parent.child(pending.bindings, pending.options));
}

/** The log methods Fastify requires of a logger, shared by every lazy child: calling one makes the child. */
const logMethods: Record<PropertyKey, (this: { [pendingOf]: Pending }, ...args: unknown[]) => unknown> = Object.fromEntries(
  ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent', 'child'].map((name) => [
    name,
    function (this: { [pendingOf]: Pending }, ...args: unknown[]) {
      return (made(this[pendingOf])[name as 'info'] as (...a: unknown[]) => unknown)(...args);
    },
  ]),
);

/** One handler for every lazy child (a request makes its proxy and nothing else). */
const lazyHandler: ProxyHandler<Pending> = {
  get(pending, property) {
    if (property === pendingOf) return pending;
    if (Object.hasOwn(logMethods, property)) return logMethods[property];
    const child = made(pending);
    const value: unknown = Reflect.get(child, property);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(child) : value;
  },
  set(pending, property, value) {
    return Reflect.set(made(pending), property, value);
  },
  has(pending, property) {
    return Reflect.has(made(pending), property);
  },
};

/**
 * `logger.child(bindings, options)`, made only when something logs through it: the log methods
 * (and `child`) answer without making it, any other member makes it and answers from it.
 */
export function lazyChild(logger: Logger, bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
  return new Proxy<Pending>({ parent: logger, bindings, options, made: undefined }, lazyHandler) as unknown as Logger;
}

/** The fields of a request's access line (the `req` serializer's, shared/logging/index.ts). */
export interface RequestFields {
  method?: string | undefined;
  url?: string | undefined;
  host?: unknown;
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
}

export interface AccessLine {
  /** The request id, under the label Fastify binds it with. */
  idLabel: string;
  id: string;
  req: RequestFields;
  statusCode: number;
  responseTime: number;
}

const levelValue = { info: 30, error: 50 } as const;

/**
 * Writes `line` as `logger.child({ [idLabel]: id })[level]({ req, res, responseTime }, 'request
 * completed')` would — the same JSON, key for key — straight to the logger's destination. False
 * when it could not (not a plain pino logger, or a destination that wants pino's metadata): the
 * caller then logs through pino.
 */
export function writeAccessLine(logger: Logger, level: 'info' | 'error', line: AccessLine): boolean {
  const holder = logger as unknown as Record<symbol, unknown>;
  const stream = holder[pino.symbols.streamSym] as { write(text: string): unknown; [key: symbol]: unknown } | undefined;
  const bindings = holder[pino.symbols.chindingsSym];
  if (!stream || typeof stream.write !== 'function' || typeof bindings !== 'string' || stream[pino.symbols.needsMetadataGsym]) return false;
  if (!logger.isLevelEnabled(level)) return true;
  stream.write(
    `{"level":${levelValue[level]},"time":${Date.now()}${bindings},${JSON.stringify(line.idLabel)}:${JSON.stringify(line.id)},"req":${JSON.stringify(line.req)},` +
      `"res":{"statusCode":${line.statusCode}},"responseTime":${JSON.stringify(line.responseTime)},"msg":"request completed"}\n`,
  );
  return true;
}
