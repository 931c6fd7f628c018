/**
 * The window figures of a source's page (spec document 3: "window length, last compacted window,
 * windows owed, last failure; the oldest window held beside the retention settings", and the last
 * event received), read from webhook_windows in one statement.
 */
import type { Db } from '../db/index.js';
import { windowName } from './window-rules.js';

export interface WindowFigures {
  /** When the last segment of the source landed (its newest event received), ms since the epoch. */
  lastEventAtMs: number | null;
  /** The window compacted most recently. */
  lastCompacted: { window: string; compactedAtMs: number; resourceId: string | null; version: number | null } | null;
  /** Ended windows owed a compaction (never compacted or landed since), failing ones included; the oldest first. */
  owed: { count: number; oldest: Array<{ window: string; endedAtMs: number; attempts: number }> };
  /** The failing window that failed last: its reason, failures in a row and next try. */
  lastFailure: { window: string; reason: string; attempts: number; failedAtMs: number; nextTryAtMs: number | null } | null;
  /** Start of the oldest window whose data is still held (not removed by retention). */
  oldestWindowStartMs: number | null;
}

/** Owed windows listed by name beside their count. */
export const OWED_WINDOWS_LISTED = 5;

interface FiguresRow {
  last_event_at: Date | null;
  oldest_start: Date | null;
  owed_count: string;
  owed: Array<{ dt: string; hour: string; minute: string; ended_at: string; attempts: number }> | null;
  compacted: { dt: string; hour: string; minute: string; compacted_at: string; resource_id: string | null; resource_version: number | null } | null;
  failure: { dt: string; hour: string; minute: string; last_error: string | null; attempts: number; last_failed_at: string; next_try_at: string | null } | null;
}

export async function readWindowFigures(db: Db, sourceId: string, nowMs: number): Promise<WindowFigures> {
  const { rows } = await db.query<FiguresRow>(
    `WITH w AS (
       SELECT *, start_at + make_interval(mins => length_minutes) AS end_at FROM webhook_windows WHERE source_id = $1
     ), owed AS (
       SELECT * FROM w WHERE removal_step IS NULL AND (compacted_seq IS NULL OR landed_seq > compacted_seq) AND end_at <= $2
     )
     SELECT
       (SELECT max(last_landed_at) FROM w) AS last_event_at,
       (SELECT min(start_at) FROM w WHERE removal_step IS DISTINCT FROM 'removed') AS oldest_start,
       (SELECT count(*) FROM owed) AS owed_count,
       (SELECT json_agg(json_build_object('dt', dt, 'hour', hour, 'minute', minute, 'ended_at', end_at, 'attempts', attempts) ORDER BY start_at)
          FROM (SELECT * FROM owed ORDER BY start_at LIMIT $3) o) AS owed,
       (SELECT row_to_json(c) FROM (SELECT dt, hour, minute, compacted_at, resource_id, resource_version FROM w
          WHERE compacted_at IS NOT NULL AND removal_step IS NULL ORDER BY compacted_at DESC, start_at DESC LIMIT 1) c) AS compacted,
       (SELECT row_to_json(f) FROM (SELECT dt, hour, minute, last_error, attempts, last_failed_at, next_try_at FROM w
          WHERE attempts > 0 AND removal_step IS NULL ORDER BY last_failed_at DESC, start_at DESC LIMIT 1) f) AS failure`,
    [sourceId, new Date(nowMs), OWED_WINDOWS_LISTED],
  );
  const row = rows[0]!;
  const ms = (at: string | Date) => new Date(at).getTime();
  const { compacted, failure } = row;
  return {
    lastEventAtMs: row.last_event_at ? row.last_event_at.getTime() : null,
    lastCompacted: compacted
      ? { window: windowName(compacted), compactedAtMs: ms(compacted.compacted_at), resourceId: compacted.resource_id, version: compacted.resource_version }
      : null,
    owed: {
      count: Number(row.owed_count),
      oldest: (row.owed ?? []).map((o) => ({ window: windowName(o), endedAtMs: ms(o.ended_at), attempts: o.attempts })),
    },
    lastFailure: failure
      ? {
          window: windowName(failure),
          reason: failure.last_error ?? '',
          attempts: failure.attempts,
          failedAtMs: ms(failure.last_failed_at),
          nextTryAtMs: failure.next_try_at === null ? null : ms(failure.next_try_at),
        }
      : null,
    oldestWindowStartMs: row.oldest_start ? row.oldest_start.getTime() : null,
  };
}
