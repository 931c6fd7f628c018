import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { eventId } from './wire.js';
import type { SseConnection } from './sse.js';

export interface StreamEvent {
  seq: number;
  message: JSONRPCMessage;
}

/**
 * Where a stream's events go once its connection dropped before it finished, so that another
 * replica can replay them (`sessions.store: database`). In-process sessions need none: the
 * stream itself keeps its window until the client resumes or it expires.
 */
export interface StreamArchive {
  save(sessionId: string, streamId: string, events: readonly StreamEvent[], final: boolean): Promise<void>;
  /** Undefined when the stream is not archived (never dropped, already pruned, or another session's). */
  replay(sessionId: string, streamId: string, afterSeq: number): Promise<{ events: StreamEvent[]; final: boolean } | undefined>;
}

export interface StreamOptions {
  sessionId: string;
  /** Events kept for replay per stream; older ones are dropped. */
  window: number;
  /** Present when a dropped stream must be replayable from another process. */
  archive?: StreamArchive;
  onArchiveError?: (error: unknown) => void;
  /** The stream finished and its connection delivered every event: nothing is left to replay. */
  onDelivered?: () => void;
  clock: () => number;
}

/**
 * One logical SSE stream of a session: the answer stream of a POST, or the standalone GET stream.
 * Every event gets an id; the last `window` events are kept so a client that lost its connection
 * resumes with `Last-Event-ID` and gets exactly what it missed. A stream outlives its connection:
 * a tool call keeps running and its result waits here (and, with an archive, in the database).
 */
export class OutboundStream {
  #seq = 0;
  #events: StreamEvent[] = [];
  #connection: SseConnection | undefined;
  #finished = false;
  /** True once the stream lost its connection unfinished and its events go to the archive. */
  #archived = false;
  #detachedAt: number | undefined;
  /** Archive writes in order: a later event never lands before an earlier one. */
  #saving: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    private readonly opts: StreamOptions,
  ) {}

  get finished(): boolean {
    return this.#finished;
  }

  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** When the stream last lost its connection; undefined while connected or never connected. */
  get detachedAt(): number | undefined {
    return this.#detachedAt;
  }

  /**
   * Gives the stream a connection: the events after `afterSeq` are replayed first (a new
   * connection of a fresh stream passes 0 and gets the priming event instead). A finished stream
   * ends the connection once it has caught up.
   */
  attach(connection: SseConnection, afterSeq: number, priming: { retryMs: number | undefined } | undefined): void {
    this.#connection?.end();
    this.#connection = connection;
    this.#detachedAt = undefined;
    if (priming) connection.prime(eventId(this.id, 0), priming.retryMs);
    for (const event of this.#events) if (event.seq > afterSeq) connection.send(event.message, eventId(this.id, event.seq));
    if (this.#finished) connection.end();
    connection.onClose((delivered) => {
      if (this.#connection !== connection) return;
      this.#connection = undefined;
      if (delivered && this.#finished) return this.opts.onDelivered?.();
      this.#detachedAt = this.opts.clock();
      this.#onDetached();
    });
  }

  /** Ends the connection without ending the stream: the client reconnects after `retryMs` (SSE polling). */
  release(retryMs: number): void {
    this.#connection?.endWithRetry(retryMs);
  }

  /** Adds an event; the final one (the last response of a POST) ends the stream. */
  push(message: JSONRPCMessage, final = false): void {
    if (this.#finished) return;
    const event = { seq: ++this.#seq, message };
    this.#events.push(event);
    if (this.#events.length > this.opts.window) this.#events.shift();
    if (final) this.#finished = true;
    const connection = this.#connection;
    if (connection && !connection.closed) {
      if (final) connection.sendLast(message, eventId(this.id, event.seq));
      else connection.send(message, eventId(this.id, event.seq));
    } else if (this.#archived) {
      this.#save([event], final);
    }
  }

  /** Ends the stream and its connection without a further event (session closed, request cancelled). */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#connection?.end();
    if (this.#archived) this.#save([], true);
  }

  /** Lost before the client read the end: from now on the archive (if any) holds the stream. */
  #onDetached(): void {
    if (!this.opts.archive || this.#archived) return;
    this.#archived = true;
    this.#save(this.#events, this.#finished);
  }

  #save(events: readonly StreamEvent[], final: boolean): void {
    const archive = this.opts.archive;
    if (!archive) return;
    const batch = [...events];
    this.#saving = this.#saving
      .then(() => archive.save(this.opts.sessionId, this.id, batch, final))
      .catch((error: unknown) => this.opts.onArchiveError?.(error));
  }
}
