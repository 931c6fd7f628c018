/**
 * Reads, usage and writer records: reads stamp last read (not image tiles) and, only while audit
 * runs, land in resource_reads and the audit log under their door; usage counts by door over 30
 * and 90 days with the last read; with audit off nothing is recorded and usage is empty. Writer
 * records list persons, agent sessions and scripts, created vs modified, most recent first.
 * Change events fire after commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceActor, ResourceChangeEvent } from '../../shared/resources/index.js';
import { agent, body, person, personLib, refused, startResourceEnv, text, type ResourceEnv } from './resources-core-fixtures.js';

const day = 86_400_000;

describe('usage with audit on', () => {
  let env: ResourceEnv;
  let now = new Date('2024-06-01T00:00:00.000Z');
  const alice = () => person(env, 'alice');
  const root = () => person(env, 'root', ['platform-admin']);

  beforeAll(async () => {
    env = await startResourceEnv('filesystem', { audit: true, clock: () => now });
  }, 120_000);
  afterAll(async () => env?.stop());

  it('records reads by door, counts them over 30 and 90 days, and audits them under the door', async () => {
    const doc = (await env.service.create(alice(), { library: personLib('alice'), path: '', file_name: 'u.txt', if_exists: 'fail', origin: 'portal', body: body('u') })).resource;
    const read = async (door: 'resources_read' | 'search_fetch' | 'portal_download' | 'portal_preview', at: Date, who: ResourceActor = alice()) => {
      now = at;
      const opened = await env.service.openContent(who, doc.id, door);
      expect(await text(opened.body)).toBe('u');
      return opened;
    };
    const t0 = new Date('2024-06-01T00:00:00.000Z');
    await read('resources_read', new Date(t0.getTime() - 80 * day)); // within 90, not 30
    await read('resources_read', new Date(t0.getTime() - 100 * day)); // outside both
    await read('search_fetch', new Date(t0.getTime() - 10 * day));
    await read('portal_download', new Date(t0.getTime() - 2 * day));
    const lastDownload = new Date(t0.getTime() - 1 * day);
    const opened = await read('portal_download', lastDownload, root());
    expect(opened.resource.last_read_at).toBe(lastDownload.toISOString());
    await read('portal_preview', new Date(t0.getTime() - 1000));
    now = t0;
    const usage = await env.service.usage(alice(), doc.id);
    expect(usage).toEqual({
      last_read_at: lastDownload.toISOString(),
      last_30_days: { resources_read: 0, search_fetch: 1, portal_download: 2, portal_preview: 1 },
      last_90_days: { resources_read: 1, search_fetch: 1, portal_download: 2, portal_preview: 1 },
    });
    // An image tile does not stamp last read.
    expect((await env.service.get(root(), doc.id)).last_read_at).toBe(lastDownload.toISOString());
    await env.audit.flush();
    const audited = await env.db.query<{ tool: string; subject: string; outcome: string }>(`SELECT tool, subject, outcome FROM audit_log ORDER BY occurred_at`);
    expect(audited.rows.map((r) => r.tool).sort()).toEqual(['portal_download', 'portal_download', 'portal_preview', 'resources/read', 'resources/read', 'search_fetch']);
    expect(audited.rows.every((r) => r.outcome === 'ok')).toBe(true);
    expect(audited.rows.map((r) => r.subject)).toContain('root');
  });
});

describe('usage with audit off', () => {
  let env: ResourceEnv;
  beforeAll(async () => {
    env = await startResourceEnv('filesystem');
  }, 120_000);
  afterAll(async () => env?.stop());

  it('records no reads and shows no usage, while last read is still stamped', async () => {
    const alice = person(env, 'alice');
    const doc = (await env.service.create(alice, { library: personLib('alice'), path: '', file_name: 'u.txt', if_exists: 'fail', origin: 'portal', body: body('u') })).resource;
    await text((await env.service.openContent(alice, doc.id, 'resources_read')).body);
    await text((await env.service.openContent(alice, doc.id, 'portal_download')).body);
    expect((await env.db.query('SELECT 1 FROM resource_reads')).rowCount).toBe(0);
    expect((await env.db.query('SELECT 1 FROM audit_log')).rowCount).toBe(0);
    expect(await env.service.usage(alice, doc.id)).toEqual({
      last_read_at: null,
      last_30_days: { resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 },
      last_90_days: { resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 },
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
