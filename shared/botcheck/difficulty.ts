/**
 * The difficulty of the next challenge for an endpoint (spec document 3, "Proof-of-work rules"):
 * `difficulty` while the endpoint accepted at most `rate_threshold` answers in the last minute, then
 * one more bit for each doubling past it — 2 × threshold adds one, 4 × two, 8 × three — never above
 * `max_difficulty`. Pure: the caller counts the answers (in Postgres, so every replica agrees).
 */
import type { BotCheckSettings } from './settings.js';

export function challengeDifficulty(settings: Pick<BotCheckSettings, 'difficulty' | 'rate_threshold' | 'max_difficulty'>, acceptedLastMinute: number): number {
  let extra = 0;
  // Whole doublings of the threshold the count reached, in integers (no floating-point logarithm).
  for (let reached = settings.rate_threshold * 2; acceptedLastMinute >= reached && settings.difficulty + extra < settings.max_difficulty; reached *= 2) extra += 1;
  return Math.min(settings.difficulty + extra, settings.max_difficulty);
}
