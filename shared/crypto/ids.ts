/**
 * Time-ordered ids (UUID version 7, RFC 9562) for rows written on hot paths — an audit row per
 * tool call and per endpoint request. The `uuid` package lays the bytes out; the random bytes
 * come from a pool filled 256 ids at a time (its default asks WebCrypto for 16 bytes per id, a
 * tenth of an endpoint request's id-and-audit work), and ids made in the same millisecond stay in
 * the order they were made (the 32-bit counter method of RFC 9562 §6.2, as the package does
 * without options).
 */
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

const idsPerFill = 256;
const pool = Buffer.alloc(16 * idsPerFill);
let taken = pool.length;
const clock = { msecs: -Infinity, seq: 0 };

function random16(): Uint8Array {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  taken += 16;
  return pool.subarray(taken - 16, taken);
}

/**
 * A new UUIDv7: milliseconds since the epoch, a counter within the millisecond, random bits. With
 * `atMs`, the id carries that time instead (an event's own), and its counter is random.
 */
export function uuidv7(atMs?: number): string {
  const random = random16();
  if (atMs !== undefined) return text(v7({ random, msecs: atMs }, bytes));
  const now = Date.now();
  if (now > clock.msecs) {
    clock.msecs = now;
    // The counter starts at a random point each millisecond (the package's own rule).
    clock.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs += 1;
  }
  return text(v7({ random, msecs: clock.msecs, seq: clock.seq }, bytes));
}

/** The id's bytes, laid out by the package into one buffer and written as text here. */
const bytes = Buffer.alloc(16);

/** 8-4-4-4-12 lower-case hex: one hex string cut five ways (the package joins 16 pieces and 4 dashes, one string each). */
function text(id: Uint8Array): string {
  const hex = (id as Buffer).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
