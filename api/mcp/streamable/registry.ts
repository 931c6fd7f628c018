import type { OutboundStream } from './outbound-stream.js';

/** Resumable streams one session may leave behind; beyond it the oldest disconnected one goes. */
export const maxStreamsPerSession = 100;

/**
 * The resumable streams of this process, by session and stream id: a GET with `Last-Event-ID`
 * finds the stream it resumes here whichever transport object owns it (a stateful session's, or
 * the per-request one of a database session). Streams leave when they finish connected (nothing
 * left to replay), when their owner closes, `ttlMs` after losing their connection, or when their
 * session has left `maxPerSession` of them (so dropping connections on purpose cannot pile up
 * answers in memory).
 */
export class StreamRegistry {
  readonly #sessions = new Map<string, Map<string, OutboundStream>>();

  constructor(
    /** How long a stream that lost its connection stays resumable (`server.streamable.replay_ttl`). */
    readonly ttlMs: number,
    readonly clock: () => number = Date.now,
    readonly maxPerSession = maxStreamsPerSession,
  ) {}

  add(sessionId: string, stream: OutboundStream): void {
    let streams = this.#sessions.get(sessionId);
    if (!streams) this.#sessions.set(sessionId, (streams = new Map()));
    if (streams.size >= this.maxPerSession) {
      // Insertion order: the first disconnected stream found is the oldest.
      const oldest = [...streams.values()].find((s) => s.detachedAt !== undefined);
      if (oldest) {
        oldest.finish();
        streams.delete(oldest.id);
      }
    }
    streams.set(stream.id, stream);
  }

  get(sessionId: string, streamId: string): OutboundStream | undefined {
    return this.#sessions.get(sessionId)?.get(streamId);
  }

  remove(sessionId: string, stream: OutboundStream): void {
    const streams = this.#sessions.get(sessionId);
    if (streams?.get(stream.id) !== stream) return;
    streams.delete(stream.id);
    if (streams.size === 0) this.#sessions.delete(sessionId);
  }

  get size(): number {
    let total = 0;
    for (const streams of this.#sessions.values()) total += streams.size;
    return total;
  }

  /** Drops streams disconnected for longer than the TTL. */
  sweep(): number {
    const now = this.clock();
    let removed = 0;
    for (const [sessionId, streams] of this.#sessions) {
      for (const [id, stream] of streams) {
        const detachedAt = stream.detachedAt;
        if (detachedAt === undefined || now - detachedAt < this.ttlMs) continue;
        stream.finish();
        streams.delete(id);
        removed++;
      }
      if (streams.size === 0) this.#sessions.delete(sessionId);
    }
    return removed;
  }
}
