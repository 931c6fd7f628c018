/**
 * The memory OAuth store stays bounded: anyone can start authorizations or register clients in a
 * loop, so a full store makes room (expired records first, then the oldest) instead of growing.
 * Its other semantics are the contract suite's (test/integration/oauth-store.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { memoryOAuthStore } from '../../shared/oauth/index.js';
import { pendingAuthorization, registeredClient } from '../support/oauth-records.js';

const hour = 3_600_000;

const pending = (id: string, expiresAt: number) => pendingAuthorization({ id, expiresAt });
const client = (id: string, createdAt: number) => registeredClient({ id, createdAt });

/** Which of `ids` a store still holds, taking each (so call it once per store). */
async function heldPending(store: ReturnType<typeof memoryOAuthStore>, ids: string[], now: number): Promise<string[]> {
  const held: string[] = [];
  for (const id of ids) if (await store.takePendingAuthorization(id, now)) held.push(id);
  return held;
}

describe('memoryOAuthStore capacity', () => {
  it('a full store evicts the oldest live records instead of growing', async () => {
    const store = memoryOAuthStore({ maxEntries: 3 });
    const now = Date.now();
    const ids = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const id of ids) await store.savePendingAuthorization(pending(id, now + hour));
    expect(await heldPending(store, ids, now)).toEqual(['p3', 'p4', 'p5']);
  });

  it('a full store drops its expired records before any live one', async () => {
    const store = memoryOAuthStore({ maxEntries: 3 });
    const now = Date.now();
    await store.savePendingAuthorization(pending('live-oldest', now + hour));
    await store.savePendingAuthorization(pending('expired-1', now - 1));
    await store.savePendingAuthorization(pending('expired-2', now - 1));
    await store.savePendingAuthorization(pending('live-new', now + hour));
    await store.savePendingAuthorization(pending('live-newer', now + hour));
    // Both expired records made room; the oldest live one is still there.
    expect(await heldPending(store, ['live-oldest', 'live-new', 'live-newer'], now)).toEqual(['live-oldest', 'live-new', 'live-newer']);
  });

  it('a flood of registrations evicts the least recently used client, not one just used', async () => {
    const store = memoryOAuthStore({ maxEntries: 3 });
    const now = Date.now();
    for (const id of ['c1', 'c2', 'c3']) await store.registerClient(client(id, now));
    await store.touchClient('c1', now);
    await store.registerClient(client('c4', now));
    const held = [];
    for (const id of ['c1', 'c2', 'c3', 'c4']) if (await store.findClient(id)) held.push(id);
    expect(held).toEqual(['c1', 'c3', 'c4']);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => memoryOAuthStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => memoryOAuthStore({ maxEntries: 1.5 })).toThrow(RangeError);
  });
});
