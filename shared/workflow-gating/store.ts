import type pg from 'pg';
import type { GatingState } from './rules.js';

/** Where each session's gating state lives; both operations are atomic per key. */
export interface GatingStore {
  markDiscovery(key: string): Promise<void>;
  /** Counts one query call (unless discovery already happened) and returns the new state. */
  countQuery(key: string): Promise<GatingState>;
}

/**
 * In-process state for memory sessions, stdio and session-less callers. Entries idle longer
 * than `idleMs` are dropped on the next write, so the map stays bounded by active sessions.
 */
export function memoryGatingStore(idleMs: number, clock: () => number = Date.now): GatingStore {
  const states = new Map<string, GatingState & { touched: number }>();
  const touch = (key: string) => {
    const now = clock();
    for (const [k, s] of states) if (now - s.touched > idleMs) states.delete(k);
    const state = states.get(key) ?? { discovered: false, undiscoveredQueries: 0, touched: now };
    state.touched = now;
    states.set(key, state);
    return state;
  };
  return {
    async markDiscovery(key) {
      touch(key).discovered = true;
    },
    async countQuery(key) {
      const state = touch(key);
      if (!state.discovered) state.undiscoveredQueries += 1;
      return { discovered: state.discovered, undiscoveredQueries: state.undiscoveredQueries };
    },
  };
}

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * State in `mcp_sessions.state` for `sessions.store: database`, so every replica sees the same
 * count. Keys that are not database sessions fall back to `fallback`.
 */
export function databaseGatingStore(db: Queryable, fallback: GatingStore): GatingStore {
  return {
    async markDiscovery(key) {
      const { rowCount } = await db.query(
        `UPDATE mcp_sessions SET state = jsonb_set(state, '{gating}', '{"discovered": true, "undiscovered_queries": 0}'::jsonb) WHERE id = $1`,
        [key],
      );
      if (rowCount === 0) await fallback.markDiscovery(key);
    },
    async countQuery(key) {
      const { rows } = await db.query<{ gating: { discovered: boolean; undiscovered_queries: number } }>(
        `UPDATE mcp_sessions
            SET state = jsonb_set(state, '{gating}', jsonb_build_object(
                  'discovered', COALESCE((state #>> '{gating,discovered}')::boolean, false),
                  'undiscovered_queries', COALESCE((state #>> '{gating,undiscovered_queries}')::int, 0)
                    + CASE WHEN COALESCE((state #>> '{gating,discovered}')::boolean, false) THEN 0 ELSE 1 END))
          WHERE id = $1
          RETURNING state -> 'gating' AS gating`,
        [key],
      );
      const row = rows[0];
      if (!row) return fallback.countQuery(key);
      return { discovered: row.gating.discovered, undiscoveredQueries: row.gating.undiscovered_queries };
    },
  };
}
