/**
 * The pure rules of a webhook window's compaction state (shared/webhooks/window-rules.ts): when it
 * ended, when the sweep may take it, when it is owed, how long a failing one waits, its API name.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_RETRY_DELAY_MS,
  parseWindowName,
  retryDelayMs,
  windowEndMs,
  windowEndedAfterGrace,
  windowName,
  windowOwed,
} from '../../shared/webhooks/window-rules.js';

const START = Date.UTC(2026, 2, 2, 10, 15);
const MINUTE = 60_000;

describe('webhook window rules', () => {
  it('a window ends its (longest) length after its start', () => {
    expect(windowEndMs({ startMs: START, lengthMinutes: 15 })).toBe(START + 15 * MINUTE);
  });

  it('the sweep takes a window only once the grace after its end has passed', () => {
    const window = { startMs: START, lengthMinutes: 15 };
    const end = START + 15 * MINUTE;
    expect(windowEndedAfterGrace(window, end + 2 * MINUTE - 1, 2 * MINUTE)).toBe(false);
    expect(windowEndedAfterGrace(window, end + 2 * MINUTE, 2 * MINUTE)).toBe(true);
    expect(windowEndedAfterGrace(window, end, 0)).toBe(true);
  });

  it('a window is owed until compacted, and again after a later landing', () => {
    expect(windowOwed({ landedSeq: 3, compactedSeq: null })).toBe(true);
    expect(windowOwed({ landedSeq: 3, compactedSeq: 3 })).toBe(false);
    expect(windowOwed({ landedSeq: 4, compactedSeq: 3 })).toBe(true);
  });

  it('the retry delay starts at retry_backoff, doubles with each failure and stops at an hour', () => {
    const base = MINUTE;
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelayMs(attempt, base) / MINUTE)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(retryDelayMs(1_000, base)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(0, base)).toBe(base);
    // A base longer than the cap is never shortened.
    expect(retryDelayMs(3, 2 * MAX_RETRY_DELAY_MS)).toBe(2 * MAX_RETRY_DELAY_MS);
  });

  it('names a window YYYY-MM-DDTHH:MM and reads back only real UTC times', () => {
    expect(windowName({ dt: '2026-03-02', hour: '10', minute: '15' })).toBe('2026-03-02T10:15');
    expect(parseWindowName('2026-03-02T10:15')).toEqual({ dt: '2026-03-02', hour: '10', minute: '15' });
    for (const bad of ['2026-03-02T24:00', '2026-02-30T10:00', '2026-03-02T10:60', '2026-03-02 10:15', '2026-03-02T10:15:00', 'x']) {
      expect(parseWindowName(bad)).toBeUndefined();
    }
  });
});
