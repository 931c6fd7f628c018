/**
 * The windows of each source that hold raw segments (migrations/0012_webhook_windows.sql): the
 * receiver records a window after every segment it wrote there and before answering, so the
 * compaction sweep and the retention pass (the Temporal half) find every window from the
 * database, and a segment landing after a compaction makes its window owed another one.
 */
import type { Db } from '../db/index.js';
import type { Window } from './layout.js';

export interface WindowLanding {
  sourceId: string;
  window: Window;
  /** When the segment was written (its events' landed_at). */
  landedAtMs: number;
  events: number;
}

export class WebhookWindows {
  constructor(private readonly db: Db) {}

  /**
   * Records a segment landed in a window: the window's length becomes the longer of the stored
   * and this one, its landing sequence moves on. A source deleted meanwhile records nothing.
   */
  async landed(landing: WindowLanding): Promise<void> {
    const { window } = landing;
    const lengthMinutes = Math.round((window.endMs - window.startMs) / 60_000);
    const at = new Date(landing.landedAtMs);
    try {
      await this.db.query(
        `INSERT INTO webhook_windows (source_id, dt, hour, minute, start_at, length_minutes, first_landed_at, last_landed_at, landed_seq, segments, events)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, nextval('webhook_window_landings'), 1, $8)
         ON CONFLICT (source_id, dt, hour, minute) DO UPDATE SET
           length_minutes = GREATEST(webhook_windows.length_minutes, EXCLUDED.length_minutes),
           last_landed_at = GREATEST(webhook_windows.last_landed_at, EXCLUDED.last_landed_at),
           landed_seq = EXCLUDED.landed_seq,
           segments = webhook_windows.segments + 1,
           events = webhook_windows.events + EXCLUDED.events`,
        [landing.sourceId, window.dt, window.hour, window.minute, new Date(window.startMs), lengthMinutes, at, landing.events],
      );
    } catch (error) {
      // 23503: the source is gone (deleted while its segment was written).
      if ((error as { code?: string }).code !== '23503') throw error;
    }
  }
}
