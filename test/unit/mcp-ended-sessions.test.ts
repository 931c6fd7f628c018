/**
 * Issue 41 (scale-out with database sessions): a replica's session work goes to the database in
 * steps, each within bounds: at most 100 opens and 100 reads, and the ids it ends announced in one
 * NOTIFY within Postgres's payload limit whichever of them exist.
 */
import { describe, expect, it } from 'vitest';
import { endedSessionIds, fitsStep, type SessionWork } from '../../api/mcp/database-sessions.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const end = (n: number): SessionWork => ({ end: { id: id(n), subject: 'apikey:a' } });
const read = (n: number): SessionWork => ({ read: { id: id(n), subject: 'apikey:a' } });
const open = (n: number): SessionWork => ({ open: { id: id(n), subject: 'apikey:a', protocolVersion: '2025-11-25', clientInfo: {}, capabilities: {} } });

/** The step a queue of `work` would form: as much as fits, at least the first. */
function stepOf(work: SessionWork[]): SessionWork[] {
  const step = [work[0]!];
  while (step.length < work.length && fitsStep(step, work[step.length]!)) step.push(work[step.length]!);
  return step;
}

describe('session steps', () => {
  it('the ends of a step never pass the 7,999-byte NOTIFY payload', () => {
    const step = stepOf(Array.from({ length: 400 }, (_, n) => end(n)));
    const payload = step.map((w) => ('end' in w ? w.end.id : '')).join(',');
    expect(step).toHaveLength(216); // 216 × 36 + 215 commas = 7,991
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7999);
    expect(endedSessionIds(payload)).toHaveLength(216);
  });

  it('counts bytes, not characters', () => {
    const long = (chars: number): SessionWork => ({ end: { id: 'é'.repeat(chars), subject: 'apikey:a' } });
    expect(fitsStep([long(3999)], { end: { id: 'x', subject: 'apikey:a' } })).toBe(false); // 7,998 + 1 + 1 bytes
    expect(fitsStep([long(3998)], { end: { id: 'x', subject: 'apikey:a' } })).toBe(true);
  });

  it('takes at most 100 opens and 100 reads, and other work beside them', () => {
    expect(stepOf(Array.from({ length: 150 }, (_, n) => open(n)))).toHaveLength(100);
    expect(stepOf(Array.from({ length: 150 }, (_, n) => read(n)))).toHaveLength(100);
    const mixed = Array.from({ length: 330 }, (_, n) => [open, read, end][n % 3]!(n));
    expect(stepOf(mixed)).toHaveLength(300); // 100 of each; the 101st open is the 301st item
    expect(fitsStep(Array.from({ length: 100 }, (_, n) => open(n)), read(0))).toBe(true);
    expect(fitsStep(Array.from({ length: 100 }, (_, n) => open(n)), end(0))).toBe(true);
  });

  it('an announcement names ids separated by commas; an empty one names none', () => {
    expect(endedSessionIds('a,b')).toEqual(['a', 'b']);
    expect(endedSessionIds('')).toEqual([]);
  });
});
