/**
 * The difficulty of the next challenge for an endpoint (spec document 3, "Proof-of-work rules"):
 * `difficulty` while the endpoint accepted at most `rate_threshold` answers in the last minute;
 * past it the difficulty rises ("answers in the last minute past which difficulty rises"), one bit
 * for each doubling of the rate past the threshold — more than 1 × threshold adds one, more than
 * 2 × two, more than 4 × three — never above `max_difficulty`. Pure: the caller counts the answers
 * (in Postgres, so every replica agrees).
 */
import type { BotCheckSettings } from './settings.js';

export function challengeDifficulty(settings: Pick<BotCheckSettings, 'difficulty' | 'rate_threshold' | 'max_difficulty'>, acceptedLastMinute: number): number {
  let extra = 0;
  // Doublings of the threshold the count went past, in integers (no floating-point logarithm).
  for (let passed = settings.rate_threshold; acceptedLastMinute > passed && settings.difficulty + extra < settings.max_difficulty; passed *= 2) extra += 1;
  return Math.min(settings.difficulty + extra, settings.max_difficulty);
}
