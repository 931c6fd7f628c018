import { describe, expect, it } from 'vitest';
import { ConfigError, formatDuration, parseConfig, parseDuration } from '../../shared/config/index.js';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['8h', 28_800_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['2d', 172_800_000],
    ['1.5h', 5_400_000],
    ['0.5s', 500],
    ['0s', 0],
    ['1m30s500ms', 90_500],
    ['  10s ', 10_000],
    ['120s', 120_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['30', /no unit/],
    ['0', /no unit/],
    ['', /empty/],
    ['   ', /empty/],
    ['abc', /not a duration/],
    ['10x', /not a duration/],
    ['10S', /not a duration/],
    ['5 m', /not a duration/],
    ['h', /not a duration/],
    ['-5s', /negative/],
    ['1h-30m', /not a duration/],
    ['30s ago', /not a duration/],
  ])('%j is rejected', (text, message) => {
    expect(() => parseDuration(text)).toThrow(message);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [250, '250ms'],
    [30_000, '30s'],
    [90_000, '1m30s'],
    [5_400_000, '1h30m'],
    [172_800_000, '2d'],
    [90_061_001, '1d1h1m1s1ms'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('round-trips through parseDuration', () => {
    for (const ms of [0, 1, 999, 1000, 61_000, 3_600_001, 86_400_000 * 3 + 7]) {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }
  });
});

describe('duration keys in the config', () => {
  it('parse to milliseconds', () => {
    const c = parseConfig('server:\n  streamable:\n    session_timeout: 1h30m\n  shutdown:\n    grace_period: 0s\n', {}).config;
    expect(c.server.streamable.session_timeout).toBe(5_400_000);
    expect(c.server.shutdown.grace_period).toBe(0);
  });

  it.each([
    ['a bare number', 'session_timeout: 30', 'expected a duration like 30s'],
    ['a quoted bare number', 'session_timeout: "30"', 'expected a duration like 30s'],
    ['a wrong unit', 'session_timeout: 30 minutes', 'expected a duration like 30s'],
    ['a list', 'session_timeout: [1]', 'expected a duration like 30s'],
    ['zero where a positive value is needed', 'session_timeout: 0s', 'must be greater than 0'],
  ])('%s is an error naming the key', (_name, line, message) => {
    const text = `server:\n  streamable:\n    ${line}\n`;
    try {
      parseConfig(text, {});
      expect.unreachable('should have thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const issues = (err as ConfigError).issues;
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe('server.streamable.session_timeout');
      expect(issues[0]?.message).toContain(message);
    }
  });
});
