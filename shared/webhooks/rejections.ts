/**
 * The last rejected requests of each webhook source (spec document 3: the source page shows the
 * last 50, with time, outcome and reason, never the body). Each record trims its source to the
 * last 50 in the same statement, so the table never grows with an attacker's traffic.
 */
import type { Db } from '../db/index.js';

/** The webhook_requests_total outcomes of a refused request to a known source. */
export const WEBHOOK_REJECTION_OUTCOMES = ['unauthorized', 'too_large', 'rate_limited', 'invalid_body', 'buffer_full', 'write_failed'] as const;
export type WebhookRejectionOutcome = (typeof WEBHOOK_REJECTION_OUTCOMES)[number];

export interface WebhookRejection {
  at: string;
  outcome: WebhookRejectionOutcome;
  reason: string;
}

/** Rejections kept per source. */
export const KEPT_REJECTIONS = 50;
/** Longest reason kept: a reason names a rule, it is never a body. */
export const MAX_REJECTION_REASON_CHARS = 500;

export class WebhookRejections {
  constructor(private readonly db: Db) {}

  /**
   * Records a rejected request to a source and keeps its last 50. The trim runs in the insert's
   * statement (its snapshot does not see the new row, hence 49 older ones kept); concurrent
   * records may leave a few more until the next one. A source deleted meanwhile records nothing.
   */
  async record(sourceId: string, outcome: WebhookRejectionOutcome, reason: string, at: Date): Promise<void> {
    try {
      await this.db.query(
        `WITH added AS (
           INSERT INTO webhook_rejections (source_id, at, outcome, reason) VALUES ($1, $2, $3, $4) RETURNING id
         )
         DELETE FROM webhook_rejections WHERE id IN (
           SELECT id FROM webhook_rejections WHERE source_id = $1 ORDER BY at DESC, id DESC OFFSET $5
         )`,
        [sourceId, at, outcome, reason.slice(0, MAX_REJECTION_REASON_CHARS), KEPT_REJECTIONS - 1],
      );
    } catch (error) {
      // 23503: the source is gone (deleted while its request was refused).
      if ((error as { code?: string }).code !== '23503') throw error;
    }
  }

  /** The last 50 rejections of a source, newest first. */
  async list(sourceId: string): Promise<WebhookRejection[]> {
    const { rows } = await this.db.query<{ at: Date; outcome: WebhookRejectionOutcome; reason: string }>(
      'SELECT at, outcome, reason FROM webhook_rejections WHERE source_id = $1 ORDER BY at DESC, id DESC LIMIT $2',
      [sourceId, KEPT_REJECTIONS],
    );
    return rows.map((row) => ({ at: row.at.toISOString(), outcome: row.outcome, reason: row.reason }));
  }
}
