/**
 * Request bodies, read by us rather than by Fastify so that every byte a caller sends is bounded:
 * within the route's limit (413 on the declared length before reading, or as soon as the stream
 * passes it), and, until the request has authenticated, within the listener's budget of
 * unauthenticated bytes and by the body read timeout (shared/inbound/bodies.ts). Webhooks and
 * endpoints read their raw bytes with `readBodyWithin`; every parsed body type (JSON, forms, text)
 * goes through `bodyParser`. A refused body is left unread and its connection closes after the answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { bodiesFull, bodyTimeout, type BodyRefusal, type UnauthenticatedBytes } from '../../shared/inbound/index.js';

export interface BodyRules {
  /** `server.body_read_timeout`: an unauthenticated body must have arrived this long after its request started. */
  readTimeoutMs: number;
  /** `server.unauthenticated_body_bytes`, shared by every request of the listener. */
  budget: UnauthenticatedBytes;
}

interface RequestBody {
  rules: BodyRules;
  startedAt: number;
  /** Set once the request authenticated from its headers: its body is then the caller's own business. */
  authenticated: boolean;
  /** Bytes taken from the budget, given back when the exchange ends. */
  taken: number;
  response: ServerResponse;
}

/** Where a request carries its body's rules (a property of its own: a WeakMap entry per request was GC work on every request). */
const bodyOf = Symbol('request body');
type Carrier = IncomingMessage & { [bodyOf]?: RequestBody };
const bodyStateOf = (raw: IncomingMessage): RequestBody | undefined => (raw as Carrier)[bodyOf];

/**
 * Takes `bytes` of the unauthenticated budget for this request's body, held until its exchange
 * ends (the response closes, however it ends); false when the budget is full. The close listener
 * is registered with the first bytes taken: most bodies are authenticated and take none.
 */
function hold(state: RequestBody, bytes: number): boolean {
  const { budget } = state.rules;
  if (!budget.take(bytes)) return false;
  if (state.response.closed) {
    // The exchange is already over: nothing left to hold the bytes for.
    budget.release(bytes);
    return true;
  }
  if (state.taken === 0) {
    state.response.once('close', () => {
      budget.release(state.taken);
      state.taken = 0;
    });
  }
  state.taken += bytes;
  return true;
}

/** How long a listener waits for what a caller sends (`server.*_timeout`), in milliseconds. */
export interface ArrivalLimits {
  headersTimeoutMs: number;
  /** 0: no limit. */
  requestTimeoutMs: number;
}

/**
 * Node's own limits on a listener, as Fastify options: the headers and then the whole request must
 * arrive in time, else 408 and the connection is closed (slow senders, connections that send
 * nothing). Checked every second rather than Node's 30.
 */
export function arrivalOptions(limits: ArrivalLimits): { requestTimeout: number; http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } } {
  const { requestTimeoutMs } = limits;
  // Node refuses a headers timeout longer than a request timeout.
  const headersTimeout = requestTimeoutMs > 0 ? Math.min(limits.headersTimeoutMs, requestTimeoutMs) : limits.headersTimeoutMs;
  return {
    requestTimeout: requestTimeoutMs,
    http: { headersTimeout, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, headersTimeout) },
  };
}

/** Applies `rules` to every request of `app`: register before its routes. */
export function applyBodyRules(app: FastifyInstance, rules: BodyRules): void {
  // A callback hook, not an async one, and nothing for a request without a body (most GETs): this
  // runs on every request of the listener.
  app.addHook('onRequest', (request, reply, done) => {
    const { headers } = request.raw;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return done();
    (request.raw as Carrier)[bodyOf] = { rules, startedAt: Date.now(), authenticated: false, taken: 0, response: reply.raw };
    done();
  });
  // Fastify's own text parser reads outside these rules (JSON and forms are parsed in caller-input.ts and api/oauth).
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', bodyParser((_request, body, done) => done(null, body.toString('utf8'))));
}

/** The request authenticated from its headers before its body is read: its body is the caller's, not counted as unauthenticated. */
export function markAuthenticated(raw: IncomingMessage): void {
  const state = bodyStateOf(raw);
  if (state) state.authenticated = true;
}

/**
 * An answer given before the body was read closes the connection while the body is still
 * arriving: the rest is never read (Node would otherwise read it to the end to reuse the connection).
 */
export function closeIfBodyPending(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return request.raw.complete ? reply : reply.header('connection', 'close');
}

/** The answer to this request closes its connection (the rest of its body is never read). */
export function closeAfterAnswer(raw: IncomingMessage): void {
  bodyStateOf(raw)?.response.setHeader('connection', 'close');
}

/**
 * The body, or undefined when it is larger than `limit` (declared, or as soon as the stream passes
 * it; the rest is left unread). Rejects with a BodyRefusal (its headers already on the response)
 * when an unauthenticated body does not fit the budget or is not in by the read timeout.
 */
export function readBodyWithin(raw: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  // Neither header: the request has no body (HTTP/1.1's rule, and Node's parser's), so nothing to read (most GETs).
  if (raw.headers['content-length'] === undefined && raw.headers['transfer-encoding'] === undefined) return Promise.resolve(noBody);
  const declared = Number(raw.headers['content-length']);
  const known = Number.isFinite(declared) && raw.headers['content-length'] !== undefined;
  if (known && declared > limit) return Promise.resolve(undefined);
  const state = bodyStateOf(raw);
  const counted = state && !state.authenticated ? state : undefined;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    };
    const refuse = (refusal: BodyRefusal) => {
      stop();
      raw.pause();
      if (counted) {
        for (const [name, value] of Object.entries(refusal.headers)) counted.response.setHeader(name, value);
        counted.response.setHeader('connection', 'close');
      }
      reject(refusal);
    };
    /** Takes `bytes` from the budget, or refuses the body. */
    const take = (bytes: number): boolean => {
      if (!counted) return true;
      if (hold(counted, bytes)) return true;
      refuse(bodiesFull(counted.rules.budget.max));
      return false;
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        raw.pause();
        resolve(undefined);
        return;
      }
      // A declared length was taken whole before reading; a chunked body is taken as it arrives.
      if (!known && !take(chunk.length)) return;
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onAborted = () => onError(new Error('the sender closed the connection before the body ended'));
    if (known && declared > 0 && !take(declared)) return;
    if (counted) {
      const { rules } = counted;
      const left = counted.startedAt + rules.readTimeoutMs - Date.now();
      timer = setTimeout(() => refuse(bodyTimeout(rules.readTimeoutMs)), Math.max(0, left));
    }
    raw.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

/** The body of a request without one (zero bytes: nothing in it to change). */
const noBody = new Uint8Array(0);

type Done = (error: Error | null, value?: unknown) => void;

/**
 * A content-type parser over `readBodyWithin` and the route's body limit: `parse` gets the whole
 * body. Too large is Fastify's own 413, with the connection closed.
 */
export function bodyParser(parse: (request: FastifyRequest, body: Buffer, done: Done) => void) {
  return (request: FastifyRequest, _payload: unknown, done: Done): void => {
    readBodyWithin(request.raw, request.routeOptions.bodyLimit).then(
      (body) => {
        if (body) return parse(request, Buffer.from(body.buffer, body.byteOffset, body.byteLength), done);
        closeAfterAnswer(request.raw);
        done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      },
      (error: Error) => done(error),
    );
  };
}
