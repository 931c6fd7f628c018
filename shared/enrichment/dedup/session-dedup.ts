import type { PlatformConfig } from '../../config/index.js';
import type { Db } from '../../db/index.js';
import { DatabaseDedupStore } from './database-store.js';
import { MemoryDedupStore } from './memory-store.js';
import type { DedupLimits, DedupMark, DedupSettings, DedupStore, SentExtent, SentTable } from './types.js';

/** Table names longer than this are never recorded: a caller cannot fill the store with huge names. */
export const maxDedupKeyLength = 512;

/**
 * Distinct tables of one call marked at most: each is a store round trip, run in parallel. A call
 * naming more is sent in full; its first this many are recorded.
 */
export const maxDedupTablesPerCall = 32;

/**
 * How long a call waits for the store's decision (ms). Past it the call is a first: the full block
 * goes out at once (always correct), and the decision, still running, records what it covers.
 */
export const markWaitMs = 250;

/** Where store failures are reported (a pino logger fits). */
export interface DedupLog {
  warn(o: object, msg: string): void;
}

const extents: readonly SentExtent[] = ['brief', 'filtered', 'full'];

/**
 * The store key of a table sent at one extent: the connection is part of it (`sales.orders` on two
 * SQL connections is two tables), and each extent has its own key, so that a join partner's brief
 * entry never counts as its full context.
 */
const storeKey = (t: SentTable, extent: SentExtent = t.extent): string => JSON.stringify([extent, t.connection, t.table]);

/** The keys a block that went out covers: its extent and every lesser one. */
const coveredKeys = (t: SentTable): string[] => extents.slice(0, extents.indexOf(t.extent) + 1).map((e) => storeKey(t, e));

/**
 * Session de-duplication (injection.session_dedup): within one MCP session a table's catalog
 * context goes out once at each extent; until `entry_ttl` has passed, a call whose every table was
 * sent at (at least) the extent it would send gets what `mode` says (applyDedup). With
 * `enabled: false` or mode `none` every call is a first and nothing is stored. A store that fails
 * answers "first" (the full block again) and is logged: de-duplication only ever saves tokens, it
 * never withholds context.
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

  get #limits(): DedupLimits {
    return { entryTtlMs: this.settings.entry_ttl, sessionTimeoutMs: this.settings.session_timeout };
  }

  /**
   * Marks the tables of one block as sent to `sessionId` at `now` (ms since the epoch). Call it
   * when the block is attached (nothing awaited between this and the attach): what is marked is
   * what went out. The call is a repeat only when each table was sent within `entry_ttl` at its
   * `extent` or more — then every mark is a repeat and nothing is recorded. Otherwise every mark is
   * a first, the block goes out in full, and each table counts as sent from `now` at its extent
   * (and the lesser ones). Marks are in the order of `tables`, one per distinct table. A table
   * whose name is empty or longer than `maxDedupKeyLength`, or past the first
   * `maxDedupTablesPerCall`, makes the call a first and is not stored; so does a store that has
   * not decided within `markWaitMs`.
   */
  async markSent(sessionId: string, tables: readonly SentTable[], now: number): Promise<DedupMark[]> {
    const distinct = [...new Map(tables.map((t) => [storeKey(t), t])).values()];
    const firsts = (): DedupMark[] => distinct.map(() => ({ first: true }));
    if (!this.settings.enabled || this.settings.mode === 'none') return firsts();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<DedupMark[]>((resolve) => {
      timer = setTimeout(() => {
        this.log?.warn({ waitMs: markWaitMs }, 'session de-duplication store slow: sending full context');
        resolve(firsts());
      }, markWaitMs);
    });
    try {
      return await Promise.race([this.#decide(sessionId, distinct, now), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The store's decision for the distinct tables of a call (never rejects: a failing store answers "first"). */
  async #decide(sessionId: string, distinct: readonly SentTable[], now: number): Promise<DedupMark[]> {
    const storable = distinct.filter((t) => t.table !== '' && t.table.length <= maxDedupKeyLength).slice(0, maxDedupTablesPerCall);
    try {
      if (storable.length === distinct.length) {
        const sent = await Promise.all(distinct.map((t) => this.store.mark(sessionId, storeKey(t), now, this.#limits)));
        if (sent.every((entry) => entry !== undefined)) {
          return distinct.map((t, i) => ({ first: false, table: t.table, extent: t.extent, firstSeenAt: sent[i]!.sentAt }));
        }
      }
      // A first: the whole block goes out, so all it covers is recorded (a mark records its own key only).
      if (storable.length) await this.store.renew(sessionId, storable.flatMap(coveredKeys), now, this.#limits);
    } catch (err) {
      this.log?.warn({ err }, 'session de-duplication store failed: sending full context');
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
