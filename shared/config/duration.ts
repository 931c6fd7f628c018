/**
 * Durations in platform.yaml are written like `30s`, `5m`, `8h` (spec document 1,
 * "Configuration conventions"). We also accept `250ms`, `2d`, decimals (`1.5h`)
 * and combinations (`1h30m`). The parsed value is a whole number of milliseconds.
 *
 * A bare number is refused on purpose: `timeout: 30` could mean seconds or
 * milliseconds, and guessing wrong by a factor of 1000 is a silent outage.
 */

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** One `<number><unit>` part; the whole text must be a sequence of these. */
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h|d)/gy;

export const DURATION_HINT = 'expected a duration like 30s (units: ms, s, m, h, d)';

/** Parses a duration string to milliseconds. Throws an Error with a readable message on bad input. */
export function parseDuration(text: string): number {
  if (typeof text !== 'string') throw new Error(DURATION_HINT);
  const s = text.trim();
  if (s === '') throw new Error(`empty duration: ${DURATION_HINT}`);
  if (/^[+-]?\d+(\.\d+)?$/.test(s)) {
    throw new Error(`"${s}" has no unit: ${DURATION_HINT}`);
  }
  if (s.startsWith('-')) throw new Error(`"${s}" is negative: durations cannot be negative`);
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = PART.exec(s)) !== null) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    consumed = PART.lastIndex;
  }
  if (consumed !== s.length) throw new Error(`"${s}" is not a duration: ${DURATION_HINT}`);
  const ms = Math.round(total);
  if (!Number.isSafeInteger(ms)) throw new Error(`"${s}" is too large`);
  return ms;
}

/**
 * Formats milliseconds as the shortest exact duration string: 90_000 → `1m30s`,
 * 250 → `250ms`, 0 → `0s`. parseDuration(formatDuration(x)) === x for any safe integer x ≥ 0.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error(`cannot format ${ms} as a duration`);
  let rest = Math.round(Math.abs(ms));
  if (rest === 0) return '0s';
  let out = ms < 0 ? '-' : '';
  for (const unit of ['d', 'h', 'm', 's', 'ms'] as const) {
    const size = UNIT_MS[unit] as number;
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}
