import { describe, expect, it } from 'vitest';
import { scheduleSpec, ScriptError } from '../../shared/scripts/index.js';

function refusal(input: Parameters<typeof scheduleSpec>[0]): string {
  try {
    scheduleSpec(input);
  } catch (error) {
    if (error instanceof ScriptError && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('schedule rules', () => {
  it('takes a five-field cron or a shorthand, normalised, in UTC unless a zone is given', () => {
    expect(scheduleSpec({ cron: ' 0  3 * * MON-FRI ' })).toEqual({ cron: '0 3 * * MON-FRI', timeZone: 'UTC' });
    expect(scheduleSpec({ cron: '@daily', time_zone: 'Europe/Paris' })).toEqual({ cron: '@daily', timeZone: 'Europe/Paris' });
  });

  it('takes an interval of at least a minute', () => {
    expect(scheduleSpec({ every: '1h30m' })).toEqual({ intervalMs: 5_400_000, timeZone: 'UTC' });
    expect(refusal({ every: '30s' })).toMatch(/at least 1m/);
    expect(refusal({ every: '15' })).toMatch(/no unit/);
  });

  it('refuses both or neither, a cron of the wrong shape, and a zone that is not IANA', () => {
    expect(refusal({ cron: '@daily', every: '1h' })).toMatch(/exactly one/);
    expect(refusal({})).toMatch(/exactly one/);
    expect(refusal({ cron: '0 3 * *' })).toMatch(/5 fields/);
    expect(refusal({ cron: '0 3 * * $' })).toMatch(/not a cron field/);
    expect(refusal({ cron: '@sometimes' })).toMatch(/unknown shorthand/);
    expect(refusal({ every: '1h', time_zone: 'Mars/Olympus' })).toMatch(/IANA/);
  });
});
