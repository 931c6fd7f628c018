/**
 * Time-ordered ids (shared/crypto uuidv7): version 7 and the RFC 9562 variant, the time they
 * carry, ids made in one millisecond in the order they were made, and no repeats across the
 * random pool's refills.
 */
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../shared/crypto/index.js';

const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msecsOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('uuidv7', () => {
  it('is a version-7 UUID of the RFC 9562 variant carrying the time it was made', () => {
    const before = Date.now();
    const id = uuidv7();
    expect(id).toMatch(shape);
    expect(msecsOf(id)).toBeGreaterThanOrEqual(before);
    expect(msecsOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it('orders ids in the order they were made, within a millisecond too, and never repeats one (pool refilled many times)', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries a time it is given', () => {
    const at = Date.UTC(2024, 0, 2, 3, 4, 5, 678);
    const id = uuidv7(at);
    expect(id).toMatch(shape);
    expect(msecsOf(id)).toBe(at);
  });
});
