/**
 * Issue 41 (scale-out with database sessions): a replica announces the sessions it ended a group
 * at a time — one NOTIFY in flight, the sessions ended meanwhile together in the next, each within
 * Postgres's payload limit — instead of a NOTIFY in every DELETE's own commit.
 */
import { describe, expect, it } from 'vitest';
import { announcementOf, EndedSessionAnnouncer, endedSessionIds, sessionEndedChannel } from '../../api/mcp/database-sessions.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('ended-session announcements', () => {
  it('one NOTIFY in flight; what ends meanwhile goes out together in the next', async () => {
    const sent: string[] = [];
    const inFlight: Array<() => void> = [];
    const db = {
      query: (_text: string, values: unknown[]) => {
        expect(values[0]).toBe(sessionEndedChannel);
        sent.push(values[1] as string);
        return new Promise<never>((resolve) => inFlight.push(() => resolve({ rows: [] } as never)));
      },
    };
    const announcer = new EndedSessionAnnouncer(db as never, { warn: () => undefined });
    announcer.announce(uuid(1));
    for (let i = 2; i <= 5; i++) announcer.announce(uuid(i));
    expect(sent).toEqual([uuid(1)]);
    inFlight.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([uuid(1), [2, 3, 4, 5].map(uuid).join(',')]);
    expect(endedSessionIds(sent[1]!)).toEqual([2, 3, 4, 5].map(uuid));
    inFlight.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
  });

  it('a failed NOTIFY is logged and the next group still goes out', async () => {
    const sent: string[] = [];
    let fail = true;
    let warnings = 0;
    const db = {
      query: async (_text: string, values: unknown[]) => {
        sent.push(values[1] as string);
        if (fail) {
          fail = false;
          throw new Error('connection lost');
        }
        return { rows: [] };
      },
    };
    const announcer = new EndedSessionAnnouncer(db as never, { warn: () => void warnings++ });
    announcer.announce(uuid(1));
    await new Promise((resolve) => setImmediate(resolve));
    announcer.announce(uuid(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([uuid(1), uuid(2)]);
    expect(warnings).toBe(1);
  });

  it('a group never passes the 7,999-byte NOTIFY payload: the rest waits for the next', () => {
    const ids = Array.from({ length: 400 }, (_, i) => uuid(i));
    const first = announcementOf(ids);
    expect(Buffer.byteLength(first.payload)).toBeLessThanOrEqual(7999);
    expect(endedSessionIds(first.payload)).toEqual(ids.slice(0, 216)); // 216 × 36 + 215 commas = 7,991
    expect(first.rest).toEqual(ids.slice(216));
  });
});
