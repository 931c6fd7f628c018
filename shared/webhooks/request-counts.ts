/**
 * Webhook request counts by source, minute and outcome across replicas (the source page's "request
 * counts by outcome for the last hour and day"). Each receiving replica counts in memory and adds
 * its counts to `webhook_request_counts` a few seconds after the first request it has not written
 * (one upsert per flush, never a query per request), and once more when it stops. The same
 * statement prunes rows older than a day and an hour, so the table holds about a day per source.
 * Requests to unknown names have no source and are never kept.
 */
import type { Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { WEBHOOK_OUTCOMES, type WebhookOutcome } from './metrics.js';

export interface WebhookRequestCountsOptions {
  db: Db;
  log: Logger;
  /** How long counts are held before they are written; default 5000 ms. */
  flushAfterMs?: number;
  now?: () => number;
}

/** Request counts of a source, every outcome present (0 when none). */
export type OutcomeCounts = Record<WebhookOutcome, number>;

/**
 * The row of the events acknowledged (not requests: a request may carry many), kept in the same
 * table under this pseudo-outcome — never a `webhook_requests_total` outcome, so never a request count.
 */
export const EVENTS_ROW = 'events';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Rows kept: the last day, plus an hour so a reader's day never finds a pruned minute. */
const KEPT_MS = DAY_MS + HOUR_MS;

export class WebhookRequestCounts {
  readonly #db: Db;
  readonly #log: Logger;
  readonly #flushAfterMs: number;
  readonly #now: () => number;
  /** `sourceId \n minute ms \n outcome` → requests not yet written. */
  #held = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(opts: WebhookRequestCountsOptions) {
    this.#db = opts.db;
    this.#log = opts.log;
    this.#flushAfterMs = opts.flushAfterMs ?? 5000;
    this.#now = opts.now ?? Date.now;
  }

  /** Counts one request to a known source, in the minute of `atMs`. */
  count(sourceId: string, outcome: WebhookOutcome, atMs: number): void {
    this.#add(sourceId, outcome, atMs, 1);
  }

  /** Counts the events an accepted request carried (the source page's events per hour and day). */
  countEvents(sourceId: string, events: number, atMs: number): void {
    if (events > 0) this.#add(sourceId, EVENTS_ROW, atMs, events);
  }

  #add(sourceId: string, row: string, atMs: number, n: number): void {
    const key = `${sourceId}\n${Math.floor(atMs / MINUTE_MS) * MINUTE_MS}\n${row}`;
    this.#held.set(key, (this.#held.get(key) ?? 0) + n);
    this.#schedule();
  }

  /**
   * Writes the counts held so far (one statement) after any flush in flight. A failed write keeps
   * them for the next flush; it never throws.
   */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  /** Stops the timer and writes what is held (shutdown). */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /**
   * Requests of a source by outcome, and the events accepted, over the last hour and the last day
   * (current minute included).
   */
  async recent(sourceId: string): Promise<{ lastHour: OutcomeCounts; lastDay: OutcomeCounts; events: { lastHour: number; lastDay: number } }> {
    const now = this.#now();
    const currentMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const { rows } = await this.#db.query<{ outcome: string; hour: string; day: string }>(
      `SELECT outcome, sum(count) FILTER (WHERE minute > $2) AS hour, sum(count) AS day
         FROM webhook_request_counts WHERE source_id = $1 AND minute > $3 GROUP BY outcome`,
      [sourceId, new Date(currentMinute - HOUR_MS), new Date(currentMinute - DAY_MS)],
    );
    const lastHour = zeroCounts();
    const lastDay = zeroCounts();
    const events = { lastHour: 0, lastDay: 0 };
    for (const row of rows) {
      if (row.outcome === EVENTS_ROW) {
        events.lastHour = Number(row.hour ?? 0);
        events.lastDay = Number(row.day);
        continue;
      }
      if (!(row.outcome in lastDay)) continue;
      lastHour[row.outcome as WebhookOutcome] = Number(row.hour ?? 0);
      lastDay[row.outcome as WebhookOutcome] = Number(row.day);
    }
    return { lastHour, lastDay, events };
  }

  async #write(): Promise<void> {
    if (this.#held.size === 0) return;
    const held = this.#held;
    this.#held = new Map();
    const sources: string[] = [];
    const minutes: Date[] = [];
    const outcomes: string[] = [];
    const counts: number[] = [];
    for (const [key, count] of held) {
      const [sourceId, minute, outcome] = key.split('\n') as [string, string, string];
      sources.push(sourceId);
      minutes.push(new Date(Number(minute)));
      outcomes.push(outcome);
      counts.push(count);
    }
    try {
      // Counts of a source deleted meanwhile are dropped by the join, not refused by its foreign key.
      await this.#db.query(
        `WITH pruned AS (DELETE FROM webhook_request_counts WHERE minute < $5)
         INSERT INTO webhook_request_counts (source_id, minute, outcome, count)
         SELECT c.source_id, c.minute, c.outcome, c.count
           FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::bigint[]) AS c (source_id, minute, outcome, count)
           JOIN webhook_sources s ON s.id = c.source_id
         ON CONFLICT (source_id, minute, outcome) DO UPDATE SET count = webhook_request_counts.count + EXCLUDED.count`,
        [sources, minutes, outcomes, counts, new Date(this.#now() - KEPT_MS)],
      );
    } catch (error) {
      this.#log.warn({ err: error }, 'webhook request counts could not be written');
      // 23503: a source was deleted while this was written; its counts are of no use any more.
      if ((error as { code?: string }).code === '23503') return;
      // Kept for the next flush: a database blip loses no counts.
      for (const [key, count] of held) this.#held.set(key, (this.#held.get(key) ?? 0) + count);
      this.#schedule();
    }
  }

  /** Starts the wait before the next flush, unless one is waiting. */
  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#flushAfterMs);
    this.#timer.unref();
  }
}

function zeroCounts(): OutcomeCounts {
  return Object.fromEntries(WEBHOOK_OUTCOMES.map((outcome) => [outcome, 0])) as OutcomeCounts;
}
