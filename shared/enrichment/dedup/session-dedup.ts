import type { PlatformConfig } from '../../config/index.js';
import type { Db } from '../../db/index.js';
import { DatabaseDedupStore } from './database-store.js';
import { MemoryDedupStore } from './memory-store.js';
import type { DedupMark, DedupSettings, DedupStore } from './types.js';

/** Keys longer than this are never recorded: a caller cannot fill the store with huge names. */
export const maxDedupKeyLength = 512;

/** Where store failures are reported (a pino logger fits). */
export interface DedupLog {
  warn(o: object, msg: string): void;
}

/**
 * Session de-duplication (injection.session_dedup): within one MCP session a table's catalog
 * context goes out in full once; until `entry_ttl` has passed, repeats get what `mode` says
 * (applyDedup). With `enabled: false` or mode `none` every call is a first and nothing is stored.
 * A store that fails answers "first" (the full block again) and is logged: de-duplication only
 * ever saves tokens, it never withholds context.
 */
export class SessionDedup {
  constructor(
    private readonly settings: DedupSettings,
    private readonly store: DedupStore,
    private readonly log?: DedupLog,
  ) {}

  get mode(): DedupSettings['mode'] {
    return this.settings.mode;
  }

  /**
   * Marks the table `key` (the table as the call named it) as sent to `sessionId` at `now` (ms
   * since the epoch). `reference` (e.g. `mcp:call:<id>`) is kept with a first mark and handed
   * back to repeats, so their block can point at the call that carried the full context.
   */
  async markTable(sessionId: string, key: string, now: number, reference?: string): Promise<DedupMark> {
    if (!this.settings.enabled || this.settings.mode === 'none' || key === '' || key.length > maxDedupKeyLength) return { first: true };
    try {
      const sent = await this.store.mark(sessionId, key, now, reference ?? null, {
        entryTtlMs: this.settings.entry_ttl,
        sessionTimeoutMs: this.settings.session_timeout,
      });
      return sent ? { first: false, key, firstSeenAt: sent.sentAt, reference: sent.reference } : { first: true };
    } catch (err) {
      this.log?.warn({ err }, 'session de-duplication store failed: sending full context');
      return { first: true };
    }
  }

  /**
   * Marks every table a call names (toolkits.md 5.4): the call is a repeat only when each of them
   * was sent within `entry_ttl` — then each mark is a repeat. Otherwise every mark is a first, the
   * full context goes out, and the tables already sent count as sent again from `now`. Marks are in
   * the order of `keys`, duplicates removed; no keys, no marks.
   */
  async markTables(sessionId: string, keys: readonly string[], now: number, reference?: string): Promise<DedupMark[]> {
    const distinct = [...new Set(keys)];
    const marks = await Promise.all(distinct.map((key) => this.markTable(sessionId, key, now, reference)));
    const repeated = marks.flatMap((m) => (m.first ? [] : [m.key]));
    if (repeated.length === marks.length) return marks;
    if (repeated.length) {
      try {
        await this.store.renew(sessionId, repeated, now, reference ?? null);
      } catch (err) {
        this.log?.warn({ err }, 'session de-duplication store failed: sending full context');
      }
    }
    return distinct.map(() => ({ first: true }));
  }

  /** Forgets what a session was sent (call when the session ends). */
  async forgetSession(sessionId: string): Promise<void> {
    await this.store.forget(sessionId);
  }
}

/**
 * The de-duplication the config asks for: state beside the session row when sessions live in the
 * database (`sessions.store: database`, so replicas agree), else in this replica's memory.
 */
export function createSessionDedup(config: Pick<PlatformConfig, 'injection' | 'sessions'>, db: Db | undefined, log?: DedupLog): SessionDedup {
  if (config.sessions.store === 'database' && !db) throw new Error('sessions.store: database needs the platform database for session de-duplication');
  const store = config.sessions.store === 'database' ? new DatabaseDedupStore(db!) : new MemoryDedupStore();
  return new SessionDedup(config.injection.session_dedup, store, log);
}
