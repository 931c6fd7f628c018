/**
 * Folder rename and nest (issue 19, Build 3; spec document 2, "Move, rename, folder change", the
 * folder rows): `POST /api/v1/resources/folders/rename` starts the renameFolder workflow on a real
 * Temporal server and answers its result. Every resource and stored folder beneath moves at every
 * depth in one transaction, each leaving an alias, an index job and an audit row; each refusal
 * moves nothing; a rename racing an upload into the folder leaves either outcome, never half.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLibrary, type Library, type ResourceActor } from '../../shared/resources/index.js';
import { resourceActor } from '../../shared/resources/index.js';
import { startRequestRuntime, type RequestRuntime } from './resource-requests-fixtures.js';
import { alice, as, send, startResourceRestApi, type ResourceRestApi, type Who } from './resources-rest-fixtures.js';
import { body } from './resources-core-fixtures.js';

const sam: Who = { subject: 'sam', roles: ['sales'] };
const samWhenAdmin: Who = { subject: 'sam', roles: ['sales', 'persona-admin:sales'] };
const sally: Who = { subject: 'sally', roles: ['sales', 'persona-admin:sales'] };
const aliceLib: Library = { kind: 'person', subject: 'alice' };
const sales: Library = { kind: 'persona', name: 'sales' };

describe('folder rename and nest (renameFolder)', () => {
  let runtime: RequestRuntime;
  let api: ResourceRestApi;

  function actor(who: Who): ResourceActor {
    return resourceActor({ subject: who.subject, roles: who.roles, authType: 'apikey' }, { config: api.config, origin: 'person' });
  }

  async function file(who: Who, library: Library, path: string, name: string, text = name) {
    return (await api.service.create(actor(who), { library, path, file_name: name, if_exists: 'fail', origin: 'portal', body: body(text) })).resource;
  }

  function rename(who: Who, library: string, path: string, newPath: string) {
    return send(`${api.url}/api/v1/resources/folders/rename`, {
      method: 'POST',
      headers: { ...as(who), 'content-type': 'application/json' },
      body: JSON.stringify({ library, path, new_path: newPath }),
    });
  }

  /** `folder/file` of every resource in the library, sorted. */
  async function addresses(library: Library): Promise<string[]> {
    const { kind, key } = { kind: library.kind, key: library.kind === 'person' ? library.subject : library.kind === 'persona' ? library.name : '' };
    const rows = await api.db.query<{ a: string }>(`SELECT folder_path || '/' || file_name AS a FROM resources WHERE library_kind = $1 AND library_key = $2 ORDER BY 1`, [kind, key]);
    return rows.rows.map((r) => r.a);
  }

  async function folders(library: Library): Promise<string[]> {
    const key = library.kind === 'person' ? library.subject : library.kind === 'persona' ? library.name : '';
    const rows = await api.db.query<{ path: string }>(`SELECT path FROM resource_folders WHERE library_kind = $1 AND library_key = $2 ORDER BY path`, [library.kind, key]);
    return rows.rows.map((r) => r.path);
  }

  beforeAll(async () => {
    runtime = await startRequestRuntime();
    api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 1024 * 1024, requests: runtime.requests });
    await runtime.startWorker(api.db, { service: api.service, store: api.connections.get('main').store, maxUploadBytes: 1024 * 1024 });
  }, 180_000);

  afterAll(async () => {
    await runtime?.stop();
    await api?.close();
  });

  it('moves every file and folder beneath at three depths in one go; old addresses resolve as aliases; an index job and an audit row per file; the same request again answers the same', async () => {
    const a = await file(alice, aliceLib, 'reports', 'a.txt');
    const b = await file(alice, aliceLib, 'reports/q1', 'b.txt');
    const c = await file(alice, aliceLib, 'reports/q1/jan', 'c.txt');
    await api.service.createFolder(actor(alice), aliceLib, 'reports/q1/empty');
    await api.service.describeFolder(actor(alice), aliceLib, 'reports/q1', 'first quarter');
    const requestsBefore = await api.db.query<{ resource_id: string; requests: number }>(`SELECT resource_id, requests FROM resource_jobs WHERE kind = 'index'`);
    const before = new Map(requestsBefore.rows.map((r) => [r.resource_id, r.requests]));

    const res = await rename(alice, 'personal', 'reports', 'archive/2024/reports');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ library: 'person:alice', path: 'reports', new_path: 'archive/2024/reports', folders: 4 });
    expect(res.json.moved.map((m: { id: string }) => m.id).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(await addresses(aliceLib)).toEqual(['archive/2024/reports/a.txt', 'archive/2024/reports/q1/b.txt', 'archive/2024/reports/q1/jan/c.txt']);
    expect(await folders(aliceLib)).toEqual(['archive', 'archive/2024', 'archive/2024/reports', 'archive/2024/reports/q1', 'archive/2024/reports/q1/empty', 'archive/2024/reports/q1/jan']);
    const described = await api.db.query<{ description: string }>(`SELECT description FROM resource_folders WHERE path = 'archive/2024/reports/q1'`);
    expect(described.rows[0]?.description).toBe('first quarter');

    for (const old of [a, b, c]) {
      const found = await api.service.resolve(actor(alice), old.uri);
      expect(found.id).toBe(old.id);
      expect(found.uri).not.toBe(old.uri);
      expect(found.uri.startsWith('mcp://user/alice/archive/2024/reports/')).toBe(true);
    }
    const jobs = await api.db.query<{ resource_id: string; requests: number }>(`SELECT resource_id, requests FROM resource_jobs WHERE kind = 'index'`);
    for (const old of [a, b, c]) expect(jobs.rows.find((j) => j.resource_id === old.id)?.requests).toBe((before.get(old.id) ?? 0) + 1);
    const audit = await api.db.query<{ resource_id: string }>(`SELECT resource_id FROM audit_log WHERE tool = 'resource_move' ORDER BY resource_id`);
    expect(audit.rows.map((r) => r.resource_id)).toEqual([a.id, b.id, c.id].sort());

    const again = await rename(alice, 'personal', 'reports', 'archive/2024/reports');
    expect(again.status).toBe(200);
    expect(again.json).toEqual(res.json);
    expect(await addresses(aliceLib)).toHaveLength(3);

    await runtime.replay(`folder-rename:${formatLibrary(aliceLib)}:reports`);

    const openapi = await send(`${api.url}/api/openapi.json`, { method: 'GET' });
    const route = openapi.json.paths['/api/v1/resources/folders/rename'].post;
    expect(Object.keys(route.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '503']);
  });

  it('moves a folder up into its own parent, a file taking the address another moving file left', async () => {
    const upper = await file(alice, aliceLib, 'up/mid', 'y.txt', 'upper');
    const lower = await file(alice, aliceLib, 'up/mid/mid', 'y.txt', 'lower');
    const res = await rename(alice, 'personal', 'up/mid', 'up');
    expect(res.status).toBe(200);
    expect((await api.service.get(actor(alice), upper.id)).uri).toBe('mcp://user/alice/up/y.txt');
    expect((await api.service.get(actor(alice), lower.id)).uri).toBe('mcp://user/alice/up/mid/y.txt');
    // The address the lower file took is live: it wins over the alias the upper one left there.
    expect((await api.service.resolve(actor(alice), upper.uri)).id).toBe(lower.id);
  });

  it('refuses, moving nothing: a target inside the folder (400), an unknown folder (404), a taken destination address (409, naming it)', async () => {
    await file(alice, aliceLib, 'docs/inner', 'x.txt');
    await file(alice, aliceLib, 'manuals/inner', 'x.txt');
    const snapshot = await addresses(aliceLib);

    const inside = await rename(alice, 'personal', 'docs', 'docs/inner/deeper');
    expect(inside.status).toBe(400);
    expect(inside.json.message).toContain('inside itself');

    expect((await rename(alice, 'personal', 'nowhere', 'elsewhere')).status).toBe(404);

    const taken = await rename(alice, 'personal', 'docs', 'manuals');
    expect(taken.status).toBe(409);
    expect(taken.json.message).toContain('mcp://user/alice/manuals/inner/x.txt');
    expect(await addresses(aliceLib)).toEqual(snapshot);
  });

  it('refuses, moving nothing, when a file beneath is one the caller cannot change (403, naming it); its own files it may move', async () => {
    // Sam uploaded while administering the persona; now a member, he may still change (and move) his own file, not Sally's.
    await file(samWhenAdmin, sales, 'team', 'plan.txt');
    const notes = await file(sally, sales, 'team/sally', 'notes.txt');
    const res = await rename(sam, 'persona:sales', 'team', 'crew');
    expect(res.status).toBe(403);
    expect(res.json.message).toContain(notes.uri);
    expect(await addresses(sales)).toEqual(['team/plan.txt', 'team/sally/notes.txt']);

    await file(samWhenAdmin, sales, 'mine', 'own.txt');
    expect((await rename(sam, 'persona:sales', 'mine', 'ours')).status).toBe(200);
    // A folder without files needs the authority to add folders there.
    await api.service.createFolder(actor(sally), sales, 'hollow');
    expect((await rename(sam, 'persona:sales', 'hollow', 'void')).status).toBe(403);
    expect((await rename(sally, 'persona:sales', 'hollow', 'void')).status).toBe(200);
  });

  it('refuses a folder with 501 files beneath, stating 501, and moves nothing', async () => {
    for (let i = 0; i < 501; i++) await file(alice, aliceLib, i % 2 === 0 ? 'bulk' : 'bulk/deeper', `f${i}.txt`);
    const res = await rename(alice, 'personal', 'bulk', 'mass');
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: 'conflict', count: 501, limit: 500 });
    expect(res.json.message).toContain('501 files');
    const left = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resources WHERE folder_path LIKE 'bulk%'`);
    expect(left.rows[0]?.n).toBe(501);
  }, 120_000);

  it('gives way to a file beneath being written (no deadlock with a single move): its activity tries again and the rename completes', async () => {
    const held = await file(alice, aliceLib, 'busy', 'held.txt');
    const lock = await api.db.connect();
    try {
      await lock.query('BEGIN');
      await lock.query(`SELECT 1 FROM resources WHERE id = $1 FOR UPDATE`, [held.id]);
      const renaming = rename(alice, 'personal', 'busy', 'idle');
      const workflow = runtime.handle.client.workflow.getHandle(`folder-rename:person:alice:busy`);
      // The first try gave way (the row is held): Temporal shows the activity on a later attempt.
      for (;;) {
        const described = await workflow.describe().catch(() => undefined);
        if ((described?.raw.pendingActivities?.[0]?.attempt ?? 0) > 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await lock.query('COMMIT');
      const res = await renaming;
      expect(res.status).toBe(200);
      expect(res.json.moved.map((m: { id: string }) => m.id)).toEqual([held.id]);
    } finally {
      lock.release();
    }
  });

  it('a rename racing an upload into the same folder leaves either outcome, never a half-moved folder', async () => {
    for (let round = 0; round < 4; round++) {
      const old = `race-${round}`;
      const next = `moved-${round}`;
      await file(alice, aliceLib, old, 'a.txt');
      await file(alice, aliceLib, `${old}/sub`, 'b.txt');
      const [renamed, uploaded] = await Promise.all([
        rename(alice, 'personal', old, next),
        api.service.create(actor(alice), { library: aliceLib, path: old, file_name: 'new.txt', if_exists: 'fail', origin: 'portal', body: body('new') }),
      ]);
      expect(renamed.status).toBe(200);
      const here = (await addresses(aliceLib)).filter((a) => a.startsWith(`${old}/`) || a.startsWith(`${next}/`));
      const movedNew = renamed.json.moved.some((m: { id: string }) => m.id === uploaded.resource.id);
      // The upload committed first and moved with the folder, or it waited and landed in the old folder after.
      expect(here).toEqual(movedNew ? [`${next}/a.txt`, `${next}/new.txt`, `${next}/sub/b.txt`] : [`${next}/a.txt`, `${next}/sub/b.txt`, `${old}/new.txt`].sort());
      expect(renamed.json.moved).toHaveLength(movedNew ? 3 : 2);
    }
  });
});
