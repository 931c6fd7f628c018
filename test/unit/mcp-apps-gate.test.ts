/**
 * The gate that bounds MCP App page assemblies in one process (shared/mcp-apps/gate.ts): a burst
 * of reads never runs more than the limit at once, waits in arrival order, and a failure frees
 * its slot.
 */
import { describe, expect, it } from 'vitest';
import { concurrencyGate } from '../../shared/mcp-apps/gate.js';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('MCP App assembly gate', () => {
  it('runs at most the limit at once, the rest in arrival order; a failure frees its slot', async () => {
    const gate = concurrencyGate(2);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const works = Array.from({ length: 5 }, () => deferred());
    const results = works.map((work, i) =>
      gate(async () => {
        started.push(i);
        peak = Math.max(peak, ++running);
        try {
          await work.promise;
          return i;
        } finally {
          running--;
        }
      }).catch((error: Error) => error.message),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(started).toEqual([0, 1]);
    works[1]!.reject(new Error('unreadable'));
    await settle();
    expect(started).toEqual([0, 1, 2]);
    // A newcomer while others wait queues behind them.
    const late = gate(async () => 'late');
    works[0]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const work of works) work.resolve();
    expect(await Promise.all(results)).toEqual([0, 'unreadable', 2, 3, 4]);
    expect(await late).toBe('late');
    expect(peak).toBe(2);
  });
});
