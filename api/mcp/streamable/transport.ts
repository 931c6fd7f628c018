import { randomFillSync } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { messageJson } from '../jsonrpc-envelope.js';
import { OutboundStream, type StreamArchive } from './outbound-stream.js';
import { onBeat } from './beats.js';
import type { StreamRegistry } from './registry.js';
import { SseConnection } from './sse.js';
import { answerModeFor, isInitialize, isRequest, isResponse, jsonRpcCodes, jsonRpcError, parseEventId, primesStreams, type ResponseMode } from './wire.js';

export interface StreamSettings {
  keepAliveMs: number;
  /** The `retry` field sent with priming events and when the server ends a connection early. */
  retryMs: number;
  /** Events kept per stream for replay. */
  window: number;
  /**
   * How long a request whose client takes either form may wait to be answered with one JSON body
   * (0: every such request is streamed). A stream opens once the window has passed, or when
   * anything else is sent for the request first (progress, logging, elicitation).
   */
  jsonWithinMs: number;
  registry: StreamRegistry;
  archive?: StreamArchive;
  onError?: (error: unknown) => void;
}

export interface HttpTransportOptions {
  /** Absent for stateless requests without a session: nothing is resumable then. */
  sessionId?: string;
  /** The session's negotiated version when known beforehand (database sessions); else learned at initialize. */
  protocolVersion?: string;
  streams: StreamSettings;
  /** The session's initialize was answered with an error: the session never opened. */
  onInitializeRefused?: () => void;
  /** Every request received so far is answered (a per-request transport is then done). */
  onSettled?: () => void;
}

/**
 * The POST whose answer a request's response completes: a stream, one JSON body, or one JSON body
 * unless a stream opens first (`json-first`: `stream` opens it, `stopWaiting` ends its window).
 */
type Answer =
  | { kind: 'stream'; stream: OutboundStream; outstanding: Set<RequestId> }
  | { kind: 'json'; body: JsonAnswer }
  | { kind: 'json-first'; body: JsonAnswer; stream: () => OutboundStream; stopWaiting: () => void };

export const sessionHeader = 'mcp-session-id';

/**
 * The MCP Streamable HTTP transport on Node's own request and response objects: the SDK server
 * above it is transport-agnostic, so requests never become Web `Request`s or streams. One per
 * stateful session, or one per POST of a stateless server. Routing of outgoing messages follows
 * the spec: a response and anything related to a request go on that request's POST stream, the
 * rest on the session's standalone GET stream; every stream event has an id and can be replayed.
 */
export class HttpTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  readonly sessionId: string | undefined;

  readonly #answers = new Map<RequestId, Answer>();
  readonly #owned = new Set<OutboundStream>();
  #standalone: OutboundStream | undefined;
  #protocolVersion: string | undefined;
  #initializeId: RequestId | undefined;
  #closed = false;

  constructor(private readonly opts: HttpTransportOptions) {
    this.sessionId = opts.sessionId;
    this.#protocolVersion = opts.protocolVersion;
  }

  async start(): Promise<void> {}

  /** The version negotiated by this session's initialize, once known. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get #headers(): Record<string, string> {
    return this.sessionId ? { [sessionHeader]: this.sessionId } : {};
  }

  /** Streams are resumable (priming event, retry) only inside a session speaking 2025-11-25 or later. */
  #primes(version: string): boolean {
    return this.sessionId !== undefined && primesStreams(version);
  }

  /**
   * A POST's messages: notifications and responses alone are accepted with 202; requests are
   * answered on one SSE stream or in one JSON body, as `mode` says.
   */
  handlePost(res: ServerResponse, messages: JSONRPCMessage[], batch: boolean, mode: ResponseMode, version: string, extra: MessageExtraInfo): void {
    if (this.#closed) return void sendJson(res, 404, jsonRpcError(jsonRpcCodes.sessionNotFound, 'Session not found'));
    const requests = messages.filter(isRequest);
    for (const message of messages) this.#noteCancellation(message);
    if (requests.length === 0) {
      res.writeHead(202, this.#headers).end();
      for (const message of messages) this.onmessage?.(message, extra);
      this.#checkSettled();
      return;
    }
    const initialize = requests.find(isInitialize);
    if (initialize) this.#initializeId = initialize.id;
    const form = answerModeFor(mode, requests, this.opts.streams.jsonWithinMs > 0);
    if (form === 'json') {
      const body = new JsonAnswer(res, requests.map((r) => r.id), batch, this.#headers);
      for (const request of requests) this.#answers.set(request.id, { kind: 'json', body });
      for (const message of messages) this.onmessage?.(message, extra);
      return;
    }
    const ids = requests.map((r) => r.id);
    const primes = this.#primes(version);
    if (form === 'json-first') this.#answerJsonFirst(res, ids[0]!, primes);
    else this.#answerOnStream(res, ids, primes);
    // Closing the stream early is for tools that want the client to poll (2025-11-25 with an id to resume from).
    const closable = primes ? { closeSSEStream: () => this.#streamFor(ids[0]!)?.release(this.opts.streams.retryMs) } : {};
    for (const message of messages) this.onmessage?.(message, isRequest(message) ? { ...extra, ...closable } : extra);
  }

  /** Answers `ids` on a stream of this POST's response, primed when the session resumes streams. */
  #answerOnStream(res: ServerResponse, ids: readonly RequestId[], primes: boolean): OutboundStream {
    const stream = this.#openStream();
    const outstanding = new Set(ids);
    for (const id of ids) this.#answers.set(id, { kind: 'stream', stream, outstanding });
    stream.attach(new SseConnection(res, { keepAliveMs: this.opts.streams.keepAliveMs, headers: this.#headers, flushHeaders: false }), 0, primes ? { retryMs: this.opts.streams.retryMs } : undefined);
    return stream;
  }

  /**
   * Waits for the response to answer with one JSON body: most requests are answered at once, and
   * one body costs the server and the client less than a stream's framing, event ids and replay
   * window. The stream opens in its stead on the second beat of the window (between one and two
   * windows after the POST), so a long call still gets its priming event and keep-alives.
   */
  #answerJsonFirst(res: ServerResponse, id: RequestId, primes: boolean): void {
    let beats = 0;
    const stopWaiting = onBeat(this.opts.streams.jsonWithinMs, () => {
      if (++beats === 2) this.#streamFor(id);
    });
    this.#answers.set(id, { kind: 'json-first', body: new JsonAnswer(res, [id], false, this.#headers), stream: () => this.#answerOnStream(res, [id], primes), stopWaiting });
  }

  /** The stream answering `id`, opened now if its answer was still to be JSON; undefined once answered. */
  #streamFor(id: RequestId): OutboundStream | undefined {
    const answer = this.#answers.get(id);
    if (answer?.kind === 'stream') return answer.stream;
    if (answer?.kind !== 'json-first') return undefined;
    answer.stopWaiting();
    return answer.stream();
  }

  /** The standalone stream: one per session (409 while one is connected); it is replaced when reopened. */
  openStandalone(res: ServerResponse, version: string): void {
    if (this.#standalone?.connected) {
      return void sendJson(res, 409, jsonRpcError(jsonRpcCodes.serverError, 'Conflict: only one standalone SSE stream is allowed per session'));
    }
    if (this.#standalone) this.#drop(this.#standalone);
    const stream = this.#openStream();
    this.#standalone = stream;
    const primes = this.#primes(version);
    stream.attach(new SseConnection(res, { keepAliveMs: this.opts.streams.keepAliveMs, headers: this.#headers, flushHeaders: true }), 0, primes ? { retryMs: this.opts.streams.retryMs } : undefined);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return;
    const related = isResponse(message) ? message.id : options?.relatedRequestId;
    if (related === undefined) {
      this.#standalone?.push(message);
      return;
    }
    const answer = this.#answers.get(related);
    // Nobody waits any more (the request was cancelled): the message has nowhere to go.
    if (!answer) return;
    if (isResponse(message) && message.id === this.#initializeId) this.#initialized(message);
    if (answer.kind === 'json-first') {
      if (!isResponse(message)) return this.#streamFor(related)!.push(message);
      answer.stopWaiting();
    }
    if (answer.kind !== 'stream') {
      // A JSON answer carries responses only (MCP notes 1.2): related notifications are dropped.
      if (!isResponse(message)) return;
      this.#answers.delete(related);
      answer.body.answer(related, message);
      this.#checkSettled();
      return;
    }
    if (!isResponse(message)) {
      answer.stream.push(message);
      return;
    }
    this.#answers.delete(related);
    answer.outstanding.delete(related);
    answer.stream.push(message, answer.outstanding.size === 0);
    this.#checkSettled();
  }

  /**
   * Ends every stream of this transport. A stream whose client lost it stays resumable in the
   * registry until its TTL (its final answer may not have been read yet).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of [...this.#owned]) {
      if (stream.detachedAt !== undefined) stream.finish();
      else this.#drop(stream);
    }
    this.#owned.clear();
    for (const answer of this.#answers.values()) {
      if (answer.kind === 'json-first') answer.stopWaiting();
      if (answer.kind !== 'stream') answer.body.abandon();
    }
    this.#answers.clear();
    this.onclose?.();
  }

  /** Ends the standalone stream's connection (shutdown); the client may reopen it elsewhere. */
  closeStandaloneStream(): void {
    this.#standalone?.release(this.opts.streams.retryMs);
  }

  #initialized(response: JSONRPCMessage): void {
    if ('result' in response) {
      this.#protocolVersion = (response.result as { protocolVersion?: string }).protocolVersion ?? this.#protocolVersion;
    } else {
      this.opts.onInitializeRefused?.();
    }
  }

  #checkSettled(): void {
    if (this.#answers.size === 0) this.opts.onSettled?.();
  }

  #openStream(): OutboundStream {
    const { window, archive, onError, registry } = this.opts.streams;
    const stream: OutboundStream = new OutboundStream(newStreamId(), {
      sessionId: this.sessionId ?? '',
      window,
      clock: registry.clock,
      // A finished stream whose client read it to the end has nothing left to replay.
      onDelivered: () => this.#drop(stream),
      ...(archive && this.sessionId ? { archive } : {}),
      ...(onError ? { onArchiveError: onError } : {}),
    });
    this.#owned.add(stream);
    if (this.sessionId) registry.add(this.sessionId, stream);
    return stream;
  }

  #drop(stream: OutboundStream): void {
    stream.finish();
    this.#owned.delete(stream);
    if (this.sessionId) this.opts.streams.registry.remove(this.sessionId, stream);
  }

  /** A cancelled request gets no response (the SDK sends none): stop waiting for it. */
  #noteCancellation(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'notifications/cancelled') return;
    const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    if (id === undefined) return;
    const answer = this.#answers.get(id);
    if (!answer) return;
    this.#answers.delete(id);
    if (answer.kind === 'json-first') answer.stopWaiting();
    if (answer.kind !== 'stream') answer.body.answer(id, undefined);
    else {
      answer.outstanding.delete(id);
      if (answer.outstanding.size === 0) answer.stream.finish();
    }
    this.#checkSettled();
  }
}

/** Resumes a stream of this process from `Last-Event-ID`: false when the id names none here. */
export function resumeLocalStream(
  registry: StreamRegistry,
  sessionId: string,
  lastEventId: string,
  res: ServerResponse,
  settings: { keepAliveMs: number },
): boolean {
  const position = parseEventId(lastEventId);
  const stream = position ? registry.get(sessionId, position.streamId) : undefined;
  if (!stream || !position) return false;
  stream.attach(new SseConnection(res, { keepAliveMs: settings.keepAliveMs, headers: { [sessionHeader]: sessionId }, flushHeaders: true }), position.seq, undefined);
  return true;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // Bytes, encoded once (a string would be measured, then encoded, by the HTTP layer).
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(Buffer.from(messageJson(body)));
}

/** One JSON body answering a POST's requests: a single response, or an array for a batch. */
class JsonAnswer {
  readonly #responses = new Map<RequestId, JSONRPCMessage | undefined>();

  constructor(
    private readonly res: ServerResponse,
    private readonly ids: readonly RequestId[],
    private readonly batch: boolean,
    private readonly headers: Record<string, string>,
  ) {}

  answer(id: RequestId, response: JSONRPCMessage | undefined): void {
    this.#responses.set(id, response);
    if (this.#responses.size < this.ids.length) return;
    const responses = this.ids.map((i) => this.#responses.get(i)).filter((r) => r !== undefined);
    if (responses.length === 0) return void this.res.writeHead(202, this.headers).end();
    sendJson(this.res, 200, this.batch ? responses : responses[0], this.headers);
  }

  abandon(): void {
    if (!this.res.headersSent) sendJson(this.res, 404, jsonRpcError(jsonRpcCodes.sessionNotFound, 'Session closed'), this.headers);
  }
}

/**
 * Random bytes for stream ids, drawn 128 ids at a time: a stream is opened per POST, and a
 * randomBytes call of its own (a job on the crypto binding) was ~3.5% of a tools/call's CPU.
 * Each id still takes 12 bytes of its own from the CSPRNG, as Node's randomUUID does from its cache.
 */
const idBytes = 12;
const idPool = Buffer.alloc(idBytes * 128);
let idOffset = idPool.length;

export function newStreamId(): string {
  if (idOffset + idBytes > idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const id = idPool.toString('base64url', idOffset, idOffset + idBytes);
  idOffset += idBytes;
  return id;
}
