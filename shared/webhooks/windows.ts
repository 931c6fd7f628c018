/**
 * The windows of each source that hold raw segments and their compaction and retention state
 * (migrations 0012 and 0013; spec document 3, "Webhook window"): the receiver records a window
 * after every segment it wrote there and before answering; the compaction sweep, the
 * `compactWindow` workflow, the retention pass and the admin routes move it on from here. The
 * rules (window end, owed, retry delay) are in window-rules.ts; the source page's figures in
 * window-figures.ts.
 *
 * Windows of disabled sources are compacted and retained like any other: disabling a source stops
 * it receiving, not the upkeep of what it already received.
 */
import type { Db } from '../db/index.js';
import type { Window } from './layout.js';
import { readWindowFigures, type WindowFigures } from './window-figures.js';
import type { WindowKey } from './window-rules.js';

export interface WindowLanding {
  sourceId: string;
  window: Window;
  /** When the segment was written (its events' landed_at). */
  landedAtMs: number;
  events: number;
}

/** A window the sweep should compact, with what the workflow needs of its source. */
export interface DueWindow extends WindowKey {
  /** The source's name. */
  source: string;
  connection: string;
  persona: string;
  /** The landing the compaction starts from: pass it back to `compacted`. */
  landedSeq: number;
  /** Duplicates its last compaction dropped (0 before the first). */
  duplicatesDropped: number;
}

/** A compacted window whose raw segments are past raw_retention_days. */
export interface RawExpiredWindow extends WindowKey {
  /** The landing its raw removal covers: pass it back to `markRawRemoved`. */
  landedSeq: number;
}

/** The recorded steps of removing a window past compacted_retention_days, in the spec's order. */
export const REMOVAL_STEPS = ['unregistered', 'resource_deleted', 'removed'] as const;
export type RemovalStep = (typeof REMOVAL_STEPS)[number];

/** A window to remove (or whose removal a stopped pass left unfinished). */
export interface ExpiredWindow extends WindowKey {
  /** Its Parquet resource, if it was ever compacted. */
  resourceId: string | null;
  /** The last step done; null: none yet. */
  removalStep: Exclude<RemovalStep, 'removed'> | null;
}

/** A window made due again by an administrator. */
export interface RetriedWindow {
  /** The window as the sweep would find it due: what its compaction is started with. */
  due: DueWindow;
  /** Failures in a row before the retry (0: owed, not failing). */
  attempts: number;
  lastError: string | null;
}

export type RetryResult = { result: 'retried'; window: RetriedWindow } | { result: 'not_owed' } | { result: 'not_found' };

/** Longest failure reason kept. */
export const MAX_FAILURE_REASON_CHARS = 1000;

/** `$1..$4` are the key's columns in every statement below. */
const KEY = 'source_id = $1 AND dt = $2 AND hour = $3 AND minute = $4';
const keyValues = (key: WindowKey) => [key.sourceId, key.dt, key.hour, key.minute];
/** The key and the owed rule on the window aliased `w` (joined with its source `s`). */
const KEY_W = 'w.source_id = $1 AND w.dt = $2 AND w.hour = $3 AND w.minute = $4';
const OWED_W = '(w.compacted_seq IS NULL OR w.landed_seq > w.compacted_seq)';
const DAY_MS = 86_400_000;

interface KeyRow {
  source_id: string;
  dt: string;
  hour: string;
  minute: string;
}
const keyOf = (row: KeyRow): WindowKey => ({ sourceId: row.source_id, dt: row.dt, hour: row.hour, minute: row.minute });

/** The columns of a due window (`w`: the window, `s`: its source) and how they read. */
const DUE_COLUMNS = 'w.source_id, s.name, s.connection, s.persona, w.dt, w.hour, w.minute, w.landed_seq, w.duplicates_dropped';
interface DueRow extends KeyRow {
  name: string;
  connection: string;
  persona: string;
  landed_seq: string;
  duplicates_dropped: string;
}
const dueOf = (row: DueRow): DueWindow => ({
  ...keyOf(row),
  source: row.name,
  connection: row.connection,
  persona: row.persona,
  landedSeq: Number(row.landed_seq),
  duplicatesDropped: Number(row.duplicates_dropped),
});

export class WebhookWindows {
  constructor(private readonly db: Db) {}

  /**
   * Records a segment landed in a window: the window's length becomes the longer of the stored
   * and this one, its landing sequence moves on. Answers the window's raw generation: 0 until its
   * raw segments are first removed by retention (which unregisters its raw partition), then the
   * landing that removal went up to — a change tells the receiver to register the raw partition
   * again. Undefined, recording nothing, when the source is gone or being removed: the source row
   * is read FOR SHARE, so a landing and the removal's mark (sources.ts markRemoving) are ordered —
   * a landing recorded before the mark is in a window the removal removes; none is recorded after it.
   */
  async landed(landing: WindowLanding): Promise<number | undefined> {
    const { window } = landing;
    const lengthMinutes = Math.round((window.endMs - window.startMs) / 60_000);
    const at = new Date(landing.landedAtMs);
    try {
      const { rows } = await this.db.query<{ raw_removed_seq: string | null }>(
        `INSERT INTO webhook_windows (source_id, dt, hour, minute, start_at, length_minutes, first_landed_at, last_landed_at, landed_seq, segments, events)
         SELECT s.id, $2, $3, $4, $5, $6, $7, $7, nextval('webhook_window_landings'), 1, $8
           FROM webhook_sources s WHERE s.id = $1 AND s.removing_since IS NULL FOR SHARE
         ON CONFLICT (source_id, dt, hour, minute) DO UPDATE SET
           length_minutes = GREATEST(webhook_windows.length_minutes, EXCLUDED.length_minutes),
           last_landed_at = GREATEST(webhook_windows.last_landed_at, EXCLUDED.last_landed_at),
           landed_seq = EXCLUDED.landed_seq,
           segments = webhook_windows.segments + 1,
           events = webhook_windows.events + EXCLUDED.events
         RETURNING raw_removed_seq`,
        [landing.sourceId, window.dt, window.hour, window.minute, new Date(window.startMs), lengthMinutes, at, landing.events],
      );
      return rows[0] ? Number(rows[0].raw_removed_seq ?? 0) : undefined;
    } catch (error) {
      // 23503: the source row went between the read and the insert.
      if ((error as { code?: string }).code !== '23503') throw error;
      return undefined;
    }
  }

  /**
   * Windows the sweep should compact, oldest first, at most `limit`: ended at least `graceMs`
   * ago, owed a compaction (never compacted, or a segment landed since), not waiting for the
   * next try of a failing one, not being removed, of a source not being removed.
   */
  async due(opts: { nowMs: number; graceMs: number; limit: number }): Promise<DueWindow[]> {
    const { rows } = await this.db.query<DueRow>(
      `SELECT ${DUE_COLUMNS}
         FROM webhook_windows w JOIN webhook_sources s ON s.id = w.source_id
        WHERE s.removing_since IS NULL AND w.removal_step IS NULL AND ${OWED_W}
          AND w.start_at + make_interval(mins => w.length_minutes) <= $1::timestamptz - $2::float8 * interval '1 millisecond'
          AND (w.next_try_at IS NULL OR w.next_try_at <= $1)
        ORDER BY w.start_at, w.source_id
        LIMIT $3`,
      [new Date(opts.nowMs), opts.graceMs, opts.limit],
    );
    return rows.map(dueOf);
  }

  /**
   * Records a successful compaction that started from `landedSeq`: the window is compacted up to
   * it (never moved back: a stale report changes nothing), its resource version noted, its failure
   * cleared. Calling it again with the same values changes nothing. False when the window is gone
   * or already compacted past `landedSeq`.
   */
  async compacted(key: WindowKey, done: { landedSeq: number; resourceId: string; version: number; atMs: number; duplicatesDropped?: number }): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE webhook_windows SET
         compacted_at = CASE WHEN compacted_seq IS NOT DISTINCT FROM $5::bigint THEN compacted_at ELSE $8 END,
         compacted_seq = $5, resource_id = $6, resource_version = $7, duplicates_dropped = COALESCE($9, duplicates_dropped),
         attempts = 0, last_error = NULL, last_failed_at = NULL, next_try_at = NULL
       WHERE ${KEY} AND (compacted_seq IS NULL OR compacted_seq <= $5)`,
      [...keyValues(key), done.landedSeq, done.resourceId, done.version, new Date(done.atMs), done.duplicatesDropped ?? null],
    );
    return rowCount === 1;
  }

  /**
   * Records a failed compaction: the `attempt`-th in a row (the workflow counts them), its reason
   * and when the sweep may try again (window-rules.ts retryDelayMs). False when the window is gone.
   */
  async failed(key: WindowKey, failure: { error: string; attempt: number; nextTryAtMs: number; atMs: number }): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE webhook_windows SET attempts = $5, last_error = $6, last_failed_at = $7, next_try_at = $8
       WHERE ${KEY} AND removal_step IS NULL`,
      [...keyValues(key), failure.attempt, failure.error.slice(0, MAX_FAILURE_REASON_CHARS), new Date(failure.atMs), new Date(failure.nextTryAtMs)],
    );
    return rowCount === 1;
  }

  /**
   * An administrator's retry: a window owed a compaction (failing or not) stops waiting for its
   * next try, so the next sweep takes it even if starting its compaction at once fails. `not_owed`
   * for a window compacted and up to date, or being removed (or of a source being removed).
   */
  async retry(key: WindowKey): Promise<RetryResult> {
    const { rows } = await this.db.query<DueRow & { attempts: number; last_error: string | null }>(
      `UPDATE webhook_windows w SET next_try_at = NULL FROM webhook_sources s
        WHERE s.id = w.source_id AND s.removing_since IS NULL AND ${KEY_W} AND w.removal_step IS NULL AND ${OWED_W}
       RETURNING ${DUE_COLUMNS}, w.attempts, w.last_error`,
      keyValues(key),
    );
    const row = rows[0];
    if (row) return { result: 'retried', window: { due: dueOf(row), attempts: row.attempts, lastError: row.last_error } };
    const exists = await this.db.query(`SELECT 1 FROM webhook_windows WHERE ${KEY}`, keyValues(key));
    return exists.rowCount === 1 ? { result: 'not_owed' } : { result: 'not_found' };
  }

  /** `retry` for every failing window of a source; returns those it made due, oldest first. */
  async retryFailing(sourceId: string): Promise<RetriedWindow[]> {
    const { rows } = await this.db.query<DueRow & { attempts: number; last_error: string | null; start_at: Date }>(
      `UPDATE webhook_windows w SET next_try_at = NULL FROM webhook_sources s
        WHERE s.id = w.source_id AND s.removing_since IS NULL AND w.source_id = $1 AND w.attempts > 0 AND w.removal_step IS NULL AND ${OWED_W}
       RETURNING ${DUE_COLUMNS}, w.attempts, w.last_error, w.start_at`,
      [sourceId],
    );
    return rows
      .sort((a, b) => a.start_at.getTime() - b.start_at.getTime())
      .map((row) => ({ due: dueOf(row), attempts: row.attempts, lastError: row.last_error }));
  }

  /**
   * Windows of a source whose raw segments the retention pass should delete, oldest first:
   * compacted and not owed, last segment landed more than `rawRetentionDays` ago, raw segments
   * not yet removed (or landed again since they were).
   */
  async rawExpired(sourceId: string, opts: { nowMs: number; rawRetentionDays: number }): Promise<RawExpiredWindow[]> {
    const { rows } = await this.db.query<KeyRow & { landed_seq: string }>(
      `SELECT source_id, dt, hour, minute, landed_seq FROM webhook_windows
        WHERE source_id = $1 AND removal_step IS NULL AND compacted_seq IS NOT NULL AND landed_seq <= compacted_seq
          AND last_landed_at <= $2 AND (raw_removed_seq IS NULL OR landed_seq > raw_removed_seq)
        ORDER BY start_at`,
      [sourceId, new Date(opts.nowMs - opts.rawRetentionDays * DAY_MS)],
    );
    return rows.map((row) => ({ ...keyOf(row), landedSeq: Number(row.landed_seq) }));
  }

  /** Records the raw segments of a window deleted, up to the landing `landedSeq` (from rawExpired). */
  async markRawRemoved(key: WindowKey, removed: { landedSeq: number; atMs: number }): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE webhook_windows SET raw_removed_at = $6, raw_removed_seq = GREATEST(raw_removed_seq, $5) WHERE ${KEY}`,
      [...keyValues(key), removed.landedSeq, new Date(removed.atMs)],
    );
    return rowCount === 1;
  }

  /**
   * Windows of a source to remove, oldest first: those that ended more than
   * `compactedRetentionDays` ago (none when it is 0: kept forever), compacted or not, and any
   * whose removal a stopped pass left unfinished, whatever the setting now.
   */
  async compactedExpired(sourceId: string, opts: { nowMs: number; compactedRetentionDays: number }): Promise<ExpiredWindow[]> {
    const { rows } = await this.db.query<KeyRow & { resource_id: string | null; removal_step: ExpiredWindow['removalStep'] }>(
      `SELECT source_id, dt, hour, minute, resource_id, removal_step FROM webhook_windows
        WHERE source_id = $1 AND (removal_step IN ('unregistered', 'resource_deleted')
          OR ($3 > 0 AND removal_step IS NULL AND start_at + make_interval(mins => length_minutes) <= $2))
        ORDER BY start_at`,
      [sourceId, new Date(opts.nowMs - opts.compactedRetentionDays * DAY_MS), opts.compactedRetentionDays],
    );
    return rows.map((row) => ({ ...keyOf(row), resourceId: row.resource_id, removalStep: row.removal_step }));
  }

  /** Windows of a source owed a compaction and not being removed: those whose `compactWindow` may be running. */
  async owed(sourceId: string): Promise<WindowKey[]> {
    const { rows } = await this.db.query<KeyRow>(
      `SELECT source_id, dt, hour, minute FROM webhook_windows w WHERE source_id = $1 AND removal_step IS NULL AND ${OWED_W} ORDER BY start_at`,
      [sourceId],
    );
    return rows.map(keyOf);
  }

  /**
   * Every window of a source not yet removed, oldest first, with its removal step so far: a
   * source's removal takes each through compacted retention's steps (removal.ts).
   */
  async unremoved(sourceId: string): Promise<ExpiredWindow[]> {
    const { rows } = await this.db.query<KeyRow & { resource_id: string | null; removal_step: ExpiredWindow['removalStep'] }>(
      `SELECT source_id, dt, hour, minute, resource_id, removal_step FROM webhook_windows
        WHERE source_id = $1 AND removal_step IS DISTINCT FROM 'removed' ORDER BY start_at`,
      [sourceId],
    );
    return rows.map((row) => ({ ...keyOf(row), resourceId: row.resource_id, removalStep: row.removal_step }));
  }

  /**
   * Records a removal step done. Steps only move forward: recording one again, or an earlier one,
   * changes nothing (false). A window whose removal started is no longer compacted or retried.
   */
  async removalStep(key: WindowKey, step: RemovalStep): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE webhook_windows SET removal_step = $5
        WHERE ${KEY} AND coalesce(array_position($6::text[], removal_step), 0) < array_position($6::text[], $5::text)`,
      [...keyValues(key), step, REMOVAL_STEPS],
    );
    return rowCount === 1;
  }

  /** The window figures of the source page at `nowMs` (window-figures.ts). */
  figures(sourceId: string, nowMs: number): Promise<WindowFigures> {
    return readWindowFigures(this.db, sourceId, nowMs);
  }
}
