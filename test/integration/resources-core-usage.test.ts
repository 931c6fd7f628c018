/**
 * Reads, usage and writer records. Content reads by door, image-tile reads and moves are audit
 * rows naming their resource; usage (30 and 90 days by door, last read, never read) is counted
 * from those rows, cut off at audit.retention_days even before housekeeping deletes older rows;
 * with audit off nothing is recorded and usage answers "not recorded". Reads stamp last read
 * (not image tiles) either way. Writer records list persons, agent sessions and scripts, created
 * vs modified, most recent first. Change events fire after commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadDoor, ResourceActor, ResourceChangeEvent } from '../../shared/resources/index.js';
import { agent, body, person, personaLib, personLib, refused, startResourceEnv, text, type ResourceEnv } from './resources-core-fixtures.js';

const day = 86_400_000;
const t0 = new Date('2024-06-01T00:00:00.000Z');
const daysBefore = (days: number) => new Date(t0.getTime() - days * day);

interface AuditedRow {
  tool: string;
  subject: string;
  outcome: string;
  resource_id: string | null;
  parameters: Record<string, unknown>;
}
const auditRows = async (env: ResourceEnv, resourceId: string) =>
  (await env.db.query<AuditedRow>(`SELECT tool, subject, outcome, resource_id, parameters FROM audit_log WHERE resource_id = $1 ORDER BY occurred_at`, [resourceId])).rows;

describe('usage with audit on', () => {
  let env: ResourceEnv;
  let now = t0;
  const alice = () => person(env, 'alice');
  const sam = () => person(env, 'sam', ['sales']);
  const root = () => person(env, 'root', ['platform-admin']);
  const create = async (who: ResourceActor, name: string, at = t0) => {
    now = at;
    return (await env.service.create(who, { library: personLib(who.subject), path: '', file_name: name, if_exists: 'fail', origin: 'portal', body: body('u') })).resource;
  };
  const read = async (id: string, door: ReadDoor, at: Date, who: ResourceActor = alice()) => {
    now = at;
    const opened = await env.service.openContent(who, id, door);
    expect(await text(opened.body)).toBe('u');
    return opened;
  };
  const usageAt = async (id: string, who: ResourceActor = alice()) => {
    now = t0;
    return env.service.usage(who, id);
  };

  beforeAll(async () => {
    env = await startResourceEnv('filesystem', { audit: true, clock: () => now });
  }, 120_000);
  afterAll(async () => env?.stop());

  it('audits each read under its door, written before the bytes are served, and counts usage from those rows', async () => {
    const doc = await create(alice(), 'u.txt', daysBefore(120));
    await read(doc.id, 'resources_read', daysBefore(80)); // within 90, not 30
    await read(doc.id, 'resources_read', daysBefore(100)); // outside both
    await read(doc.id, 'search_fetch', daysBefore(10));
    await read(doc.id, 'portal_download', daysBefore(2));
    const lastDownload = daysBefore(1);
    const opened = await read(doc.id, 'portal_download', lastDownload, root());
    expect(opened.resource.last_read_at).toBe(lastDownload.toISOString());
    await read(doc.id, 'portal_preview', new Date(t0.getTime() - 1000));
    // No flush: the rows are there as soon as the reads returned.
    const rows = await auditRows(env, doc.id);
    expect(rows.map((r) => r.tool)).toEqual(['resources/read', 'resources/read', 'search_fetch', 'portal_download', 'portal_download', 'portal_preview']);
    expect(rows.every((r) => r.outcome === 'ok')).toBe(true);
    expect(rows[4]).toMatchObject({ subject: 'root', parameters: { reference: `mcp:resource:${doc.id}`, uri: doc.uri, version: 1 } });
    expect(await usageAt(doc.id)).toEqual({
      recorded: true,
      last_read_at: lastDownload.toISOString(),
      never_read: false,
      last_30_days: { resources_read: 0, search_fetch: 1, portal_download: 2, portal_preview: 1 },
      last_90_days: { resources_read: 1, search_fetch: 1, portal_download: 2, portal_preview: 1 },
      retention_days: 90,
    });
    // An image tile does not stamp last read.
    expect((await env.service.get(root(), doc.id)).last_read_at).toBe(lastDownload.toISOString());
  });

  it('counts only audit rows: deleting them (as retention does) removes them from usage', async () => {
    const doc = await create(alice(), 'gone.txt', daysBefore(60));
    await read(doc.id, 'portal_download', daysBefore(5));
    expect(await usageAt(doc.id)).toMatchObject({ recorded: true, last_30_days: { portal_download: 1 } });
    await env.db.query('DELETE FROM audit_log WHERE resource_id = $1', [doc.id]);
    expect(await usageAt(doc.id)).toMatchObject({ recorded: true, last_read_at: null, never_read: true, last_30_days: { portal_download: 0 } });
  });

  it('never read: a file at least 30 days old with no content read; image tiles are not reads; a young file is not flagged', async () => {
    const old = await create(alice(), 'old.txt', daysBefore(30));
    await read(old.id, 'portal_preview', daysBefore(1));
    expect(await usageAt(old.id)).toMatchObject({ never_read: true, last_read_at: null, last_30_days: { portal_preview: 1 } });
    const young = await create(alice(), 'young.txt', daysBefore(29));
    expect(await usageAt(young.id)).toMatchObject({ never_read: false, last_read_at: null });
  });

  it('a move is one audit row in the move\'s transaction: who moved what from which library and folder to which', async () => {
    const doc = await create(sam(), 'm.txt');
    now = t0;
    const moved = await env.service.update(sam(), doc.id, { library: personaLib('sales'), path: 'deals' });
    const rows = await auditRows(env, doc.id);
    expect(rows).toEqual([
      {
        tool: 'resource_move',
        subject: 'sam',
        outcome: 'ok',
        resource_id: doc.id,
        parameters: {
          reference: `mcp:resource:${doc.id}`,
          from: { library: 'person:sam', path: '', uri: doc.uri },
          to: { library: 'persona:sales', path: 'deals', uri: moved.uri },
        },
      },
    ]);
    // An edit that moves nothing, and a refused move, add no row.
    await env.service.update(sam(), doc.id, { description: 'no move' });
    const blocker = (await env.service.create(root(), { library: personaLib('sales'), path: 'other', file_name: 'm.txt', if_exists: 'fail', origin: 'portal', body: body('b') })).resource;
    await refused(env.service.update(sam(), doc.id, { path: 'other' }), 'conflict');
    expect(await auditRows(env, doc.id)).toHaveLength(1);
    expect(await auditRows(env, blocker.id)).toEqual([]);
    // Moves are not reads.
    expect(await usageAt(doc.id, sam())).toMatchObject({ last_read_at: null, last_90_days: { resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 } });
  });
});

describe('usage bounded by audit retention (audit on, tool-call logging off)', () => {
  let env: ResourceEnv;
  let now = t0;
  beforeAll(async () => {
    env = await startResourceEnv('filesystem', { extraYaml: 'audit:\n  enabled: true\n  retention_days: 30', clock: () => now });
  }, 120_000);
  afterAll(async () => env?.stop());

  it('rows older than retention_days do not count, in any window or as the last read, before housekeeping removed them', async () => {
    const alice = person(env, 'alice');
    now = daysBefore(100);
    const doc = (await env.service.create(alice, { library: personLib('alice'), path: '', file_name: 'r.txt', if_exists: 'fail', origin: 'portal', body: body('r') })).resource;
    for (const [door, days] of [
      ['resources_read', 45],
      ['search_fetch', 31],
      ['portal_download', 29],
      ['portal_download', 20],
    ] as const) {
      now = daysBefore(days);
      await text((await env.service.openContent(alice, doc.id, door)).body);
    }
    // Recorded although audit.log_tool_calls is off: that switch governs tool calls only.
    expect((await auditRows(env, doc.id)).map((r) => r.tool)).toEqual(['resources/read', 'search_fetch', 'portal_download', 'portal_download']);
    now = t0;
    expect(await env.service.usage(alice, doc.id)).toEqual({
      recorded: true,
      last_read_at: daysBefore(20).toISOString(),
      never_read: false,
      last_30_days: { resources_read: 0, search_fetch: 0, portal_download: 2, portal_preview: 0 },
      last_90_days: { resources_read: 0, search_fetch: 0, portal_download: 2, portal_preview: 0 },
      retention_days: 30,
    });
    // Eleven days on, every read on record is older than retention: nothing is left, and the file counts as never read.
    now = new Date(t0.getTime() + 11 * day);
    expect(await env.service.usage(alice, doc.id)).toMatchObject({
      last_read_at: null,
      never_read: true,
      last_90_days: { resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 },
    });
  });
});

describe('usage with audit off', () => {
  let env: ResourceEnv;
  beforeAll(async () => {
    env = await startResourceEnv('filesystem');
  }, 120_000);
  afterAll(async () => env?.stop());

  it('records no reads or moves and answers that usage is not recorded, while last read is still stamped', async () => {
    const alice = person(env, 'alice');
    const doc = (await env.service.create(alice, { library: personLib('alice'), path: '', file_name: 'u.txt', if_exists: 'fail', origin: 'portal', body: body('u') })).resource;
    await text((await env.service.openContent(alice, doc.id, 'resources_read')).body);
    await text((await env.service.openContent(alice, doc.id, 'portal_download')).body);
    await env.service.update(alice, doc.id, { path: 'moved' });
    expect((await env.db.query('SELECT 1 FROM audit_log')).rowCount).toBe(0);
    expect(await env.service.usage(alice, doc.id)).toEqual({
      recorded: false,
      message: 'usage is not recorded: audit is off (audit.enabled is false), so reads are not recorded',
    });
    expect((await env.service.get(person(env, 'root', ['platform-admin']), doc.id)).last_read_at).not.toBeNull();
  });

  it('writer records: persons, agent sessions and scripts; created vs modified; most recent first', async () => {
    let now = new Date('2024-01-01T00:00:00.000Z');
    const service = env.replica({ clock: () => now });
    const alice = person(env, 'alice');
    const doc = (await service.create(alice, { library: personLib('alice'), path: 'w', file_name: 'w.txt', if_exists: 'fail', origin: 'portal', body: body('1') })).resource;
    now = new Date('2024-01-02T00:00:00.000Z');
    await service.replaceContent(agent(env, 'alice', [], 'sess-42'), doc.id, { body: body('2'), origin: 'agent' });
    now = new Date('2024-01-03T00:00:00.000Z');
    const script: ResourceActor = { ...alice, writer: { kind: 'script', scriptId: 'script-7', name: 'nightly export' } };
    await service.create(script, { library: personLib('alice'), path: 'w', file_name: 'w.txt', if_exists: 'replace', origin: 'script', body: body('3') });
    now = new Date('2024-01-04T00:00:00.000Z');
    await service.update(agent(env, 'alice', [], 'sess-42'), doc.id, { description: 'edited by the agent' });
    expect(await service.writers(alice, doc.id)).toEqual([
      { kind: 'agent_session', id: 'sess-42', display: 'sess-42', created: false, last_written_at: '2024-01-04T00:00:00.000Z' },
      { kind: 'script', id: 'script-7', display: 'nightly export', created: false, last_written_at: '2024-01-03T00:00:00.000Z' },
      { kind: 'person', id: 'alice', display: 'alice', created: true, last_written_at: '2024-01-01T00:00:00.000Z' },
    ]);
  });

  it('change events fire after commit for created, replaced, updated and deleted; refusals fire nothing', async () => {
    const alice = person(env, 'alice');
    const events: ResourceChangeEvent[] = [];
    const off = env.service.onChange((e) => events.push(e));
    env.service.onChange(() => {
      throw new Error('a broken listener does not break writes');
    });
    const doc = (await env.service.create(alice, { library: personLib('alice'), path: 'ev', file_name: 'e.txt', if_exists: 'fail', origin: 'portal', body: body('1') })).resource;
    await refused(env.service.create(alice, { library: personLib('alice'), path: 'ev', file_name: 'e.txt', if_exists: 'fail', origin: 'portal', body: body('1') }), 'conflict');
    await env.service.create(alice, { library: personLib('alice'), path: 'ev', file_name: 'e.txt', if_exists: 'skip_unchanged', origin: 'portal', body: body('1') });
    await env.service.replaceContent(alice, doc.id, { body: body('2'), origin: 'portal' });
    const moved = await env.service.update(alice, doc.id, { path: 'ev2' });
    await env.service.delete(alice, doc.id, { force: false });
    off();
    expect(events.map((e) => e.kind)).toEqual(['created', 'replaced', 'updated', 'deleted']);
    expect(events[0]!.resource).toEqual({ id: doc.id, library: 'person:alice', uri: doc.uri });
    expect(events[2]!.resource.uri).toBe(moved.uri);
  });
});
