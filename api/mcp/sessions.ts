import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { withTransaction, type Db } from '../../shared/db/index.js';

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

  constructor(
    private readonly limits: SessionLimits,
    private readonly clock: Clock = Date.now,
  ) {}

  add(id: string, session: Omit<LiveSession<T>, 'createdAt' | 'lastSeenAt'>): void {
    const now = this.clock();
    this.#sessions.set(id, { ...session, createdAt: now, lastSeenAt: now });
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

  /** When each of the subject's live sessions expires if left idle. */
  liveExpiries(subject: string): number[] {
    const now = this.clock();
    return [...this.#sessions.values()]
      .filter((s) => s.subject === subject && !isExpired(s, this.limits, now))
      .map((s) => expiresAt(s, this.limits));
  }

  forget(id: string): void {
    this.#sessions.delete(id);
  }

  get size(): number {
    return this.#sessions.size;
  }

  async close(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
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
  stores: readonly Pick<LiveSessions, 'liveExpiries'>[],
  clock: Clock = Date.now,
): (subject: string) => Admission {
  return (subject) => admitSession(stores.flatMap((s) => s.liveExpiries(subject)), max, clock());
}

export interface StoredSession {
  id: string;
  subject: string;
  protocolVersion: string;
}

/**
 * How stale a database session's last-seen stamp may grow before a request rewrites it: a
 * twentieth of the idle timeout (at most 30 s), so idle eviction is at most 5% late.
 */
export function touchEveryMs(limits: SessionLimits): number {
  return Math.min(limits.idleMs / 20, 30_000);
}

/** Class key of the per-subject advisory locks that serialise session creation (ASCII "mcps"). */
const sessionCapLockClass = 0x6d637073;

/** SQL: the row is live; `$n` is the lifetime and `$n+1` the idle timeout, in milliseconds. */
function liveSql(n: number): string {
  return `created_at > now() - make_interval(secs => $${n}::double precision / 1000)
          AND last_seen_at > now() - make_interval(secs => $${n + 1}::double precision / 1000)`;
}

/**
 * Sessions in the platform database (`sessions.store: database`): any replica can serve any
 * session. Expiry is checked in SQL against the database clock so replicas agree; the
 * housekeeping job deletes the rows.
 */
export class DatabaseSessions {
  constructor(
    private readonly db: Db,
    private readonly limits: SessionLimits,
    /** `sessions.max_per_subject`. */
    private readonly maxPerSubject: number,
  ) {}

  /**
   * Records a new session unless its subject already holds `maxPerSubject` live ones. Count and
   * insert run in one transaction under an advisory lock on the subject, so two initializes on
   * any replicas cannot both take the last place.
   */
  async create(session: StoredSession & { clientInfo: unknown; capabilities: unknown }): Promise<Admission> {
    return withTransaction(this.db, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [sessionCapLockClass, session.subject]);
      const { rows } = await client.query<{ expires_ms: string; now_ms: string }>(
        `SELECT extract(epoch FROM least(
                  created_at + make_interval(secs => $2::double precision / 1000),
                  last_seen_at + make_interval(secs => $3::double precision / 1000))) * 1000 AS expires_ms,
                extract(epoch FROM now()) * 1000 AS now_ms
           FROM mcp_sessions
          WHERE subject = $1 AND ${liveSql(2)}`,
        [session.subject, this.limits.ttlMs, this.limits.idleMs],
      );
      const admission = admitSession(rows.map((r) => Number(r.expires_ms)), this.maxPerSubject, Number(rows[0]?.now_ms ?? 0));
      if (!admission.ok) return admission;
      await client.query(
        `INSERT INTO mcp_sessions (id, subject, protocol_version, client_info, client_capabilities)
         VALUES ($1, $2, $3, $4, $5)`,
        [session.id, session.subject, session.protocolVersion, JSON.stringify(session.clientInfo ?? {}), JSON.stringify(session.capabilities ?? {})],
      );
      return admission;
    });
  }

  /** Marks activity and returns the session, or undefined when it is unknown, expired or another caller's. */
  async use(id: string, subject: string): Promise<StoredSession | undefined> {
    // A read on most requests: the stamp is rewritten only once it is `touchEveryMs` old, which
    // keeps a row write (and its WAL) off every request at the cost of that much idle-time slack.
    const { rows } = await this.db.query<{ id: string; subject: string; protocol_version: string }>(
      `WITH live AS (
         SELECT id, subject, protocol_version, last_seen_at FROM mcp_sessions
          WHERE id = $1 AND subject = $2 AND ${liveSql(3)}
       ), touched AS (
         UPDATE mcp_sessions s SET last_seen_at = now() FROM live
          WHERE s.id = live.id AND live.last_seen_at < now() - make_interval(secs => $5::double precision / 1000)
       )
       SELECT id, subject, protocol_version FROM live`,
      [id, subject, this.limits.ttlMs, this.limits.idleMs, touchEveryMs(this.limits)],
    );
    const row = rows[0];
    return row ? { id: row.id, subject: row.subject, protocolVersion: row.protocol_version } : undefined;
  }

  /** Which of these sessions are still live (without counting as activity). */
  async liveAmong(ids: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.db.query<{ id: string }>(`SELECT id FROM mcp_sessions WHERE id = ANY($1::text[]) AND ${liveSql(2)}`, [
      ids,
      this.limits.ttlMs,
      this.limits.idleMs,
    ]);
    return new Set(rows.map((r) => r.id));
  }

  async delete(id: string, subject: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM mcp_sessions WHERE id = $1 AND subject = $2', [id, subject]);
    return rowCount === 1;
  }
}
