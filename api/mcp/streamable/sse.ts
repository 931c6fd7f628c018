import type { ServerResponse } from 'node:http';
import { messageJson } from '../jsonrpc-envelope.js';
import { onBeat } from './beats.js';

export interface SseOptions {
  /** Comment frames that keep proxies from closing an idle stream; 0 disables them. */
  keepAliveMs: number;
  /** Extra response headers (the session id). */
  headers?: Record<string, string>;
  /**
   * Send the headers at once, before any event: a GET stream may stay idle for long and the
   * client must see it open. A POST's stream leaves them for its first event (one write, not two).
   */
  flushHeaders: boolean;
}

/**
 * One event as bytes: a large answer (a 10,000-row result is megabytes) is encoded once here; as a
 * string the HTTP layer would measure it (Buffer.byteLength) and then encode it.
 */
const messageFrame = (message: unknown, id: string | undefined): Buffer =>
  Buffer.from(`event: message\n${id !== undefined ? `id: ${id}\n` : ''}data: ${messageJson(message)}\n\n`);

/**
 * One HTTP response carrying Server-Sent Events, written straight to the Node response (no Web
 * stream conversion). Headers are flushed at once so an idle stream is visibly open.
 */
export class SseConnection {
  /** No more writes: ended by us or gone. */
  #closed = false;
  /** The response was handed to the OS in full (`finish`): its client can have read every event. */
  #delivered = false;
  #gone = false;
  /** Stops this connection's keep-alive comments. */
  readonly #stopKeepAlive: (() => void) | undefined;
  readonly #onClose: ((delivered: boolean) => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    opts: SseOptions,
  ) {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...opts.headers,
    });
    if (opts.flushHeaders) res.flushHeaders();
    res.once('finish', () => (this.#delivered = true));
    res.once('close', () => this.#ended());
    // A POST whose client left while its answer waited for the JSON window: gone already.
    if (res.destroyed) this.#ended();
    else if (opts.keepAliveMs > 0) this.#stopKeepAlive = onBeat(opts.keepAliveMs, () => this.#write(': keepalive\n\n'));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Called once when the connection is gone, whoever ended it; `delivered` tells whether the whole
   * response left for the client (false: the client went away before the end).
   */
  onClose(listener: (delivered: boolean) => void): void {
    if (this.#gone) listener(this.#delivered);
    else this.#onClose.push(listener);
  }

  /** A priming event: an id and empty data, with the reconnection delay when one is set. */
  prime(id: string, retryMs: number | undefined): boolean {
    return this.#write(`id: ${id}\n${retryMs !== undefined ? `retry: ${retryMs}\n` : ''}data: \n\n`);
  }

  send(message: unknown, id: string | undefined): boolean {
    return this.#write(messageFrame(message, id));
  }

  /**
   * The last event, then the end of the response, in one write: handed to `end()` itself (on
   * Node 22 a write corked before `end()` is dropped, and the client never gets the answer).
   */
  sendLast(message: unknown, id: string | undefined): void {
    this.end(messageFrame(message, id));
  }

  /** Tells the client how long to wait before reconnecting, then ends the connection. */
  endWithRetry(retryMs: number): void {
    this.#write(`retry: ${retryMs}\n\n`);
    this.end();
  }

  /** Ends the response, with `lastFrame` as its last bytes when given. */
  end(lastFrame?: string | Buffer): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopKeepAlive?.();
    if (lastFrame === undefined) this.res.end();
    else this.res.end(lastFrame);
  }

  #write(frame: string | Buffer): boolean {
    if (this.#closed) return false;
    this.res.write(frame);
    return true;
  }

  #ended(): void {
    this.#closed = true;
    this.#gone = true;
    this.#stopKeepAlive?.();
    for (const listener of this.#onClose.splice(0)) listener(this.#delivered);
  }
}
