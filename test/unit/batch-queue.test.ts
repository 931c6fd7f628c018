/**
 * Issue 41 (scale-out with database sessions): statements shared by the callers that arrive while
 * the previous one is in flight — one statement at a time, none delayed when idle.
 */
import { describe, expect, it } from 'vitest';
import { BatchQueue } from '../../shared/db/batch-queue.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A queue whose batches are held until released, recording what each carried. */
function heldQueue(fits: (batch: readonly number[], next: number) => boolean = () => true) {
  const batches: number[][] = [];
  const release: Array<(fail?: Error) => void> = [];
  const queue = new BatchQueue<number, string>(
    (items) =>
      new Promise((resolve, reject) => {
        batches.push(items);
        release.push((fail) => (fail ? reject(fail) : resolve(items.map((n) => `done ${n}`))));
      }),
    fits,
  );
  return { queue, batches, release };
}

describe('BatchQueue', () => {
  it('runs the callers of one turn together, and the callers that arrive meanwhile together in the next batch', async () => {
    const { queue, batches, release } = heldQueue();
    const first = queue.submit(1);
    expect(batches).toEqual([]);
    await turn();
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((n) => queue.submit(n));
    await turn();
    expect(batches).toEqual([[1]]);
    release.shift()!();
    expect(await first).toBe('done 1');
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    release.shift()!();
    expect(await Promise.all(rest)).toEqual(['done 2', 'done 3', 'done 4']);
    expect(batches).toHaveLength(2);
  });

  it('a batch takes what fits and the rest goes in the next', async () => {
    const { queue, batches, release } = heldQueue((batch) => batch.length < 2);
    const all = [1, 2, 3, 4, 5].map((n) => queue.submit(n));
    for (let i = 0; i < 3; i++) {
      await turn();
      release.shift()!();
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5].map((n) => `done ${n}`));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('a batch always takes its first caller, even one that fits nothing', async () => {
    const { queue, batches, release } = heldQueue(() => false);
    const all = [1, 2, 3].map((n) => queue.submit(n));
    for (let i = 0; i < 3; i++) {
      await turn();
      release.shift()!();
    }
    await Promise.all(all);
    expect(batches).toEqual([[1], [2], [3]]);
  });

  it('a failed batch fails each of its callers only; the next batch still runs', async () => {
    const { queue, batches, release } = heldQueue();
    const first = queue.submit(1);
    await turn();
    const second = [queue.submit(2), queue.submit(3)];
    release.shift()!(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await turn();
    release.shift()!();
    expect(await Promise.all(second)).toEqual(['done 2', 'done 3']);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('an idle queue starts again on the next turn', async () => {
    const { queue, batches, release } = heldQueue();
    const first = queue.submit(1);
    await turn();
    release.shift()!();
    await first;
    const second = queue.submit(2);
    expect(batches).toEqual([[1]]);
    await turn();
    expect(batches).toEqual([[1], [2]]);
    release.shift()!();
    expect(await second).toBe('done 2');
  });
});
