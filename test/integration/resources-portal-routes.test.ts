/**
 * REST routes the portal's file manager needs (issue 36), over real HTTP on the real
 * ResourceService with Postgres: the top-level folders (spec document 2, "Libraries and top-level
 * folders": My Resources, the personas, Global, People), the folders under People, and the source
 * editor's Save ("Resource versions": Save in the source editor). Each test is named after the spec
 * row it proves; each refusal (401, 403/404, 400, 409, 413) is asserted with its body.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITED_IN_PORTAL, INLINE_PREVIEW_BYTES } from '../../shared/resources/index.js';
import {
  alice,
  as,
  bob,
  expectError,
  multipart,
  resourceRestCalls,
  root,
  salesAdmin,
  salesMember,
  send,
  startResourceRestApi,
  type RawResponse,
  type ResourceRestApi,
  type Who,
} from './resources-rest-fixtures.js';

let api: ResourceRestApi;

const { call } = resourceRestCalls(() => api);

async function upload(who: Who, library: string, path: string, name: string, data: string | Buffer, type = 'text/plain') {
  const form = multipart([
    { name: 'library', value: library },
    { name: 'path', value: path },
    { name: 'file', filename: name, type, data },
  ]);
  const res = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(who), 'content-type': form.contentType }, body: form.body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as { id: string; version: number; allowed_actions: Record<string, unknown>; content_type: string };
}

beforeAll(async () => {
  api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 4 * 1024 * 1024 });
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** A person of no persona: only My Resources and Global. */
const loner: Who = { subject: 'lou', roles: [] };
/** Administers sales without belonging to it. */
const salesOnlyAdmin: Who = { subject: 'sid', roles: ['persona-admin:sales'] };
const carol: Who = { subject: 'carol', roles: [], email: 'carol@example.test' };

describe('top-level folders (spec: Libraries and top-level folders)', () => {
  beforeAll(async () => {
    await upload(alice, 'personal', 'reports', 'a.txt', 'a');
    await upload(alice, 'personal', '', 'root-file.txt', 'at the top');
    await upload(salesAdmin, 'persona:sales', 'templates/2025', 't.txt', 't');
    await upload(root, 'global', 'brand', 'g.txt', 'g');
    await upload(carol, 'personal', 'notes', 'c.txt', 'c');
    // bob's library holds an empty folder only: his resources exist (a folder), his count is 0.
    expect((await call(bob, 'POST', '/api/v1/resources/folders', { library: 'personal', path: 'empty' })).status).toBe(201);
  });

  it('a person sees My Resources, one folder per persona it belongs to, and Global, in that order, each with counts, last change and folder actions; never People', async () => {
    const res = await call(alice, 'GET', '/api/v1/resources/libraries');
    expect(res.status).toBe(200);
    const folders = res.json.folders as Array<Record<string, unknown>>;
    expect(folders.map((f) => [f.kind, f.name, f.library])).toEqual([
      ['personal', 'My Resources', 'person:alice'],
      ['persona', 'analyst', 'persona:analyst'],
      ['global', 'Global', 'global'],
    ]);
    expect(folders[0]).toMatchObject({ path: 'person:alice', count: 2, direct_count: 1, description: '', allowed_actions: { list: true, add: true, describe: false, delete: false } });
    expect(folders[0]!.last_changed_at).toEqual(expect.any(String));
    expect(folders[1]).toMatchObject({ persona: 'analyst', count: 0, direct_count: 0, last_changed_at: null, allowed_actions: { list: true, add: false, describe: false, delete: false } });
    expect(folders[2]).toMatchObject({ count: 1, direct_count: 0, allowed_actions: { list: true, add: false } });
    // The counts are the facets' for each library root.
    const facets = (await call(alice, 'GET', '/api/v1/resources/facets?depth=1')).json.folders as Array<{ path: string; count: number; direct_count: number; last_changed_at: string | null }>;
    for (const f of folders) {
      const facet = facets.find((x) => x.path === f.path)!;
      expect({ count: f.count, direct_count: f.direct_count, last_changed_at: f.last_changed_at }).toEqual({ count: facet.count, direct_count: facet.direct_count, last_changed_at: facet.last_changed_at });
    }
  });

  it('a persona folder is named by the persona\'s display_name and described by its configuration; a persona administrator who is no member sees it too, with adding allowed', async () => {
    const member = (await call(salesMember, 'GET', '/api/v1/resources/libraries')).json.folders as Array<Record<string, unknown>>;
    expect(member.map((f) => f.name)).toEqual(['My Resources', 'Sales team', 'Global']);
    expect(member[1]).toMatchObject({ kind: 'persona', persona: 'sales', library: 'persona:sales', path: 'persona:sales', description: "The sales team's files", count: 1, allowed_actions: { list: true, add: false } });
    const admin = (await call(salesOnlyAdmin, 'GET', '/api/v1/resources/libraries')).json.folders as Array<Record<string, unknown>>;
    expect(admin.map((f) => f.name)).toEqual(['My Resources', 'Sales team', 'Global']);
    expect(admin[1]).toMatchObject({ count: 1, allowed_actions: { list: true, add: true, describe: false, delete: false } });
    const alone = (await call(loner, 'GET', '/api/v1/resources/libraries')).json.folders as Array<Record<string, unknown>>;
    expect(alone.map((f) => f.kind)).toEqual(['personal', 'global']);
  });

  it('a platform administrator sees every persona (with or without files), Global, then People counting the people whose resources exist', async () => {
    const res = await call(root, 'GET', '/api/v1/resources/libraries');
    expect(res.status).toBe(200);
    const folders = res.json.folders as Array<Record<string, unknown>>;
    expect(folders.map((f) => [f.kind, f.name])).toEqual([
      ['personal', 'My Resources'],
      ['persona', 'admin'],
      ['persona', 'analyst'],
      ['persona', 'Sales team'],
      ['global', 'Global'],
      ['people', 'People'],
    ]);
    expect(folders[1]).toMatchObject({ count: 0, last_changed_at: null, allowed_actions: { list: true, add: true } });
    // alice (2 files), bob (an empty folder) and carol (1 file); root itself is My Resources, not a person under People.
    expect(folders[5]).toMatchObject({ kind: 'people', people: 3, count: 3 });
    expect(folders[5]!.last_changed_at).toEqual(expect.any(String));
    expect(Object.keys(folders[5]!).sort()).toEqual(['count', 'kind', 'last_changed_at', 'name', 'people']);
  });

  it('People: one folder per person whose resources exist, read when opened, by subject, filtered and paged; named by the email their writes recorded', async () => {
    const res = await call(root, 'GET', '/api/v1/resources/libraries/people');
    expect(res.status).toBe(200);
    expect(res.json.next_cursor).toBeNull();
    const items = res.json.items as Array<Record<string, unknown>>;
    expect(items.map((p) => [p.subject, p.name, p.count, p.direct_count])).toEqual([
      ['alice', 'alice', 2, 1],
      ['bob', 'bob', 0, 0],
      ['carol', 'carol@example.test', 1, 0],
    ]);
    expect(items[0]).toMatchObject({ kind: 'person', library: 'person:alice', path: 'person:alice', allowed_actions: { list: true, add: true, describe: false, delete: false } });
    expect(items[1]!.last_changed_at).toBeNull();
    // Opening one is the facets and listing routes by its path.
    const opened = await call(root, 'GET', `/api/v1/resources/facets?path=${encodeURIComponent(items[0]!.path as string)}&depth=1`);
    expect(opened.status).toBe(200);
    expect(opened.json.folders.map((f: { path: string }) => f.path)).toEqual(['person:alice', 'person:alice/reports']);

    const first = await call(root, 'GET', '/api/v1/resources/libraries/people?limit=2');
    expect(first.json.items.map((p: { subject: string }) => p.subject)).toEqual(['alice', 'bob']);
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const second = await call(root, 'GET', `/api/v1/resources/libraries/people?limit=2&cursor=${first.json.next_cursor}`);
    expect(second.json.items.map((p: { subject: string }) => p.subject)).toEqual(['carol']);
    expect(second.json.next_cursor).toBeNull();
    const filtered = await call(root, 'GET', '/api/v1/resources/libraries/people?q=CAR');
    expect(filtered.json.items.map((p: { subject: string }) => p.subject)).toEqual(['carol']);
  });

  it('a person whose last file went (no folder left) is no longer under People', async () => {
    const dave: Who = { subject: 'dave', roles: [] };
    const file = await upload(dave, 'personal', '', 'only.txt', 'x');
    const listed = async () => ((await call(root, 'GET', '/api/v1/resources/libraries/people')).json.items as Array<{ subject: string }>).map((p) => p.subject);
    expect(await listed()).toContain('dave');
    expect((await call(dave, 'DELETE', `/api/v1/resources/${file.id}`)).status).toBe(204);
    expect(await listed()).not.toContain('dave');
  });

  it('refuses People to anyone but a platform administrator (403), bad paging (400), and every caller without credentials (401)', async () => {
    expectError(await call(alice, 'GET', '/api/v1/resources/libraries/people'), 403, 'forbidden', /platform administrators/);
    expectError(await call(salesOnlyAdmin, 'GET', '/api/v1/resources/libraries/people'), 403, 'forbidden');
    expectError(await call(root, 'GET', '/api/v1/resources/libraries/people?limit=0'), 400, 'invalid_request');
    expectError(await call(root, 'GET', '/api/v1/resources/libraries/people?limit=1001'), 400, 'invalid_request');
    expectError(await call(root, 'GET', `/api/v1/resources/libraries/people?cursor=${Buffer.from('other:x').toString('base64url')}`), 400, 'invalid', /cursor/);
    expectError(await call(undefined, 'GET', '/api/v1/resources/libraries'), 401, 'unauthorized');
    expectError(await call(undefined, 'GET', '/api/v1/resources/libraries/people'), 401, 'unauthorized');
  });
});

describe('source editor (spec: Resource versions, "Save in the source editor")', () => {
  function save(who: Who | undefined, id: string, text: string | Buffer, baseVersion?: number | string, type = 'text/plain; charset=utf-8'): Promise<RawResponse> {
    const query = baseVersion === undefined ? '' : `?base_version=${baseVersion}`;
    return send(`${api.url}/api/v1/resources/${id}/source${query}`, { method: 'PUT', headers: { ...(who ? as(who) : {}), 'content-type': type }, body: text });
  }

  it('text family, caller may change it, within the inline preview limit: head vN+1 whose change_summary says edited in the portal', async () => {
    const file = await upload(alice, 'personal', 'drafts', 'notes.md', '# v1\n', 'text/markdown');
    expect(file.allowed_actions.edit_source).toBe(true);
    const res = await save(alice, file.id, '# v2 — édité\n', 1);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ id: file.id, version: 2, file_name: 'notes.md', content_type: file.content_type, size: Buffer.byteLength('# v2 — édité\n') });
    const versions = await call(alice, 'GET', `/api/v1/resources/${file.id}/versions`);
    expect(versions.json.items[0]).toMatchObject({ version: 2, change_summary: EDITED_IN_PORTAL, origin: 'portal', uploader: 'alice' });
    expect(versions.json.items[1]).toMatchObject({ version: 1, change_summary: null });
    const content = await send(`${api.url}/api/v1/resources/${file.id}/content`, { method: 'GET', headers: as(alice) });
    expect(content.body.toString('utf8')).toBe('# v2 — édité\n');
    // The label is the server's: Replace content (a file picker) is not an edit.
    const replaced = await send(`${api.url}/api/v1/resources/${file.id}/content`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'text/markdown' }, body: '# v3\n' });
    expect(replaced.status).toBe(200);
    expect((await call(alice, 'GET', `/api/v1/resources/${file.id}/versions`)).json.items[0].change_summary).toBeNull();
  });

  it('a save over a newer head is refused (409) naming the head, and nothing is stored', async () => {
    const file = await upload(alice, 'personal', 'drafts', 'race.txt', 'v1');
    expect((await save(alice, file.id, 'mine', 1)).status).toBe(200);
    const stale = await save(alice, file.id, 'theirs', 1);
    expectError(stale, 409, 'conflict', /version 2/);
    expect(stale.json.head_version).toBe(2);
    const versions = await call(alice, 'GET', `/api/v1/resources/${file.id}/versions`);
    expect(versions.json.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  it('refuses who may not change the file: another person 404 (not shown), a persona member 403; a persona administrator may', async () => {
    const own = await upload(alice, 'personal', 'drafts', 'private.txt', 'mine');
    expectError(await save(bob, own.id, 'x', 1), 404, 'not_found');
    const shared = await upload(salesAdmin, 'persona:sales', 'docs', 'team.txt', 'team');
    const asMember = await call(salesMember, 'GET', `/api/v1/resources/${shared.id}`);
    expect(asMember.json.allowed_actions.edit_source).toBe(false);
    expectError(await save(salesMember, shared.id, 'x', 1), 403, 'forbidden');
    expect((await save(salesOnlyAdmin, shared.id, 'by the persona administrator', 1)).status).toBe(200);
  });

  it('refuses a file outside the text family (400) and a file or text over the inline preview limit (413); text that is not UTF-8 (400)', async () => {
    const png = await upload(alice, 'personal', 'pics', 'p.png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'image/png');
    expect(png.allowed_actions.edit_source).toBe(false);
    expectError(await save(alice, png.id, 'text', 1), 400, 'invalid', /not a text file/);

    const big = await upload(alice, 'personal', 'drafts', 'big.txt', 'x'.repeat(INLINE_PREVIEW_BYTES + 1));
    expect(big.allowed_actions.edit_source).toBe(false);
    const tooBig = await save(alice, big.id, 'short', 1);
    expectError(tooBig, 413, 'too_large', /inline preview limit/);
    expect(tooBig.json.limit_bytes).toBe(INLINE_PREVIEW_BYTES);

    const small = await upload(alice, 'personal', 'drafts', 'small.txt', 'small');
    expectError(await save(alice, small.id, 'y'.repeat(INLINE_PREVIEW_BYTES + 1), 1), 413, 'too_large', /inline preview limit/);
    // Sent chunked (no Content-Length): refused once the limit passes, the rest read and dropped.
    const chunked = await send(`${api.url}/api/v1/resources/${small.id}/source?base_version=1`, {
      method: 'PUT',
      headers: { ...as(alice), 'content-type': 'text/plain' },
      body: Readable.from((function* () {
        for (let i = 0; i < 20; i++) yield Buffer.alloc(64 * 1024, 0x7a);
      })()),
    });
    expectError(chunked, 413, 'too_large', /inline preview limit/);
    expectError(await save(alice, small.id, Buffer.from([0x66, 0xff, 0xfe]), 1), 400, 'invalid', /not UTF-8/);
    const versions = await call(alice, 'GET', `/api/v1/resources/${small.id}/versions`);
    expect(versions.json.items).toHaveLength(1);
  });

  it('refuses a save without base_version or with a bad one (400), and a caller without credentials (401)', async () => {
    const file = await upload(alice, 'personal', 'drafts', 'q.txt', 'q');
    expectError(await save(alice, file.id, 'x'), 400, 'invalid_request');
    expectError(await save(alice, file.id, 'x', 0), 400, 'invalid_request');
    expectError(await save(alice, file.id, 'x', 'two'), 400, 'invalid_request');
    expectError(await save(undefined, file.id, 'x', 1), 401, 'unauthorized');
  });
});

describe('without table registration configured', () => {
  it('the Query as a table routes answer 503 unavailable (spec: Table registration needs a SQL connection)', async () => {
    const file = await upload(alice, 'personal', 'data', 'rows.csv', 'a,b\n1,2\n', 'text/csv');
    expectError(await call(alice, 'GET', `/api/v1/resources/${file.id}/tables`), 503, 'unavailable', /not configured/);
    expectError(await call(alice, 'POST', `/api/v1/resources/${file.id}/tables`, {}), 503, 'unavailable');
  });
});

describe('the OpenAPI document', () => {
  it('documents the routes the file manager needs with an operationId, a summary and a schema for every answer, errors included', async () => {
    const doc = (await send(`${api.url}/api/openapi.json`, { method: 'GET' })).json;
    const expected: Array<[string, string, string, string[]]> = [
      ['/api/v1/resources/libraries', 'get', 'listTopLevelFolders', ['200', '401']],
      ['/api/v1/resources/libraries/people', 'get', 'listPeopleFolders', ['200', '400', '401', '403']],
      ['/api/v1/resources/{id}/source', 'put', 'saveResourceSource', ['200', '400', '401', '403', '404', '409', '413']],
      ['/api/v1/resources/{id}/tables', 'get', 'getResourceTables', ['200', '401', '403', '404', '503']],
      ['/api/v1/resources/{id}/tables', 'post', 'registerResourceTable', ['200', '202', '400', '401', '403', '404', '409', '422', '503']],
    ];
    for (const [path, method, operationId, statuses] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.operationId).toBe(operationId);
      expect(op.summary).toEqual(expect.any(String));
      expect(Object.keys(op.responses).sort()).toEqual(statuses);
      for (const status of statuses) expect(op.responses[status].content?.['application/json']?.schema, `${method} ${path} ${status}`).toBeDefined();
    }
    const folders = doc.paths['/api/v1/resources/libraries'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(folders)).toContain('"people"');
    const save = doc.paths['/api/v1/resources/{id}/source'].put;
    expect(save.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['base_version', 'id']);
    const refusal = doc.paths['/api/v1/resources/{id}/tables'].post.responses['422'].content['application/json'].schema;
    expect(Object.keys(refusal.properties)).toEqual(expect.arrayContaining(['error', 'message', 'rows', 'columns']));
    const actions = doc.paths['/api/v1/resources/{id}'].get.responses['200'].content['application/json'].schema.properties.allowed_actions;
    expect(actions.required).toContain('edit_source');
  });
});
