import type { Db } from '../../shared/db/index.js';
import { BatchQueue } from '../../shared/db/batch-queue.js';
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

/** Sessions opened, or read, together in one step at most (a replica's batch under load). */
const maxPerStep = 100;

type NewSession = StoredSession & { clientInfo: unknown; capabilities: unknown };
type SessionKey = { id: string; subject: string };

/** One caller's part of a step: a session to open, to read, or to end. */
export type SessionWork = { open: NewSession } | { read: SessionKey } | { end: SessionKey };

interface ReadSession extends StoredSession {
  /** Until the session expires unless used again, by the database clock. */
  expiresInMs: number;
}

/** An open's refusal (the subject's live sessions' expiries) or null; a read's session; whether an end ended one. */
type WorkOutcome = number[] | null | ReadSession | undefined | boolean;

/**
 * Whether `next` may join `step`: at most `maxPerStep` opens and as many reads, and the ids it ends
 * within Postgres's NOTIFY payload limit when announced together (comma-separated), whichever of
 * them turn out to exist.
 */
export function fitsStep(step: readonly SessionWork[], next: SessionWork): boolean {
  if ('end' in next) {
    let bytes = Buffer.byteLength(next.end.id);
    for (const work of step) if ('end' in work) bytes += 1 + Buffer.byteLength(work.end.id);
    return bytes <= maxAnnouncementBytes;
  }
  const kind = 'open' in next ? 'open' : 'read';
  return step.filter((work) => kind in work).length < maxPerStep;
}

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
 * housekeeping job deletes the rows. Opens, reads and ends go to the database in steps
 * (BatchQueue): one step in flight per replica, the work that arrives meanwhile together in the
 * next, in one round trip — under session churn most of a session's round trips are shared.
 */
export class DatabaseSessions {
  readonly #recent: RecentSessions;
  readonly #steps: BatchQueue<SessionWork, WorkOutcome>;

  constructor(
    private readonly db: Db,
    private readonly limits: SessionLimits,
    /** `sessions.max_per_subject`. */
    private readonly maxPerSubject: number,
    clock: Clock = Date.now,
  ) {
    this.#recent = new RecentSessions(clock);
    this.#steps = new BatchQueue((work) => this.#step(work), fitsStep);
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
   * Records a new session unless its subject already holds `maxPerSubject` live ones: the count
   * and insert run under an advisory lock on the subject, so two initializes on any replicas cannot
   * both take the last place. The new session is remembered, so its first requests need no read.
   */
  async create(session: NewSession): Promise<Admission> {
    const refused = (await this.#steps.submit({ open: session })) as number[] | null;
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
    const read = (await this.#steps.submit({ read: { id, subject } })) as ReadSession | undefined;
    if (!read) return undefined;
    const session = { id: read.id, subject: read.subject, protocolVersion: read.protocolVersion };
    this.#recent.remember(session, read.expiresInMs);
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

  /**
   * Ends the session everywhere: the other replicas hear of it on `sessionEndedChannel`, in one
   * NOTIFY for every session the step ends. A NOTIFY serialises its transaction's commit with every
   * other notifying commit of the cluster (Postgres's notification queue lock); with one step in
   * flight per replica, a replica's ends queue behind one announcement of its own at most. A
   * replica that misses an announcement (its listener was reconnecting) forgets every session.
   */
  async delete(id: string, subject: string): Promise<boolean> {
    this.#recent.forget(id);
    return (await this.#steps.submit({ end: { id, subject } })) as boolean;
  }

  /** One round trip for a step's work (migration 0033's `mcp_sessions_step`); outcomes in the work's order. */
  async #step(work: SessionWork[]): Promise<WorkOutcome[]> {
    const opens = work.flatMap((w) => ('open' in w ? [w.open] : []));
    const reads = work.flatMap((w) => ('read' in w ? [w.read] : []));
    const ends = work.flatMap((w) => ('end' in w ? [w.end] : []));
    const { rows } = await this.db.query<{
      kind: 'open' | 'read' | 'end';
      session_id: string;
      session_subject: string;
      session_version: string | null;
      expires_in_ms: number | null;
      refused: number[] | null;
    }>('SELECT kind, session_id, session_subject, session_version, expires_in_ms, refused FROM mcp_sessions_step($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)', [
      opens.map((s) => s.id),
      opens.map((s) => s.subject),
      opens.map((s) => s.protocolVersion),
      opens.map((s) => JSON.stringify(s.clientInfo ?? {})),
      opens.map((s) => JSON.stringify(s.capabilities ?? {})),
      reads.map((k) => k.id),
      reads.map((k) => k.subject),
      ends.map((k) => k.id),
      ends.map((k) => k.subject),
      this.limits.ttlMs,
      this.limits.idleMs,
      touchEveryMs(this.limits),
      this.maxPerSubject,
      sessionEndedChannel,
    ]);
    const refusals = new Map<string, number[] | null>();
    const found = new Map<string, ReadSession>();
    const ended = new Map<string, string>();
    for (const row of rows) {
      if (row.kind === 'open') refusals.set(row.session_id, row.refused);
      else if (row.kind === 'read') found.set(row.session_id, { id: row.session_id, subject: row.session_subject, protocolVersion: row.session_version!, expiresInMs: row.expires_in_ms! });
      else ended.set(row.session_id, row.session_subject);
    }
    return work.map((w) => {
      if ('open' in w) {
        const refused = refusals.get(w.open.id);
        if (refused === undefined) throw new Error(`session ${w.open.id} was not opened`);
        return refused;
      }
      if ('read' in w) {
        const session = found.get(w.read.id);
        return session?.subject === w.read.subject ? session : undefined;
      }
      // An id asked to end twice in one step ends once: its first asker with the right subject is its ender.
      return ended.get(w.end.id) === w.end.subject && ended.delete(w.end.id);
    });
  }
}
