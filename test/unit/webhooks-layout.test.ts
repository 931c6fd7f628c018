/**
 * The webhook table's timestamps and windows (shared/webhooks/layout.ts): every event received is
 * stamped, so the date and time of a second are remembered; the answers stay those of the rule.
 */
import { describe, expect, it } from 'vitest';
import { tableTimestamp, windowOf } from '../../shared/webhooks/layout.js';

/** The rule, written out: UTC date and time to the microsecond. */
function expected(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  const micros = Math.round((ms - Math.floor(ms / 1000) * 1000) * 1000);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${String(micros).padStart(6, '0')}`;
}

describe('table timestamps', () => {
  it('are UTC to the microsecond, within a second, across seconds, days and years, and back in time', () => {
    const base = Date.UTC(2026, 11, 31, 23, 59, 58, 999);
    const instants = [base, base + 0.25, base + 1, base + 1000, base + 1001.5, base + 2001, base - 86_400_000, base, 0, 999.999, base + 2001];
    for (const ms of instants) expect(tableTimestamp(ms)).toBe(expected(ms));
    expect(tableTimestamp(base + 1)).toBe('2026-12-31 23:59:59.000000');
    expect(tableTimestamp(base + 1001.5)).toBe('2027-01-01 00:00:00.000500');
  });
});

describe('windows', () => {
  it('start on the hour and at multiples of their length, UTC', () => {
    const at = Date.UTC(2026, 10, 22, 10, 59, 59, 999);
    expect(windowOf(at, 60)).toEqual({ dt: '2026-11-22', hour: '10', minute: '00', startMs: Date.UTC(2026, 10, 22, 10), endMs: Date.UTC(2026, 10, 22, 11) });
    expect(windowOf(at, 15)).toMatchObject({ hour: '10', minute: '45' });
    expect(windowOf(at + 1, 1)).toMatchObject({ dt: '2026-11-22', hour: '11', minute: '00' });
  });
});
