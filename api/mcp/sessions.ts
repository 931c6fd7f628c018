import type pg from 'pg';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

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
      const closable = transport as Transport & { closeStandaloneSSEStream?: () => void };
      closable.closeStandaloneSSEStream?.();
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.close(id)));
  }
}

type Queryable = Pick<pg.Pool, 'query'>;

export interface StoredSession {
  id: string;
  subject: string;
  protocolVersion: string;
}

/**
 * Sessions in the platform database (`sessions.store: database`): any replica can serve any
 * session. Expiry is checked in SQL against the database clock so replicas agree; the
 * housekeeping job deletes the rows.
 */
export class DatabaseSessions {
  constructor(
    private readonly db: Queryable,
    private readonly limits: SessionLimits,
  ) {}

  async create(session: StoredSession & { clientInfo: unknown; capabilities: unknown }): Promise<void> {
    await this.db.query(
      `INSERT INTO mcp_sessions (id, subject, protocol_version, client_info, client_capabilities)
       VALUES ($1, $2, $3, $4, $5)`,
      [session.id, session.subject, session.protocolVersion, JSON.stringify(session.clientInfo ?? {}), JSON.stringify(session.capabilities ?? {})],
    );
  }

  /** Marks activity and returns the session, or undefined when it is unknown, expired or another caller's. */
  async use(id: string, subject: string): Promise<StoredSession | undefined> {
    const { rows } = await this.db.query<{ id: string; subject: string; protocol_version: string }>(
      `UPDATE mcp_sessions SET last_seen_at = now()
        WHERE id = $1 AND subject = $2
          AND created_at > now() - make_interval(secs => $3::double precision / 1000)
          AND last_seen_at > now() - make_interval(secs => $4::double precision / 1000)
        RETURNING id, subject, protocol_version`,
      [id, subject, this.limits.ttlMs, this.limits.idleMs],
    );
    const row = rows[0];
    return row ? { id: row.id, subject: row.subject, protocolVersion: row.protocol_version } : undefined;
  }

  async delete(id: string, subject: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM mcp_sessions WHERE id = $1 AND subject = $2', [id, subject]);
    return rowCount === 1;
  }
}
