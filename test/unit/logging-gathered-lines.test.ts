/**
 * Issue 41 item 1 (the access log made cheap): log lines are gathered and handed to the stderr
 * writer as one write of many lines — by size, by age, and at exit — so a line costs no write
 * dispatch of its own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatheredLines, type LineWriter } from '../../shared/logging/gathered-lines.js';

function recordingWriter(): LineWriter & { writes: string[]; syncFlushes: number } {
  const writer = {
    writes: [] as string[],
    syncFlushes: 0,
    write(text: string) {
      writer.writes.push(text);
      return true;
    },
    flushSync() {
      writer.syncFlushes++;
    },
  };
  return writer;
}

describe('gathered log lines', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands over many lines as one write once maxChars wait', () => {
    const writer = recordingWriter();
    const lines = new GatheredLines(writer, { maxChars: 100, maxDelayMs: 200 });
    for (let i = 0; i < 9; i++) lines.write(`line ${i}.....\n`); // 12 characters each: 108 after the ninth
    expect(writer.writes).toEqual([Array.from({ length: 9 }, (_, i) => `line ${i}.....\n`).join('')]);
    lines.write('next\n');
    expect(writer.writes).toHaveLength(1);
  });

  it('hands over a lone line maxDelayMs after it arrived, not before', () => {
    const writer = recordingWriter();
    const lines = new GatheredLines(writer, { maxChars: 1000, maxDelayMs: 200 });
    lines.write('first\n');
    vi.advanceTimersByTime(150);
    lines.write('second\n'); // the delay counts from the first line held
    vi.advanceTimersByTime(49);
    expect(writer.writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writer.writes).toEqual(['first\nsecond\n']);
    // Nothing held: no timer and no empty write.
    vi.advanceTimersByTime(1000);
    expect(writer.writes).toHaveLength(1);
  });

  it('flushSync hands over what is held and writes it synchronously', () => {
    const writer = recordingWriter();
    const lines = new GatheredLines(writer, { maxChars: 1000, maxDelayMs: 200 });
    lines.write('held\n');
    lines.flushSync();
    expect(writer.writes).toEqual(['held\n']);
    expect(writer.syncFlushes).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(writer.writes).toHaveLength(1);
  });
});
