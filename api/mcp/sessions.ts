import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { closeWithoutStackTraces } from './sdk-dispatch.js';

export interface SessionLimits {
  /** Lifetime from creation (`sessions.ttl`). */
  ttlMs: number;
  /** Eviction after this long without a request (`sessions.idle_timeout`). */
  idleMs: number;
}

export type Clock = () => number;

export interface LiveSession<T extends Transport = Transport> {
  transport: T;
  server: Server;
  subject: string;
  createdAt: number;
  lastSeenAt: number;
}

export function isExpired(session: { createdAt: number; lastSeenAt: number }, limits: SessionLimits, now: number): boolean {
  return now - session.createdAt >= limits.ttlMs || now - session.lastSeenAt >= limits.idleMs;
}

/** When a session stops being live unless used again: the earlier of its lifetime's and its idle time's end. */
export function expiresAt(session: { createdAt: number; lastSeenAt: number }, limits: SessionLimits): number {
  return Math.min(session.createdAt + limits.ttlMs, session.lastSeenAt + limits.idleMs);
}

/** The answer to an initialize under `sessions.max_per_subject`. */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * One more session is admitted while the subject holds fewer than `max` live ones (expired ones
 * never count). Refused: Retry-After is the wait until the first of them expires if left idle,
 * whole seconds, at least 1. Refusing rather than evicting keeps one client from silently ending
 * another's session of the same identity.
 */
export function admitSession(liveExpiries: readonly number[], max: number, now: number): Admission {
  if (liveExpiries.length < max) return { ok: true };
  const soonest = Math.min(...liveExpiries);
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((soonest - now) / 1000)) };
}

/**
 * Sessions held in this process (`sessions.store: memory`): each owns its SDK server and
 * transport. Expired ones are closed by `sweep`, which the owner runs every cleanup interval.
 */
export class LiveSessions<T extends Transport = Transport> {
  readonly #sessions = new Map<string, LiveSession<T>>();
  /** Sessions per subject, expired ones not yet closed included. */
  readonly #held = new Map<string, number>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly clock: Clock = Date.now,
  ) {}

  add(id: string, session: Omit<LiveSession<T>, 'createdAt' | 'lastSeenAt'>): void {
    const now = this.clock();
    this.#drop(id);
    this.#sessions.set(id, { ...session, createdAt: now, lastSeenAt: now });
    this.#held.set(session.subject, (this.#held.get(session.subject) ?? 0) + 1);
  }

  /** Takes the session out of the map and its subject's count; the session, if there was one. */
  #drop(id: string): LiveSession<T> | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    this.#sessions.delete(id);
    const held = (this.#held.get(session.subject) ?? 1) - 1;
    if (held > 0) this.#held.set(session.subject, held);
    else this.#held.delete(session.subject);
    return session;
  }

  /** The session if it exists, is unexpired and belongs to `subject`; touching it counts as activity. */
  use(id: string, subject: string): LiveSession<T> | undefined {
    const session = this.#sessions.get(id);
    if (!session || session.subject !== subject) return undefined;
    const now = this.clock();
    if (isExpired(session, this.limits, now)) {
      void this.close(id);
      return undefined;
    }
    session.lastSeenAt = now;
    return session;
  }

  /** How many sessions the subject holds, expired ones not yet closed included: never fewer than its live ones. */
  heldBy(subject: string): number {
    return this.#held.get(subject) ?? 0;
  }

  /** When each of the subject's live sessions expires if left idle. */
  liveExpiries(subject: string): number[] {
    const now = this.clock();
    return [...this.#sessions.values()]
      .filter((s) => s.subject === subject && !isExpired(s, this.limits, now))
      .map((s) => expiresAt(s, this.limits));
  }

  forget(id: string): void {
    this.#drop(id);
  }

  get size(): number {
    return this.#sessions.size;
  }

  async close(id: string): Promise<void> {
    const session = this.#drop(id);
    if (!session) return;
    await closeWithoutStackTraces(session.transport);
    await closeWithoutStackTraces(session.server);
  }

  async sweep(): Promise<number> {
    const now = this.clock();
    const expired = [...this.#sessions].filter(([, s]) => isExpired(s, this.limits, now)).map(([id]) => id);
    await Promise.all(expired.map((id) => this.close(id)));
    return expired.length;
  }

  /** Ends each session's standalone GET stream (clients reopen it); the sessions stay. */
  endStandaloneStreams(): void {
    for (const { transport } of this.#sessions.values()) {
      const closable = transport as Transport & { closeStandaloneStream?: () => void };
      closable.closeStandaloneStream?.();
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.close(id)));
  }
}

/**
 * The cap over the in-process stores (Streamable HTTP and legacy SSE): one identity's sessions
 * count together whichever transport opened them. The caller must add the admitted session before
 * its next await, so that concurrent initializes see it (the event loop makes check-and-add atomic).
 */
export function memorySessionCap(
  max: number,
  stores: readonly Pick<LiveSessions, 'liveExpiries' | 'heldBy'>[],
  clock: Clock = Date.now,
): (subject: string) => Admission {
  return (subject) => {
    // Fewer held than the cap means fewer live: admitted without looking at each (most initializes).
    let held = 0;
    for (const store of stores) held += store.heldBy(subject);
    if (held < max) return { ok: true };
    return admitSession(stores.flatMap((s) => s.liveExpiries(subject)), max, clock());
  };
}
