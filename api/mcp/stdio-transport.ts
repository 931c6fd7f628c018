/**
 * MCP over newline-delimited JSON on a pair of streams (stdio). Unlike the SDK's
 * StdioServerTransport, which drops a bad line with nothing but an `onerror` and refuses arrays,
 * every line gets an answer:
 * - a line that is not JSON: `-32700` (id null);
 * - JSON that is not a JSON-RPC message: `-32600`, with the message's id when it had one;
 * - a batch (JSON array): for sessions that negotiated a protocol version before 2025-06-18 each
 *   message is handled and the responses to its requests go back as one array line (a batch of
 *   notifications and responses only gets no line; an empty array gets `-32600`); from 2025-06-18
 *   on, and before initialize, batches are refused with `-32600`.
 *
 * The negotiated version is the one the server answered initialize with (the SDK server does not
 * tell its transport, so the transport reads it from the outgoing InitializeResult). When the input
 * ends, the transport closes once every request it passed on has been answered, so a client that
 * pipes requests in and closes its end still gets every answer.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { classifyMessage, errorReply, messageJson } from './jsonrpc-envelope.js';
import { batchesAllowed, jsonRpcCodes } from './streamable/wire.js';
import { parseCallerJson } from '../../shared/inbound/index.js';

/** Longest line accepted; a longer one is discarded and refused (the SDK's stdio limit). */
export const maxLineBytes = 10 * 1024 * 1024;

/** The responses owed to one batch line, sent together once the last one is known. */
interface Batch {
  pending: Set<RequestId>;
  responses: JSONRPCMessage[];
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  /** Bytes of the line being read, before its newline arrives. */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** Set while skipping the rest of a line that grew past `maxLineBytes`. */
  #discarding = false;
  /** Requests passed to the server and not answered yet. */
  readonly #unanswered = new Set<RequestId>();
  readonly #initializeIds = new Set<RequestId>();
  readonly #batchOf = new Map<RequestId, Batch>();
  /** The protocol version the server answered initialize with. */
  #protocolVersion: string | undefined;
  #inputEnded = false;
  #closed = false;

  constructor(input: Readable, output: Writable) {
    this.#input = input;
    this.#output = output;
  }

  async start(): Promise<void> {
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.on('error', this.#onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      const id = message.id;
      this.#unanswered.delete(id);
      this.#noteInitializeResult(id, message);
      const batch = this.#batchOf.get(id);
      if (batch) {
        this.#batchOf.delete(id);
        batch.pending.delete(id);
        batch.responses.push(message);
        await this.#flushBatch(batch);
      } else await this.#write(message);
      this.#closeIfDrained();
      return;
    }
    await this.#write(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('error', this.#onInputError);
    this.#partial = [];
    this.#batchOf.clear();
    this.onclose?.();
  }

  #noteInitializeResult(id: RequestId, message: JSONRPCMessage): void {
    if (!this.#initializeIds.delete(id)) return;
    const version = 'result' in message ? (message.result as { protocolVersion?: unknown }).protocolVersion : undefined;
    if (typeof version === 'string') this.#protocolVersion = version;
  }

  #write(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.#output.write(`${messageJson(message)}\n`)) resolve();
      else this.#output.once('drain', resolve);
    });
  }

  #refuse(id: RequestId | null, code: number, message: string): void {
    void this.#write(errorReply(id, code, message));
  }

  readonly #onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let newline = data.indexOf(0x0a); newline >= 0; newline = data.indexOf(0x0a)) {
      this.#append(data.subarray(0, newline));
      const discarded = this.#discarding;
      const line = Buffer.concat(this.#partial, this.#partialBytes);
      this.#partial = [];
      this.#partialBytes = 0;
      this.#discarding = false;
      if (discarded) this.#refuse(null, jsonRpcCodes.invalidRequest, `Invalid Request: a message line is limited to ${maxLineBytes} bytes`);
      else this.#onLine(line.toString('utf8'));
      data = data.subarray(newline + 1);
    }
    this.#append(data);
  };

  #append(bytes: Buffer): void {
    if (this.#discarding || bytes.length === 0) return;
    if (this.#partialBytes + bytes.length > maxLineBytes) {
      this.#partial = [];
      this.#partialBytes = 0;
      this.#discarding = true;
      return;
    }
    this.#partial.push(bytes);
    this.#partialBytes += bytes.length;
  }

  #onLine(line: string): void {
    if (line.trim() === '') return;
    const parsed = parseCallerJson(line, 'the line');
    if (!parsed.ok) {
      return parsed.error === 'too_deep'
        ? this.#refuse(null, jsonRpcCodes.invalidRequest, `Invalid Request: ${parsed.reason}`)
        : this.#refuse(null, jsonRpcCodes.parseError, 'Parse error: the line is not valid JSON');
    }
    const { value } = parsed;
    if (Array.isArray(value)) return this.#onBatch(value);
    const owed = this.#accept(value);
    if (owed) this.#refuse(owed.id, owed.error.code, owed.error.message);
  }

  /**
   * Passes one message on to the server, recording what its answer will settle. Returns the error
   * reply for a message that is not a JSON-RPC message (to be sent alone or inside a batch's answer).
   */
  #accept(value: unknown, batch?: Batch): { id: RequestId | null; error: { code: number; message: string } } | undefined {
    const envelope = classifyMessage(value);
    if (!envelope.ok) return { id: envelope.id, error: { code: jsonRpcCodes.invalidRequest, message: `Invalid Request: ${envelope.reason}` } };
    if (envelope.kind === 'request') {
      this.#unanswered.add(envelope.id);
      if (envelope.method === 'initialize') this.#initializeIds.add(envelope.id);
      if (batch) {
        batch.pending.add(envelope.id);
        this.#batchOf.set(envelope.id, batch);
      }
    } else if (envelope.kind === 'notification' && envelope.method === 'notifications/cancelled') {
      // A cancelled request is never answered: stop waiting for it.
      this.#forget((envelope.message as { params?: { requestId?: RequestId } }).params?.requestId);
    }
    this.onmessage?.(envelope.message);
    return undefined;
  }

  #forget(id: RequestId | undefined): void {
    if (id === undefined) return;
    this.#unanswered.delete(id);
    const batch = this.#batchOf.get(id);
    if (batch) {
      this.#batchOf.delete(id);
      batch.pending.delete(id);
      void this.#flushBatch(batch);
    }
    this.#closeIfDrained();
  }

  #onBatch(values: unknown[]): void {
    if (values.length === 0) return this.#refuse(null, jsonRpcCodes.invalidRequest, 'Invalid Request: an empty batch');
    if (this.#protocolVersion === undefined || !batchesAllowed(this.#protocolVersion)) {
      const negotiated = this.#protocolVersion ? `protocol version ${this.#protocolVersion}` : 'a session that is not initialized';
      return this.#refuse(null, jsonRpcCodes.invalidRequest, `Invalid Request: JSON-RPC batches are not supported in ${negotiated}`);
    }
    const batch: Batch = { pending: new Set(), responses: [] };
    for (const value of values) {
      const owed = this.#accept(value, batch);
      if (owed) batch.responses.push(errorReply(owed.id, owed.error.code, owed.error.message));
    }
    void this.#flushBatch(batch);
  }

  async #flushBatch(batch: Batch): Promise<void> {
    if (batch.pending.size > 0 || batch.responses.length === 0) return;
    const responses = batch.responses;
    batch.responses = [];
    await this.#write(responses);
  }

  readonly #onEnd = (): void => {
    // A last line without its newline is still a message.
    this.#onData('\n');
    this.#inputEnded = true;
    this.#closeIfDrained();
  };

  #closeIfDrained(): void {
    if (this.#inputEnded && this.#unanswered.size === 0) void this.close();
  }

  readonly #onInputError = (error: Error): void => {
    this.onerror?.(error);
  };
}
