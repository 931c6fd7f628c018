import type { Db } from '../../shared/db/index.js';
import type { Logger } from '../../shared/logging/index.js';
import { admitSession, type Admission, type Clock, type SessionLimits } from './sessions.js';

export interface StoredSession {
  id: string;
  subject: string;
  protocolVersion: string;
}

/** Where a replica announces the sessions it ended (payload: their ids, comma-separated). */
export const sessionEndedChannel = 'platform_mcp_session_ended';

/** The session ids of a notification on `sessionEndedChannel`. */
export function endedSessionIds(payload: string): string[] {
  return payload.split(',').filter(Boolean);
}

/** Postgres refuses a NOTIFY payload of 8000 bytes or more. */
const maxAnnouncementBytes = 7999;

/**
 * Announces ended sessions to the other replicas, a group at a time: one NOTIFY is in flight per
 * replica, and the sessions ended meanwhile go out together in the next. A NOTIFY serialises its
 * transaction's commit with every other notifying commit of the cluster (Postgres's notification
 * queue lock, held through the WAL flush), so a NOTIFY in each DELETE's own commit made every
 * session end on every replica queue behind the others' (sampled under session churn on two
 * workers: the commonest wait after the per-subject open lock). The replicas hear of an end a
 * round trip later than at its commit; one whose announcement is lost (the process died, the
 * database was away) forgets the session within `recentSessionMs` anyway.
 */
export class EndedSessionAnnouncer {
  #waiting: string[] = [];
  #sending = false;

  constructor(
    private readonly db: Pick<Db, 'query'>,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  announce(id: string): void {
    this.#waiting.push(id);
    if (!this.#sending) void this.#send();
  }

  async #send(): Promise<void> {
    this.#sending = true;
    try {
      while (this.#waiting.length > 0) {
        const { payload, rest } = announcementOf(this.#waiting);
        this.#waiting = rest;
        try {
          await this.db.query('SELECT pg_notify($1, $2)', [sessionEndedChannel, payload]);
        } catch (error) {
          this.log.warn({ err: { message: (error as Error).message } }, 'ended MCP sessions not announced; other replicas forget them within a second');
        }
      }
    } finally {
      this.#sending = false;
    }
  }
}

/** As many of `ids` as fit one notification (at least one), and the rest. */
export function announcementOf(ids: readonly string[]): { payload: string; rest: string[] } {
  let bytes = Buffer.byteLength(ids[0]!);
  let n = 1;
  while (n < ids.length && bytes + 1 + Buffer.byteLength(ids[n]!) <= maxAnnouncementBytes) bytes += 1 + Buffer.byteLength(ids[n++]!);
  return { payload: ids.slice(0, n).join(','), rest: ids.slice(n) };
}

/**
 * A select-list item that lets the statement's transaction commit without waiting for its WAL to
 * reach the disk (`synchronous_commit = off`, this transaction only). For session rows only: their
 * opens hold the subject's lock until commit, so a WAL flush in each serialised every open of a
 * subject behind the disk. A database crash may lose the last ~200 ms (wal_writer_delay) of
 * session opens and ends: a lost open costs its client a 404 and a new initialize, as any lost
 * session does; a lost end leaves a row that expires idle. Rows are visible to every replica at
 * commit either way.
 */
const unsyncedCommit = `set_config('synchronous_commit', 'off', true) IS NULL`;

/**
 * How long a replica answers a session it has just read from memory. A session ended on another
 * replica is forgotten as soon as that replica's notification arrives (milliseconds), and at the
 * latest after this; sessions are not authentication (every request carries its credential).
 */
export const recentSessionMs = 1000;

/** The sessions this replica read lately, so a busy session does not cost a query per request. */
export class RecentSessions {
  readonly #entries = new Map<string, { session: StoredSession; until: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly max = 10_000,
  ) {}

  get(id: string, subject: string): StoredSession | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (entry.until <= this.clock()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry.session.subject === subject ? entry.session : undefined;
  }

  /** Remembers a session just read, never past its own expiry (`expiresInMs`, by the database clock). */
  remember(session: StoredSession, expiresInMs: number): void {
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(session.id, { session, until: this.clock() + Math.min(recentSessionMs, expiresInMs) });
  }

  forget(id: string): void {
    this.#entries.delete(id);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * How stale a database session's last-seen stamp may grow before a request rewrites it: a
 * twentieth of the idle timeout (at most 30 s), so idle eviction is at most 5% late.
 */
export function touchEveryMs(limits: SessionLimits): number {
  return Math.min(limits.idleMs / 20, 30_000);
}

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
  readonly #recent: RecentSessions;
  readonly #ended: EndedSessionAnnouncer;

  constructor(
    private readonly db: Db,
    private readonly limits: SessionLimits,
    /** `sessions.max_per_subject`. */
    private readonly maxPerSubject: number,
    log: Pick<Logger, 'warn'>,
    clock: Clock = Date.now,
  ) {
    this.#recent = new RecentSessions(clock);
    this.#ended = new EndedSessionAnnouncer(db, log);
  }

  /**
   * A session ended on another replica (its notification on `sessionEndedChannel`), or every
   * session when notifications may have been missed: the next request reads the row again.
   */
  forget(id?: string): void {
    if (id === undefined) this.#recent.clear();
    else this.#recent.forget(id);
  }

  /**
   * Records a new session unless its subject already holds `maxPerSubject` live ones, in one
   * round trip (migration 0007's `mcp_session_open`): count and insert run under an advisory lock
   * on the subject, so two initializes on any replicas cannot both take the last place. The new
   * session is remembered, so its first requests need no read.
   */
  async create(session: StoredSession & { clientInfo: unknown; capabilities: unknown }): Promise<Admission> {
    const { rows } = await this.db.query<{ refused: number[] | null }>(`SELECT ${unsyncedCommit}, mcp_session_open($1, $2, $3, $4, $5, $6, $7, $8) AS refused`, [
      session.id,
      session.subject,
      session.protocolVersion,
      JSON.stringify(session.clientInfo ?? {}),
      JSON.stringify(session.capabilities ?? {}),
      this.limits.ttlMs,
      this.limits.idleMs,
      this.maxPerSubject,
    ]);
    const refused = rows[0]?.refused;
    if (refused) return admitSession(refused, this.maxPerSubject, 0);
    this.#recent.remember({ id: session.id, subject: session.subject, protocolVersion: session.protocolVersion }, Math.min(this.limits.ttlMs, this.limits.idleMs));
    return { ok: true };
  }

  /**
   * Marks activity and returns the session, or undefined when it is unknown, expired or another
   * caller's. A session this replica read within the last `recentSessionMs` is answered from
   * memory (never past its expiry); otherwise the row is read, and its last-seen stamp rewritten
   * only once it is `touchEveryMs` old — keeping a row write (and its WAL) off every request.
   */
  async use(id: string, subject: string): Promise<StoredSession | undefined> {
    const recent = this.#recent.get(id, subject);
    if (recent) return recent;
    const { rows } = await this.db.query<{ id: string; subject: string; protocol_version: string; expires_in_ms: number }>(
      `WITH live AS (
         SELECT id, subject, protocol_version, created_at, last_seen_at FROM mcp_sessions
          WHERE id = $1 AND subject = $2 AND ${liveSql(3)}
       ), touched AS (
         UPDATE mcp_sessions s SET last_seen_at = now() FROM live
          WHERE s.id = live.id AND live.last_seen_at < now() - make_interval(secs => $5::double precision / 1000)
       )
       SELECT id, subject, protocol_version,
              extract(epoch FROM least(created_at + make_interval(secs => $3::double precision / 1000),
                                       last_seen_at + make_interval(secs => $4::double precision / 1000)) - now())::float8 * 1000 AS expires_in_ms
         FROM live`,
      [id, subject, this.limits.ttlMs, this.limits.idleMs, touchEveryMs(this.limits)],
    );
    const row = rows[0];
    if (!row) return undefined;
    const session = { id: row.id, subject: row.subject, protocolVersion: row.protocol_version };
    this.#recent.remember(session, row.expires_in_ms);
    return session;
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

  /** Ends the session everywhere: the other replicas hear of it on `sessionEndedChannel` (EndedSessionAnnouncer). */
  async delete(id: string, subject: string): Promise<boolean> {
    this.#recent.forget(id);
    const { rowCount } = await this.db.query(`WITH ended AS (DELETE FROM mcp_sessions WHERE id = $1 AND subject = $2 RETURNING id) SELECT ${unsyncedCommit} FROM ended`, [
      id,
      subject,
    ]);
    if (rowCount !== 1) return false;
    this.#ended.announce(id);
    return true;
  }
}
