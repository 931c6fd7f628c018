/**
 * The pure rules behind list_changed across replicas: the NOTIFY payload of a resource change
 * (what it carries, that it always fits, what is refused), whom a change reaches (the
 * resources/list membership rule), the LISTEN reconnect backoff, and how list_changed is paced.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { reconnectDelay } from '../../shared/db/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import {
  decodeResourceChange,
  encodeResourceChange,
  MAX_NOTIFY_PAYLOAD_BYTES,
  resourceActor,
  type ResourceChangeEvent,
} from '../../shared/resources/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { listChangedIntervalMs, listChangeReaches, listChangedWindowMs, notifyResourceListChanges } from '../../api/mcp/notifications.js';

const id = '0190a5f0-0000-7000-8000-000000000001';
const event = (library: string, previousLibrary?: string): ResourceChangeEvent => ({
  kind: 'updated',
  resource: { id, library, uri: 'mcp://global/a.txt' },
  ...(previousLibrary ? { previousLibrary } : {}),
});

describe('resource change payload', () => {
  it('carries origin, kind, id and the changed libraries — the left one too on a move — and no address', () => {
    const payload = encodeResourceChange('replica-a', event('persona:analyst', 'persona:staff'))!;
    expect(JSON.parse(payload)).toEqual({ origin: 'replica-a', kind: 'updated', id, libraries: ['persona:analyst', 'persona:staff'] });
    expect(decodeResourceChange(payload)).toEqual({
      origin: 'replica-a',
      notice: { kind: 'updated', id, libraries: ['persona:analyst', 'persona:staff'] },
    });
    expect(decodeResourceChange(encodeResourceChange('replica-a', event('global'))!)?.notice.libraries).toEqual(['global']);
  });

  it('is not produced when it would reach the NOTIFY limit (which would fail the write)', () => {
    const near = 'x'.repeat(MAX_NOTIFY_PAYLOAD_BYTES - 200);
    expect(Buffer.byteLength(encodeResourceChange('o', event(`person:${near}`))!)).toBeLessThanOrEqual(MAX_NOTIFY_PAYLOAD_BYTES);
    expect(encodeResourceChange('o', event(`person:${near}`, `person:${near}`))).toBeUndefined();
    // Bytes, not characters: multi-byte subjects count in full.
    expect(encodeResourceChange('o', event(`person:${'é'.repeat(MAX_NOTIFY_PAYLOAD_BYTES / 2)}`))).toBeUndefined();
  });

  it('refuses anything on the channel that is not a well-formed change', () => {
    for (const payload of [
      'not json',
      'null',
      '[]',
      JSON.stringify({ kind: 'created', id, libraries: ['global'] }),
      JSON.stringify({ origin: 'o', kind: 'exploded', id, libraries: ['global'] }),
      JSON.stringify({ origin: 'o', kind: 'created', libraries: ['global'] }),
      JSON.stringify({ origin: 'o', kind: 'created', id, libraries: [] }),
      JSON.stringify({ origin: 'o', kind: 'created', id, libraries: [7] }),
      JSON.stringify({ origin: 'o', kind: 'created', id, libraries: 'global' }),
    ]) {
      expect(decodeResourceChange(payload), payload).toBeUndefined();
    }
  });
});

describe('whom a resource list change reaches', () => {
  const { config } = parseConfig(
    `personas:
  definitions:
    staff: { roles: [staff] }
    analyst: { roles: [analyst] }
    admin: { roles: [admin] }
admin:
  persona: admin
`,
    {},
  );
  const actor = (subject: string, roles: string[]) => {
    const caller: CallerContext = { subject, roles, authType: 'apikey' };
    return resourceActor(caller, { config, origin: 'agent' });
  };
  const bob = actor('apikey:bob', ['staff']);
  const root = actor('apikey:root', ['staff', 'admin']);
  const reaches = (who: typeof bob, ...libraries: string[]) => listChangeReaches(true, who, new Set(libraries));

  it('reaches members of a changed library: own, member persona, global', () => {
    expect(reaches(bob, 'person:apikey:bob')).toBe(true);
    expect(reaches(bob, 'persona:staff')).toBe(true);
    expect(reaches(bob, 'global')).toBe(true);
  });

  it('does not reach others: another person, a persona the caller does not belong to', () => {
    expect(reaches(bob, 'person:apikey:alice')).toBe(false);
    expect(reaches(bob, 'persona:analyst')).toBe(false);
  });

  it('follows resources/list for administrators too: membership, not administration', () => {
    expect(reaches(root, 'person:apikey:alice')).toBe(false);
    expect(reaches(root, 'persona:analyst')).toBe(false);
    expect(reaches(root, 'persona:admin')).toBe(true);
  });

  it('reaches a caller when any changed library is theirs (a move out of their library)', () => {
    expect(reaches(bob, 'persona:analyst', 'persona:staff')).toBe(true);
  });

  it('after missed changes (libraries unknown) reaches every caller who lists resources, and none who does not', () => {
    expect(listChangeReaches(true, bob, undefined)).toBe(true);
    expect(listChangeReaches(false, bob, undefined)).toBe(false);
    expect(listChangeReaches(false, bob, new Set(['global']))).toBe(false);
  });
});

describe('LISTEN reconnect backoff', () => {
  it('doubles from the initial delay and stays at the cap', () => {
    const backoff = { initialMs: 100, maxMs: 10_000 };
    expect([0, 1, 2, 3, 6, 7, 8, 1000].map((attempt) => reconnectDelay(attempt, backoff))).toEqual([100, 200, 400, 800, 6400, 10_000, 10_000, 10_000]);
  });
});

describe('list_changed pacing', () => {
  it('gathers changes for a window, and spaces sends at least listChangedIntervalMs apart', () => {
    let clock = 0;
    const held: Array<{ send: () => void; delayMs: number }> = [];
    const handlers: Array<{ changed(notice: { kind: 'created'; id: string; libraries: string[] }): void }> = [];
    let sent = 0;
    notifyResourceListChanges({
      changes: { subscribe: (h) => (handlers.push(h), () => undefined) },
      targets: [{ caller: () => ({ subject: 's', roles: [], authType: 'apikey' }), sendResourceListChanged: async () => void sent++, sendPromptListChanged: async () => undefined }],
      reaches: () => true,
      log: silentLogger(),
      schedule: (send, delayMs) => held.push({ send, delayMs }),
      now: () => clock,
    });
    const change = () => handlers[0]!.changed({ kind: 'created', id, libraries: ['global'] });
    change();
    change();
    expect(held.map((h) => h.delayMs)).toEqual([listChangedWindowMs]);
    clock = 50;
    held.shift()!.send();
    expect(sent).toBe(1);
    // Soon after a send: the next window waits out the interval.
    clock = 150;
    change();
    expect(held.map((h) => h.delayMs)).toEqual([listChangedIntervalMs - 100]);
    clock = 1050;
    held.shift()!.send();
    // Long after the last send: the window alone.
    clock = 5000;
    change();
    expect(held.map((h) => h.delayMs)).toEqual([listChangedWindowMs]);
    expect(sent).toBe(2);
  });
});
