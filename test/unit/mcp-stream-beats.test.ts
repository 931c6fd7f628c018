/**
 * SSE keep-alive comments (spec: streams stay open through idle proxies) come from one timer per
 * interval shared by every open stream: each registered stream hears a beat within one interval
 * and at every interval after, none after it stops, and the timer goes once no stream needs it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { beatTimers, onBeat } from '../../api/mcp/streamable/beats.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.runOnlyPendingTimers();
  vi.runOnlyPendingTimers();
  vi.useRealTimers();
});

describe('keep-alive beats', () => {
  it('beats every stream of an interval from one timer, each until it stops', () => {
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = onBeat(1000, first);
    vi.advanceTimersByTime(400);
    const stopSecond = onBeat(1000, second);
    expect(beatTimers()).toBe(1);
    // The second stream's first beat comes within one interval of its start.
    vi.advanceTimersByTime(600);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(first).toHaveBeenCalledTimes(2);
    stopFirst();
    vi.advanceTimersByTime(3000);
    expect(first).toHaveBeenCalledTimes(2);
    expect(second).toHaveBeenCalledTimes(5);
    stopSecond();
  });

  it('keeps intervals apart and stops a timer an interval after its last stream left', () => {
    const fast = vi.fn();
    const slow = vi.fn();
    const stopFast = onBeat(100, fast);
    const stopSlow = onBeat(250, slow);
    vi.advanceTimersByTime(500);
    expect(fast).toHaveBeenCalledTimes(5);
    expect(slow).toHaveBeenCalledTimes(2);
    stopFast();
    stopSlow();
    expect(beatTimers()).toBe(2);
    vi.advanceTimersByTime(250);
    expect(beatTimers()).toBe(0);
    // A stream after that starts a timer again.
    const again = vi.fn();
    const stop = onBeat(100, again);
    vi.advanceTimersByTime(100);
    expect(again).toHaveBeenCalledTimes(1);
    stop();
  });
});
