import type { OutboundStream } from './outbound-stream.js';

/**
 * The resumable streams of this process, by session and stream id: a GET with `Last-Event-ID`
 * finds the stream it resumes here whichever transport object owns it (a stateful session's, or
 * the per-request one of a database session). Streams leave when they finish connected (nothing
 * left to replay), when their owner closes, or `ttlMs` after losing their connection.
 */
export class StreamRegistry {
  readonly #streams = new Map<string, OutboundStream>();

  constructor(
    /** How long a stream that lost its connection stays resumable (`server.streamable.replay_ttl`). */
    readonly ttlMs: number,
    readonly clock: () => number = Date.now,
  ) {}

  add(sessionId: string, stream: OutboundStream): void {
    this.#streams.set(key(sessionId, stream.id), stream);
  }

  get(sessionId: string, streamId: string): OutboundStream | undefined {
    return this.#streams.get(key(sessionId, streamId));
  }

  remove(sessionId: string, stream: OutboundStream): void {
    const k = key(sessionId, stream.id);
    if (this.#streams.get(k) === stream) this.#streams.delete(k);
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Drops finished streams nobody is reading and streams disconnected for longer than the TTL. */
  sweep(): number {
    const now = this.clock();
    let removed = 0;
    for (const [k, stream] of this.#streams) {
      const detachedAt = stream.detachedAt;
      if (detachedAt === undefined || now - detachedAt < this.ttlMs) continue;
      stream.finish();
      this.#streams.delete(k);
      removed++;
    }
    return removed;
  }
}

function key(sessionId: string, streamId: string): string {
  return `${sessionId}\n${streamId}`;
}
