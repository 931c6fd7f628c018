import type { DedupLimits, DedupStore, SentEntry } from './types.js';

export interface MemoryDedupOptions {
  /** Sessions remembered at most; past that the least recently active is forgotten. Default 10,000. */
  maxSessions?: number;
  /** Tables remembered per session at most; past that the one sent longest ago is forgotten. Default 256. */
  maxEntriesPerSession?: number;
}

interface SessionEntries {
  activeAt: number;
  /** By table key, in the order sent (oldest first). */
  sent: Map<string, SentEntry>;
}

/**
 * Sent tables in this replica's memory (`sessions.store: memory`, where a session lives on one
 * replica anyway). Bounded in sessions and in tables per session; an idle session (no marks for
 * `session_timeout`) is forgotten when next touched or when it reaches the front of the
 * least-recently-active order.
 */
export class MemoryDedupStore implements DedupStore {
  /** In least-recently-active order: a mark moves its session to the end. */
  readonly #sessions = new Map<string, SessionEntries>();
  readonly #maxSessions: number;
  readonly #maxEntries: number;

  constructor(options: MemoryDedupOptions = {}) {
    this.#maxSessions = options.maxSessions ?? 10_000;
    this.#maxEntries = options.maxEntriesPerSession ?? 256;
  }

  /** Sessions held now (for tests and metrics). */
  get size(): number {
    return this.#sessions.size;
  }

  async mark(sessionId: string, key: string, now: number, limits: DedupLimits): Promise<SentEntry | undefined> {
    const session = this.#activeSession(sessionId, now, limits.sessionTimeoutMs);
    const entry = session.sent.get(key);
    if (entry && now - entry.sentAt < limits.entryTtlMs) return entry;
    this.#record(session, [key], { sentAt: now });
    return undefined;
  }

  async renew(sessionId: string, keys: readonly string[], now: number, limits: DedupLimits): Promise<void> {
    this.#record(this.#activeSession(sessionId, now, limits.sessionTimeoutMs), keys, { sentAt: now });
  }

  /** The session, active at `now` (moved to the end of the order; a new one when it was idle or unknown). */
  #activeSession(sessionId: string, now: number, timeoutMs: number): SessionEntries {
    this.#dropIdle(now, timeoutMs);
    let session = this.#sessions.get(sessionId);
    this.#sessions.delete(sessionId);
    if (!session || now - session.activeAt >= timeoutMs) session = { activeAt: now, sent: new Map() };
    session.activeAt = now;
    this.#sessions.set(sessionId, session);
    if (this.#sessions.size > this.#maxSessions) this.#sessions.delete(this.#sessions.keys().next().value!);
    return session;
  }

  /** Records the keys as sent (each moved to the end of the order), the oldest sent going past the bound. */
  #record(session: SessionEntries, keys: readonly string[], entry: SentEntry): void {
    for (const key of keys) {
      session.sent.delete(key);
      session.sent.set(key, entry);
    }
    while (session.sent.size > this.#maxEntries) session.sent.delete(session.sent.keys().next().value!);
  }

  async forget(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }

  /** Forgets idle sessions from the front of the order (the least recently active first). */
  #dropIdle(now: number, timeoutMs: number): void {
    for (const [id, session] of this.#sessions) {
      if (now - session.activeAt < timeoutMs) return;
      this.#sessions.delete(id);
    }
  }
}
