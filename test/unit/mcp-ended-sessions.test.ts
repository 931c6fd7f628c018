/**
 * Issue 41 (scale-out with database sessions): a replica ends sessions a batch at a time, and the
 * batch's announcement (the ids that existed, on `sessionEndedChannel`) stays within Postgres's
 * NOTIFY payload limit whichever of the asked ids exist.
 */
import { describe, expect, it } from 'vitest';
import { endedSessionIds, fitsAnnouncement } from '../../api/mcp/database-sessions.js';

const uuid = (n: number) => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });

describe('ended-session announcements', () => {
  it('a batch of ends never passes the 7,999-byte NOTIFY payload', () => {
    const batch: Array<{ id: string }> = [];
    for (let n = 0; n < 400 && (batch.length === 0 || fitsAnnouncement(batch, uuid(n))); n++) batch.push(uuid(n));
    const payload = batch.map((s) => s.id).join(',');
    expect(batch).toHaveLength(216); // 216 × 36 + 215 commas = 7,991
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(7999);
    expect(endedSessionIds(payload)).toEqual(batch.map((s) => s.id));
  });

  it('counts bytes, not characters', () => {
    expect(fitsAnnouncement([{ id: 'é'.repeat(3999) }], { id: 'x' })).toBe(false); // 7,998 + 1 + 1 bytes
    expect(fitsAnnouncement([{ id: 'é'.repeat(3998) }], { id: 'x' })).toBe(true);
  });

  it('an announcement names ids separated by commas; an empty one names none', () => {
    expect(endedSessionIds('a,b')).toEqual(['a', 'b']);
    expect(endedSessionIds('')).toEqual([]);
  });
});
