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

function made(pending: Pending): Logger {
  return (pending.made ??= pending.parent.child(pending.bindings, pending.options));
}

const pendingOf = Symbol('pending child');

/** Where a lazy child's members that are not log methods come from: the child it makes. */
const madeMembers = new Proxy<object>(Object.create(null) as object, {
  get(_target, property, receiver: { [pendingOf]: Pending }) {
    const child = made(receiver[pendingOf]);
    const value: unknown = Reflect.get(child, property);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(child) : value;
  },
  set(_target, property, value, receiver: { [pendingOf]: Pending }) {
    return Reflect.set(made(receiver[pendingOf]), property, value);
  },
  has(_target, property) {
    // `in` passes no receiver; only the log methods (own members of the class) and the pino members are asked about.
    return property in pinoMembers;
  },
});

/** What `in` answers beyond the class's own members (no child to ask without a receiver). */
const pinoMembers: object = pino({ enabled: false }, { write: () => undefined });

/**
 * The log methods Fastify requires of a logger (it checks them on every request's logger) live on
 * the class, so finding them costs an ordinary property lookup; calling one makes the child. Every
 * other member falls through the prototype chain to `madeMembers`, which makes the child and
 * answers from it.
 */
class LazyChild {
  readonly [pendingOf]: Pending;

  constructor(pending: Pending) {
    this[pendingOf] = pending;
  }

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return made(this[pendingOf]).child(bindings, options);
  }
}
for (const name of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const) {
  Object.defineProperty(LazyChild.prototype, name, {
    value(this: LazyChild, ...args: unknown[]): void {
      (made(this[pendingOf])[name] as (...a: unknown[]) => void)(...args);
    },
    writable: true,
    configurable: true,
  });
}
Object.setPrototypeOf(LazyChild.prototype, madeMembers);

/**
 * `logger.child(bindings, options)`, made only when something logs through it: the log methods
 * (and `child`) answer without making it, any other member makes it and answers from it.
 */
export function lazyChild(logger: Logger, bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
  return new LazyChild({ parent: logger, bindings, options, made: undefined }) as unknown as Logger;
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
