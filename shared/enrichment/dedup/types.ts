import type { PlatformConfig } from '../../config/index.js';

/** `injection.session_dedup.*` as resolved (durations in milliseconds, defaults filled). */
export type DedupSettings = PlatformConfig['injection']['session_dedup'];

/** What a repeat receives: a pointer, a short summary, or (`none`) the full block again. */
export type DedupMode = DedupSettings['mode'];

/**
 * How much of a table's catalog context a block carries, least to most (toolkits.md 5.2): `brief`
 * its `additional_tables` entry (a join partner of the primary table), `filtered` the primary
 * table's `semantic_context` with `column_context` cut to the statement's columns (5.3), `full` the
 * `semantic_context` with every column. Sending one extent sends every lesser one too.
 */
export type SentExtent = 'brief' | 'filtered' | 'full';

/** One table of a block that goes out: the SQL connection it lives on, its name as the call wrote it, how much of it. */
export interface SentTable {
  /** The SQL instance (connection) name: the same table name on two connections is two tables. */
  connection: string;
  /** As the statement or arguments wrote it (toolkits.md 5.4): what the agent is shown back. */
  table: string;
  extent: SentExtent;
}

/**
 * The outcome of marking a table's context as sent in a session. `first`: send the full block
 * (and it now counts as sent). Otherwise `table` (as the call wrote it) was sent at `extent` or more
 * at `firstSeenAt` (ms since the epoch).
 */
export type DedupMark = { first: true } | { first: false; table: string; extent: SentExtent; firstSeenAt: number };

/** The live entry found for a key: when it was sent. */
export interface SentEntry {
  sentAt: number;
}

export interface DedupLimits {
  /** `entry_ttl`: an entry sent this long ago no longer counts. */
  entryTtlMs: number;
  /** `session_timeout`: a session with no marks for this long is forgotten. */
  sessionTimeoutMs: number;
}

/**
 * Where a session's sent tables live: in this replica's memory (`sessions.store: memory`) or in
 * the platform database beside the session row (`sessions.store: database`), so every replica
 * serving the session sees the same entries.
 */
export interface DedupStore {
  /**
   * Atomically: the live entry for the key (counting as activity of the session), or, when there
   * is none, records one sent at `now` and returns undefined. Of concurrent marks of one key
   * exactly one records.
   */
  mark(sessionId: string, key: string, now: number, limits: DedupLimits): Promise<SentEntry | undefined>;
  /**
   * Records these keys as sent at `now`, whether or not they were (the block went out): new keys
   * are added, known ones renewed, within the same bounds as `mark`.
   */
  renew(sessionId: string, keys: readonly string[], now: number, limits: DedupLimits): Promise<void>;
  /** Forgets a session (it ended). */
  forget(sessionId: string): Promise<void>;
}
