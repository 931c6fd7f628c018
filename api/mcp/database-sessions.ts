import type { Db } from '../../shared/db/index.js';
import { atMost, BatchQueue } from '../../shared/db/batch-queue.js';
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
 * Whether ending `next` with `batch` keeps the batch's announcement (its ids, comma-separated)
 * within Postgres's NOTIFY payload limit, whichever of them turn out to exist.
 */
export function fitsAnnouncement<T extends { id: string }>(batch: readonly T[], next: T): boolean {
  let bytes = Buffer.byteLength(next.id);
  for (const ended of batch) bytes += 1 + Buffer.byteLength(ended.id);
  return bytes <= maxAnnouncementBytes;
}

/** Sessions opened or read together in one statement (a replica's batch under load). */
const maxBatch = 100;

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

/** SQL: the row (of `table`, when named) is live; `$n` is the lifetime and `$n+1` the idle timeout, in milliseconds. */
function liveSql(n: number, table?: string): string {
  const column = table ? `${table}.` : '';
  return `${column}created_at > now() - make_interval(secs => $${n}::double precision / 1000)
          AND ${column}last_seen_at > now() - make_interval(secs => $${n + 1}::double precision / 1000)`;
}

type NewSession = StoredSession & { clientInfo: unknown; capabilities: unknown };
type SessionKey = { id: string; subject: string };
interface SessionRow {
  id: string;
  subject: string;
  protocol_version: string;
  expires_in_ms: number;
}

/**
 * Sessions in the platform database (`sessions.store: database`): any replica can serve any
 * session. Expiry is checked in SQL against the database clock so replicas agree; the
 * housekeeping job deletes the rows. Opens, reads and ends each go to the database in batches
 * (BatchQueue): one statement of each kind in flight per replica, the requests that arrive
 * meanwhile together in the next — under session churn most of a session's round trips are shared.
 */
export class DatabaseSessions {
  readonly #recent: RecentSessions;
  readonly #opens: BatchQueue<NewSession, number[] | null>;
  readonly #reads: BatchQueue<SessionKey, SessionRow | undefined>;
  readonly #ends: BatchQueue<SessionKey, boolean>;

  constructor(
    private readonly db: Db,
    private readonly limits: SessionLimits,
    /** `sessions.max_per_subject`. */
    private readonly maxPerSubject: number,
    clock: Clock = Date.now,
  ) {
    this.#recent = new RecentSessions(clock);
    this.#opens = new BatchQueue((sessions) => this.#open(sessions), atMost(maxBatch));
    this.#reads = new BatchQueue((keys) => this.#read(keys), atMost(maxBatch));
    this.#ends = new BatchQueue((keys) => this.#end(keys), fitsAnnouncement);
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
   * Records a new session unless its subject already holds `maxPerSubject` live ones (migration
   * 0033's `mcp_sessions_open`): counts and inserts run under advisory locks on the subjects, so
   * two initializes on any replicas cannot both take the last place. The new session is
   * remembered, so its first requests need no read.
   */
  async create(session: NewSession): Promise<Admission> {
    const refused = await this.#opens.submit(session);
    if (refused) return admitSession(refused, this.maxPerSubject, 0);
    this.#recent.remember({ id: session.id, subject: session.subject, protocolVersion: session.protocolVersion }, Math.min(this.limits.ttlMs, this.limits.idleMs));
    return { ok: true };
  }

  async #open(sessions: NewSession[]): Promise<Array<number[] | null>> {
    const { rows } = await this.db.query<{ session_id: string; refused: number[] | null }>(
      `SELECT ${unsyncedCommit}, session_id, refused FROM mcp_sessions_open($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $6, $7, $8)`,
      [
        sessions.map((s) => s.id),
        sessions.map((s) => s.subject),
        sessions.map((s) => s.protocolVersion),
        sessions.map((s) => JSON.stringify(s.clientInfo ?? {})),
        sessions.map((s) => JSON.stringify(s.capabilities ?? {})),
        this.limits.ttlMs,
        this.limits.idleMs,
        this.maxPerSubject,
      ],
    );
    const refusals = new Map(rows.map((row) => [row.session_id, row.refused]));
    return sessions.map((s) => {
      const refused = refusals.get(s.id);
      if (refused === undefined) throw new Error(`session ${s.id} was not opened`);
      return refused;
    });
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
    const row = await this.#reads.submit({ id, subject });
    if (!row) return undefined;
    const session = { id: row.id, subject: row.subject, protocolVersion: row.protocol_version };
    this.#recent.remember(session, row.expires_in_ms);
    return session;
  }

  async #read(keys: SessionKey[]): Promise<Array<SessionRow | undefined>> {
    const { rows } = await this.db.query<SessionRow>(
      `WITH live AS (
         SELECT s.id, s.subject, s.protocol_version, s.created_at, s.last_seen_at
           FROM mcp_sessions s JOIN unnest($1::text[], $2::text[]) AS asked (id, subject) ON s.id = asked.id AND s.subject = asked.subject
          WHERE ${liveSql(3, 's')}
       ), touched AS (
         UPDATE mcp_sessions s SET last_seen_at = now() FROM live
          WHERE s.id = live.id AND live.last_seen_at < now() - make_interval(secs => $5::double precision / 1000)
       )
       SELECT DISTINCT id, subject, protocol_version,
              extract(epoch FROM least(created_at + make_interval(secs => $3::double precision / 1000),
                                       last_seen_at + make_interval(secs => $4::double precision / 1000)) - now())::float8 * 1000 AS expires_in_ms
         FROM live`,
      [keys.map((k) => k.id), keys.map((k) => k.subject), this.limits.ttlMs, this.limits.idleMs, touchEveryMs(this.limits)],
    );
    return keys.map((k) => rows.find((row) => row.id === k.id && row.subject === k.subject));
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

  /** Ends the session everywhere: the other replicas hear of it on `sessionEndedChannel`. */
  async delete(id: string, subject: string): Promise<boolean> {
    this.#recent.forget(id);
    return this.#ends.submit({ id, subject });
  }

  /**
   * Ends a batch of sessions and announces those that existed in the same statement. A NOTIFY
   * serialises its transaction's commit with every other notifying commit of the cluster
   * (Postgres's notification queue lock); with one batch in flight per replica, a replica's ends
   * queue behind one announcement of its own at most, not one each. A replica that misses an
   * announcement (its listener was reconnecting) forgets every session it remembers.
   */
  async #end(keys: SessionKey[]): Promise<boolean[]> {
    const { rows } = await this.db.query<{ ids: string[]; subjects: string[] }>(
      `WITH ended AS (
         DELETE FROM mcp_sessions s USING unnest($1::text[], $2::text[]) AS asked (id, subject)
          WHERE s.id = asked.id AND s.subject = asked.subject RETURNING s.id, s.subject
       )
       SELECT ${unsyncedCommit}, array_agg(id) AS ids, array_agg(subject) AS subjects, pg_notify($3, string_agg(id, ',')) IS NULL
         FROM ended HAVING count(*) > 0`,
      [keys.map((k) => k.id), keys.map((k) => k.subject), sessionEndedChannel],
    );
    const { ids = [], subjects = [] } = rows[0] ?? {};
    const ended = new Map(ids.map((id, i) => [id, subjects[i]]));
    // An id asked twice in one batch ends once: its first asker with the right subject is its ender.
    return keys.map((k) => ended.get(k.id) === k.subject && ended.delete(k.id));
  }
}
