import { describe, expect, it } from 'vitest';
import { RecentSessions, recentSessionMs, touchEveryMs } from '../../api/mcp/database-sessions.js';

const session = (id: string, subject = 'apikey:a') => ({ id, subject, protocolVersion: '2025-11-25' });

describe('database sessions remembered by a replica', () => {
  it('answers a session read within the last second, for its own subject only', () => {
    let now = 0;
    const recent = new RecentSessions(() => now);
    recent.remember(session('s1'), 60_000);
    expect(recent.get('s1', 'apikey:a')).toEqual(session('s1'));
    expect(recent.get('s1', 'apikey:b')).toBeUndefined();
    now = recentSessionMs - 1;
    expect(recent.get('s1', 'apikey:a')).toBeDefined();
    now = recentSessionMs;
    expect(recent.get('s1', 'apikey:a')).toBeUndefined();
  });

  it('never past the session’s own expiry', () => {
    let now = 0;
    const recent = new RecentSessions(() => now);
    recent.remember(session('s1'), 10);
    now = 10;
    expect(recent.get('s1', 'apikey:a')).toBeUndefined();
  });

  it('forgets one session or all of them, and holds a bounded number', () => {
    const recent = new RecentSessions(() => 0, 2);
    for (const id of ['s1', 's2', 's3']) recent.remember(session(id), 60_000);
    expect(recent.get('s1', 'apikey:a')).toBeUndefined();
    recent.forget('s2');
    expect(recent.get('s2', 'apikey:a')).toBeUndefined();
    expect(recent.get('s3', 'apikey:a')).toBeDefined();
    recent.clear();
    expect(recent.get('s3', 'apikey:a')).toBeUndefined();
  });

  it('rewrites the last-seen stamp every twentieth of the idle timeout, at most every 30 s', () => {
    expect(touchEveryMs({ ttlMs: 1, idleMs: 20_000 })).toBe(1000);
    expect(touchEveryMs({ ttlMs: 1, idleMs: 3_600_000 })).toBe(30_000);
  });
});
