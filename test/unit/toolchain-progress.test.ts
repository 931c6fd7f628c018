/**
 * Slow start-up steps say what they are doing and for how long, on the terminal (issue 35):
 * withProgress against an injected clock (vitest's fake timers), so no test depends on speed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withProgress } from '../../shared/toolchain/index.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A step that ends when the fake clock reaches `ms`. */
const stepLasting = (ms: number) => () => new Promise<string>((resolve) => setTimeout(() => resolve('ok'), ms));

describe('withProgress', () => {
  it('prints nothing for a step under two seconds', async () => {
    const lines: string[] = [];
    const done = withProgress('starting PostgreSQL', stepLasting(1_900), { write: (l) => lines.push(l) });
    await vi.advanceTimersByTimeAsync(1_900);
    expect(await done).toBe('ok');
    expect(lines).toEqual([]);
  });

  it('a step past two seconds prints what it does and the seconds so far, repeatedly, then how long it took', async () => {
    const lines: string[] = [];
    const done = withProgress('fetching the temporal binary', stepLasting(12_400), { write: (l) => lines.push(l) });
    await vi.advanceTimersByTimeAsync(12_400);
    await done;
    expect(lines).toEqual([
      'fetching the temporal binary … 2 s',
      'fetching the temporal binary … 7 s',
      'fetching the temporal binary … 12 s',
      'fetching the temporal binary: done in 12 s',
    ]);
  });

  it('stops reporting when the step fails, and passes the error on', async () => {
    const lines: string[] = [];
    const failing = () => new Promise<never>((_, reject) => setTimeout(() => reject(new Error('boom')), 3_000));
    const done = withProgress('building minio', failing, { write: (l) => lines.push(l) });
    const settled = expect(done).rejects.toThrow('boom');
    await vi.advanceTimersByTimeAsync(3_000);
    await settled;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(lines).toEqual(['building minio … 2 s']);
  });
});
