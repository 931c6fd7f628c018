/**
 * The answers the bot check accepted (table bot_check_answers), so that none is accepted twice on
 * any replica: a proof-of-work challenge once answered, or a hosted provider's token once
 * verified, is a row whose primary key is its SHA-256; recording it again inserts nothing. The same
 * rows give the difficulty rule its count of the last minute's answers for an endpoint.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/index.js';
import type { HostedProvider } from './settings.js';

export type AnswerKind = 'pow' | HostedProvider;

/**
 * How long a row outlives its expiry before housekeeping purges it: a replica whose clock is
 * behind the database's still finds an answer it would take for unexpired. At least a minute, so
 * the difficulty rule's count is never cut short.
 */
export const USED_ANSWER_GRACE_SECONDS = 300;

function digestOf(kind: AnswerKind, text: string): Buffer {
  return createHash('sha256').update(`${kind}:${text}`, 'utf8').digest();
}

export class UsedAnswers {
  constructor(private readonly db: Db) {}

  /**
   * Records an accepted answer (the challenge it answered, or the token) as used: true when this
   * call recorded it, false when it had been used already — on this replica or any other.
   */
  async record(answer: { kind: AnswerKind; text: string; endpoint: string; acceptedAt: Date; expiresAt: Date }): Promise<boolean> {
    const result = await this.db.query(
      `INSERT INTO bot_check_answers (digest, kind, endpoint, accepted_at, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (digest) DO NOTHING`,
      [digestOf(answer.kind, answer.text), answer.kind, answer.endpoint, answer.acceptedAt, answer.expiresAt],
    );
    return result.rowCount === 1;
  }

  /** Answers accepted for `endpoint` after `since`, counted up to `atMost` (past it the count changes nothing). */
  async acceptedSince(endpoint: string, since: Date, atMost: number): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM bot_check_answers WHERE endpoint = $1 AND accepted_at > $2 LIMIT $3) recent`,
      [endpoint, since, atMost],
    );
    return rows[0]?.n ?? 0;
  }
}

/** Removes answers expired more than the grace ago (the database clock decides); the number removed. */
export async function purgeUsedAnswers(db: Db): Promise<number> {
  const result = await db.query(`DELETE FROM bot_check_answers WHERE expires_at < now() - $1::int * interval '1 second'`, [USED_ANSWER_GRACE_SECONDS]);
  return result.rowCount ?? 0;
}
