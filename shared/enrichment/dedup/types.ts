import type { PlatformConfig } from '../../config/index.js';

/** `injection.session_dedup.*` as resolved (durations in milliseconds, defaults filled). */
export type DedupSettings = PlatformConfig['injection']['session_dedup'];

/** What a repeat receives: a pointer, a short summary, or (`none`) the full block again. */
export type DedupMode = DedupSettings['mode'];

/**
 * The outcome of marking a table's context as sent in a session. `first`: send the full block
 * (and it now counts as sent). Otherwise it was sent at `firstSeenAt` (ms since the epoch) in the
 * call `reference` names when the caller gave one (e.g. `mcp:call:<id>`).
 */
export type DedupMark = { first: true } | { first: false; key: string; firstSeenAt: number; reference: string | null };

/** The live entry found for a key: when it was sent and with which reference. */
export interface SentEntry {
  sentAt: number;
  reference: string | null;
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
   * is none, records one sent at `now` with `reference` and returns undefined. Of concurrent
   * marks of one key exactly one records.
   */
  mark(sessionId: string, key: string, now: number, reference: string | null, limits: DedupLimits): Promise<SentEntry | undefined>;
  /** Records these keys as sent at `now` with `reference`, whether or not they were (the full block went out again). */
  renew(sessionId: string, keys: readonly string[], now: number, reference: string | null): Promise<void>;
  /** Forgets a session (it ended). */
  forget(sessionId: string): Promise<void>;
}
