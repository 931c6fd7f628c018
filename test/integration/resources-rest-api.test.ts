/**
 * The managed-resources REST routes over real HTTP, on the real ResourceService with Postgres and
 * each object-store driver (MinIO and the filesystem): upload outcomes and the form's field order, listing (sorts, paging, direct, root),
 * every by-id route, error statuses and bodies (facets, limits and the OpenAPI document:
 * resources-rest-facets-openapi.test.ts).
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manageResourceTool, MAX_TAG_CHARS, MAX_TAGS, type ReferenceCounter, type ReferenceCounts } from '../../shared/resources/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { allowAllTools, invokeTool, ToolRegistry } from '../../shared/mcp-tools/index.js';
import { uploadFieldsSchema } from '../../api/resources/schemas.js';
import {
  alice,
  as,
  bob,
  multipart,
  root,
  salesAdmin,
  salesMember,
  send,
  sha256,
  startResourceRestApi,
  type FormPart,
  type RawResponse,
  type ResourceRestApi,
  type Who,
  expectError,
  fileForm,
  resourceRestCalls,
} from './resources-rest-fixtures.js';

const maxUploadBytes = 2 * 1024 * 1024;
const uploadFieldNames = Object.keys(uploadFieldsSchema.shape);
let api: ResourceRestApi;
/** What points at which resource, as assets, prompts and registered tables would report it. */
const pointers = new Map<string, Partial<ReferenceCounts>>();
const released: string[] = [];
const pointerCounter: ReferenceCounter = {
  count: async (id) => pointers.get(id) ?? {},
  released: async (id) => void released.push(id),
};

const { upload, call, created } = resourceRestCalls(() => api);

// Every route on both object-store drivers: a machine without MinIO still exercises each one.
describe.each(['s3', 'filesystem'] as const)('resources REST routes on the %s driver', (driver) => {
  beforeAll(async () => {
    pointers.clear();
    released.length = 0;
    api = await startResourceRestApi({ driver, maxUploadBytes, bodyLimit: 256 * 1024, references: [pointerCounter] });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  describe('authentication', () => {
    it('answers 401 {error, message} when actorOf finds no caller', async () => {
      const res = await call(undefined, 'GET', '/api/v1/resources?path=global');
      expectError(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it('refuses an unauthenticated upload without reading it into storage', async () => {
      const before = await api.storedObjects();
      const form = multipart(fileForm({ name: 'anon.txt', data: 'x' }));
      const res = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { 'content-type': form.contentType }, body: form.body });
      expectError(res, 401, 'unauthorized');
      expect(await api.storedObjects()).toEqual(before);
    });
  });

  describe('POST /api/v1/resources', () => {
    it('walks the create outcomes: created 201, 409 when taken, unchanged 200, revised 200, replace 200', async () => {
      const first = await upload(alice, fileForm({ path: 'outcomes', name: 'report.md', data: 'v1', tags: ['a', 'b'], description: 'first' }));
      expect(first.status).toBe(201);
      expect(first.json).toMatchObject({
        outcome: 'created',
        library: 'person:alice',
        path: 'outcomes',
        file_name: 'report.md',
        display_name: 'report',
        description: 'first',
        tags: ['a', 'b'],
        size: 2,
        content_sha256: sha256('v1'),
        uploader: 'alice',
        version: 1,
        search_setting: expect.any(String),
      });
      const id = first.json.id as string;
      expect(first.json.reference).toBe(`mcp:resource:${id}`);
      expect(first.json.uri).toBe('mcp://user/alice/outcomes/report.md');

      const taken = await upload(alice, fileForm({ path: 'outcomes', name: 'report.md', data: 'v2' }));
      expectError(taken, 409, 'conflict', /report\.md/);
      const takenFail = await upload(alice, fileForm({ path: 'outcomes', name: 'report.md', data: 'v2', ifExists: 'fail' }));
      expectError(takenFail, 409, 'conflict');

      const same = await upload(alice, fileForm({ path: 'outcomes', name: 'report.md', data: 'v1', ifExists: 'skip_unchanged' }));
      expect(same.status).toBe(200);
      expect(same.json).toMatchObject({ id, outcome: 'unchanged', version: 1 });

      const changed = await upload(alice, fileForm({ path: 'outcomes', name: 'report.md', data: 'v2!', ifExists: 'skip_unchanged', description: 'ignored' }));
      expect(changed.status).toBe(200);
      expect(changed.json).toMatchObject({ id, outcome: 'revised', version: 2, size: 3, content_sha256: sha256('v2!'), description: 'first', tags: ['a', 'b'] });

      const replaced = await upload(alice, fileForm({ path: 'outcomes', name: 'report.md', data: 'v3', ifExists: 'replace' }));
      expect(replaced.status).toBe(200);
      expect(replaced.json).toMatchObject({ id, outcome: 'revised', version: 3, content_sha256: sha256('v3') });
    });

    it('refuses if_exists after the file part (400) and stores nothing', async () => {
      const before = await api.storedObjects();
      // On a free address the upload would be created: the trailing field stops it.
      const late = await upload(alice, [
        { name: 'path', value: 'order' },
        { name: 'file', filename: 'late.txt', type: 'text/plain', data: 'two' },
        { name: 'if_exists', value: 'replace' },
      ]);
      expectError(late, 400, 'invalid', /"if_exists" comes after the file/);
      expect(await api.storedObjects()).toEqual(before);
      const free = await upload(alice, fileForm({ path: 'order', name: 'late.txt', data: 'one' }));
      expect(free.status).toBe(201);

      // On a taken address with if_exists=replace first, a trailing field keeps the old version.
      const stored = await api.storedObjects();
      const trailing = await upload(alice, [
        { name: 'path', value: 'order' },
        { name: 'if_exists', value: 'replace' },
        { name: 'file', filename: 'late.txt', data: 'three' },
        { name: 'tags', value: 't' },
      ]);
      expectError(trailing, 400, 'invalid', /"tags" comes after the file/);
      expect(await api.storedObjects()).toEqual(stored);
      const versions = await call(alice, 'GET', `/api/v1/resources/${free.json.id}/versions`);
      expect(versions.json.items.map((v: { version: number }) => v.version)).toEqual([1]);

      // Fields before the file in any order are fine; the default library is personal.
      const reordered = await upload(alice, [
        { name: 'if_exists', value: 'replace' },
        { name: 'tags', value: 'z' },
        { name: 'path', value: 'order' },
        { name: 'file', filename: 'late.txt', data: 'two' },
      ]);
      expect(reordered.status).toBe(200);
      expect(reordered.json).toMatchObject({ id: free.json.id, outcome: 'revised', version: 2, library: 'person:alice' });
    });

    it('answers 400 for a malformed form: unknown or repeated field, no file part, a bad if_exists', async () => {
      expectError(await upload(alice, [{ name: 'colour', value: 'red' }, { name: 'file', filename: 'a.txt', data: 'a' }]), 400, 'invalid', /unknown form field "colour"/);
      expectError(
        await upload(alice, [{ name: 'path', value: 'a' }, { name: 'path', value: 'b' }, { name: 'file', filename: 'a.txt', data: 'a' }]),
        400,
        'invalid',
        /"path" is given more than once/,
      );
      expectError(await upload(alice, [{ name: 'path', value: 'a' }]), 400, 'invalid', /no file part "file"/);
      expectError(await upload(alice, [{ name: 'upload', filename: 'a.txt', data: 'a' }]), 400, 'invalid', /file part is named "file"/);
      expectError(await upload(alice, fileForm({ name: 'a.txt', data: 'a', ifExists: 'overwrite' })), 400, 'invalid', /if_exists/);
      expectError(await upload(alice, fileForm({ name: 'a.txt', data: 'a', library: 'team:x' })), 400, 'invalid', /library/);
    });

    it('refuses a form with more fields than the parser accepts with 400 naming the limit; the fullest form it takes is stored whole', async () => {
      // Each of the eight fields once, tags up to MAX_TAGS times: the parser's field limit.
      const limit = uploadFieldNames.length - 1 + MAX_TAGS;
      const fullTags = Array.from({ length: MAX_TAGS }, (_, i) => `tag-${i}`);
      const singles: FormPart[] = [
        { name: 'library', value: 'personal' },
        { name: 'path', value: 'fields' },
        { name: 'display_name', value: 'Full form' },
        { name: 'description', value: 'every field' },
        { name: 'if_exists', value: 'fail' },
        { name: 'search_setting', value: 'default' },
        { name: 'change_summary', value: 'first' },
      ];
      const before = await api.storedObjects();
      const over = await upload(alice, [...singles, ...[...fullTags, 'one-more'].map((value) => ({ name: 'tags', value })), { name: 'file', filename: 'over.txt', data: 'x' }]);
      expectError(over, 400, 'invalid', new RegExp(`more than ${limit} fields`));
      expect(over.json.limit_fields).toBe(limit);
      // Far over the limit too (the parser's error, not the tag rule, answers) and nothing is kept.
      const far = await upload(alice, [...Array.from({ length: 500 }, (_, i) => ({ name: 'tags', value: `t${i}` })), { name: 'file', filename: 'far.txt', data: 'x' }]);
      expectError(far, 400, 'invalid', new RegExp(`more than ${limit} fields`));
      expect(await api.storedObjects()).toEqual(before);

      const full = await upload(alice, [...singles, ...fullTags.map((value) => ({ name: 'tags', value })), { name: 'file', filename: 'full.txt', data: 'x' }]);
      expect(full.status, JSON.stringify(full.json)).toBe(201);
      expect(full.json.tags).toEqual(fullTags);
      expect(full.json).toMatchObject({ display_name: 'Full form', description: 'every field', path: 'fields' });
      // An edit is held to the same tag limits as the upload (and as the service).
      const edit = (tags: string[]) => call(alice, 'PATCH', `/api/v1/resources/${full.json.id}`, { tags });
      expectError(await edit([...fullTags, 'one-more']), 400, 'invalid_request');
      expectError(await edit(['x'.repeat(MAX_TAG_CHARS + 1)]), 400, 'invalid_request');
      expect((await edit(['x'.repeat(MAX_TAG_CHARS)])).status).toBe(200);
    });

    it('answers 415 for a body that is not multipart, and for executables by name or by bytes', async () => {
      expectError(await call(alice, 'POST', '/api/v1/resources', { file: 'x' }), 415, 'unsupported', /multipart/);
      expectError(await upload(alice, fileForm({ name: 'setup.exe', data: 'hello', type: 'application/octet-stream' })), 415, 'unsupported');
      const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);
      expectError(await upload(alice, fileForm({ name: 'data.bin', data: elf, type: 'application/octet-stream' })), 415, 'unsupported');
    });

    it('answers 403 when the caller may not add to the library; a persona admin may', async () => {
      expectError(await upload(alice, fileForm({ library: 'global', name: 'g.txt', data: 'g' })), 403, 'forbidden');
      expectError(await upload(salesMember, fileForm({ library: 'persona:sales', name: 's.txt', data: 's' })), 403, 'forbidden');
      const ok = await upload(salesAdmin, fileForm({ library: 'persona:sales', path: 'templates', name: 's.txt', data: 's' }));
      expect(ok.status).toBe(201);
      expect(ok.json).toMatchObject({ library: 'persona:sales', uri: 'mcp://persona/sales/templates/s.txt' });
      const admin = await upload(root, fileForm({ library: 'person:bob', name: 'for-bob.txt', data: 'b' }));
      expect(admin.status).toBe(201);
      expect(admin.json.library).toBe('person:bob');
    });

    it('refuses an upload over max_upload_bytes with 413 and stores nothing, streamed or declared', async () => {
      const before = await api.storedObjects();
      const big = Buffer.alloc(maxUploadBytes + 1, 0x61);
      const streamed = await upload(alice, fileForm({ path: 'big', name: 'big.txt', data: big }));
      expectError(streamed, 413, 'too_large', /upload limit/);
      expect(await api.storedObjects()).toEqual(before);

      const form = multipart(fileForm({ path: 'big', name: 'huge.txt', data: Buffer.alloc(16) }));
      const declared = await send(`${api.url}/api/v1/resources`, {
        method: 'POST',
        headers: { ...as(alice), 'content-type': form.contentType },
        // Claims far more than the limit: refused before the body is read.
        body: Buffer.alloc(maxUploadBytes + 8 * 1024 * 1024),
      });
      expectError(declared, 413, 'too_large');
      expect(await api.storedObjects()).toEqual(before);
      const listing = await call(alice, 'GET', `/api/v1/resources?path=${encodeURIComponent('person:alice/big')}`);
      expect(listing.json.items).toEqual([]);
      // Exactly at the limit is fine.
      const exact = await upload(alice, fileForm({ path: 'big', name: 'exact.txt', data: big.subarray(0, maxUploadBytes) }));
      expect(exact.status).toBe(201);
      expect(exact.json.size).toBe(maxUploadBytes);
    });
  });

  describe('GET /api/v1/resources (listing)', () => {
    const names: Record<string, string> = {};
    const lib = 'person:bob';
    const list = (query: string, who: Who = bob) => call(who, 'GET', `/api/v1/resources?${query}`);
    const fileNames = (res: RawResponse): string[] => res.json.items.map((r: { file_name: string }) => r.file_name);

    beforeAll(async () => {
      // Created in this order (so updated differs) with sizes c=2, a=3, d=4, b=1; d sits one folder down.
      for (const [name, data, path] of [
        ['c.txt', 'cc', 'docs'],
        ['a.txt', 'aaa', 'docs'],
        ['d.txt', 'dddd', 'docs/sub'],
        ['b.txt', 'b', 'docs'],
      ] as const) {
        names[name] = (await created(bob, { path, name, data })).id;
      }
    });

    it('sorts by each of the six sorts', async () => {
      const path = encodeURIComponent(`${lib}/docs`);
      const expected: Record<string, string[]> = {
        name: ['a.txt', 'b.txt', 'c.txt', 'd.txt'],
        name_desc: ['d.txt', 'c.txt', 'b.txt', 'a.txt'],
        updated: ['b.txt', 'd.txt', 'a.txt', 'c.txt'],
        updated_asc: ['c.txt', 'a.txt', 'd.txt', 'b.txt'],
        size: ['b.txt', 'c.txt', 'a.txt', 'd.txt'],
        size_desc: ['d.txt', 'a.txt', 'c.txt', 'b.txt'],
      };
      for (const [sort, order] of Object.entries(expected)) {
        const res = await list(`path=${path}&sort=${sort}`);
        expect(res.status).toBe(200);
        expect(fileNames(res), sort).toEqual(order);
        expect(res.json.next_cursor).toBeNull();
      }
      // Default sort is by name.
      expect(fileNames(await list(`path=${path}`))).toEqual(expected.name);
    });

    it('pages by cursor, and refuses a cursor of another listing', async () => {
      const path = encodeURIComponent(`${lib}/docs`);
      const first = await list(`path=${path}&sort=size&limit=3`);
      expect(fileNames(first)).toEqual(['b.txt', 'c.txt', 'a.txt']);
      expect(typeof first.json.next_cursor).toBe('string');
      const second = await list(`path=${path}&sort=size&limit=3&cursor=${encodeURIComponent(first.json.next_cursor)}`);
      expect(fileNames(second)).toEqual(['d.txt']);
      expect(second.json.next_cursor).toBeNull();
      const wrong = await list(`path=${path}&sort=name&limit=3&cursor=${encodeURIComponent(first.json.next_cursor)}`);
      expectError(wrong, 400, 'invalid', /cursor/);
    });

    it('lists one level with direct=true, everything beneath without it; the root lists no files one level only', async () => {
      const path = encodeURIComponent(`${lib}/docs`);
      expect(fileNames(await list(`path=${path}&direct=true`))).toEqual(['a.txt', 'b.txt', 'c.txt']);
      expect(fileNames(await list(`path=${path}&direct=false`))).toHaveLength(4);
      expect(fileNames(await list(`path=${encodeURIComponent(`${lib}/docs/sub`)}&direct=true`))).toEqual(['d.txt']);
      const rootListing = await list('direct=true');
      expect(rootListing.status).toBe(200);
      expect(rootListing.json).toEqual({ items: [], next_cursor: null });
      // A listing does not stamp last read, and the items carry the resource fields.
      const item = (await list(`path=${path}&direct=true`)).json.items[0];
      expect(item).toMatchObject({ id: names['a.txt'], library: lib, path: 'docs', file_name: 'a.txt', reference: `mcp:resource:${names['a.txt']}` });
    });

    it('refuses bad queries with 400 and another person\'s library with 403', async () => {
      expectError(await list('path=person:bob&sort=colour'), 400, 'invalid_request');
      expectError(await list('path=person:bob&limit=0'), 400, 'invalid_request');
      expectError(await list('path=person:bob&direct=maybe'), 400, 'invalid_request');
      expectError(await list(`path=${encodeURIComponent('person:bob/Not_A_Folder')}`), 400, 'invalid');
      expectError(await list('path=person:bob', alice), 403, 'forbidden');
      // A platform administrator may list it.
      expect(fileNames(await list(`path=${encodeURIComponent(`${lib}/docs`)}`, root))).toHaveLength(4);
    });
  });

  describe('routes by id', () => {
    const text = 'Jane Doe\nSenior analyst\n';
    let id: string;
    let v1Sha: string;
    const byId = (suffix = '') => `/api/v1/resources/${id}${suffix}`;

    beforeAll(async () => {
      const res = await created(alice, { path: 'cv', name: 'résumé 2025.txt', data: text, tags: ['cv'] });
      id = res.id;
      v1Sha = res.content_sha256;
    });

    it('GET /{id} answers the metadata; another person gets 404, an administrator the file', async () => {
      const res = await call(alice, 'GET', byId());
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id, file_name: 'résumé 2025.txt', display_name: 'résumé 2025', size: Buffer.byteLength(text), version: 1 });
      expect(res.json.outcome).toBeUndefined();
      expectError(await call(bob, 'GET', byId()), 404, 'not_found');
      expect((await call(root, 'GET', byId())).status).toBe(200);
    });

    it('GET /{id}/content streams the bytes with type, length, file name and ETag; If-None-Match and HEAD do not read', async () => {
      const res = await call(alice, 'GET', byId('/content'));
      expect(res.status).toBe(200);
      expect(res.body.toString('utf8')).toBe(text);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(text)));
      // Plain text only displays (issue 9 item 3): inline, with nosniff and a sandboxing CSP.
      expect(res.headers['content-disposition']).toBe(`inline; filename="r_sum_ 2025.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%202025.txt`);
      expect(res.headers.etag).toBe(`"${v1Sha}"`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');

      const notModified = await send(`${api.url}${byId('/content')}`, { method: 'GET', headers: { ...as(alice), 'if-none-match': `"${v1Sha}"` } });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      const head = await send(`${api.url}${byId('/content')}`, { method: 'HEAD', headers: as(alice) });
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(text)));
      expect(head.headers.etag).toBe(`"${v1Sha}"`);
      expect(head.body.length).toBe(0);

      // Exactly one content read, through the portal download door.
      const usage = await call(alice, 'GET', byId('/usage'));
      expect(usage.status).toBe(200);
      expect(usage.json.last_30_days.portal_download).toBe(1);
      expect(usage.json.last_90_days.portal_download).toBe(1);
      expect(usage.json.last_30_days.resources_read).toBe(0);
      expect(usage.json.last_read_at).toEqual(expect.any(String));
      expectError(await call(bob, 'GET', byId('/content')), 404, 'not_found');
    });

    it('PATCH /{id} edits details and moves; collisions 409 naming the file; bad bodies 400', async () => {
      const edited = await call(alice, 'PATCH', byId(), { display_name: 'CV', description: 'My CV', tags: ['cv', 'jobs'], search_setting: 'details_only' });
      expect(edited.status).toBe(200);
      expect(edited.json).toMatchObject({ id, display_name: 'CV', description: 'My CV', tags: ['cv', 'jobs'], search_setting: 'details_only', version: 1 });

      const moved = await call(alice, 'PATCH', byId(), { path: 'archive/2025' });
      expect(moved.status).toBe(200);
      expect(moved.json).toMatchObject({ id, path: 'archive/2025', uri: `mcp://user/alice/archive/2025/${encodeURIComponent('résumé 2025.txt')}` });

      await created(alice, { path: 'cv', name: 'résumé 2025.txt', data: 'another' });
      expectError(await call(alice, 'PATCH', byId(), { path: 'cv' }), 409, 'conflict', /résumé 2025\.txt/);
      expectError(await call(alice, 'PATCH', byId(), { colour: 'red' }), 400, 'invalid_request');
      expectError(await call(alice, 'PATCH', byId(), { search_setting: 'sometimes' }), 400, 'invalid_request');
      expectError(await call(alice, 'PATCH', byId(), { path: 'Bad Folder' }), 400, 'invalid');
      expectError(await call(alice, 'PATCH', byId(), { library: 'global' }), 403, 'forbidden');
      expectError(await call(bob, 'PATCH', byId(), { display_name: 'mine' }), 404, 'not_found');
    });

    it('PUT /{id}/content replaces the bytes (raw or form), keeping the file name; over the limit 413 stores nothing', async () => {
      const raw = await send(`${api.url}${byId('/content')}?change_summary=${encodeURIComponent('fixed a typo')}`, {
        method: 'PUT',
        headers: { ...as(alice), 'content-type': 'text/plain' },
        body: 'Jane Doe\nLead analyst\n',
      });
      expect(raw.status, JSON.stringify(raw.json)).toBe(200);
      expect(raw.json).toMatchObject({ id, version: 2, file_name: 'résumé 2025.txt', content_sha256: sha256('Jane Doe\nLead analyst\n') });

      const form = multipart([
        { name: 'change_summary', value: 'from a form' },
        { name: 'file', filename: 'whatever-it-was-called.json', type: 'application/json', data: '{"name":"Jane"}' },
      ]);
      const viaForm = await send(`${api.url}${byId('/content')}`, { method: 'PUT', headers: { ...as(alice), 'content-type': form.contentType }, body: form.body });
      expect(viaForm.status, JSON.stringify(viaForm.json)).toBe(200);
      expect(viaForm.json).toMatchObject({ id, version: 3, file_name: 'résumé 2025.txt', size: 15 });

      // A JSON body is content like any other (not parsed).
      const json = await send(`${api.url}${byId('/content')}`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'application/json' }, body: '{"v":4}' });
      expect(json.status, JSON.stringify(json.json)).toBe(200);
      expect(json.json).toMatchObject({ version: 4, content_sha256: sha256('{"v":4}') });

      const before = await api.storedObjects();
      const big = Buffer.alloc(maxUploadBytes + 1, 0x62);
      const tooBig = await send(`${api.url}${byId('/content')}`, {
        method: 'PUT',
        headers: { ...as(alice), 'content-type': 'text/plain' },
        // Chunked: the limit is found while streaming.
        body: Readable.from(
          (function* () {
            for (let i = 0; i < big.length; i += 64 * 1024) yield big.subarray(i, i + 64 * 1024);
          })(),
        ),
      });
      expectError(tooBig, 413, 'too_large');
      const declared = await send(`${api.url}${byId('/content')}`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'text/plain' }, body: big });
      expectError(declared, 413, 'too_large');
      const trailing = multipart([
        { name: 'file', filename: 'x.txt', data: 'new' },
        { name: 'change_summary', value: 'late' },
      ]);
      const late = await send(`${api.url}${byId('/content')}`, { method: 'PUT', headers: { ...as(alice), 'content-type': trailing.contentType }, body: trailing.body });
      expectError(late, 400, 'invalid', /"change_summary" comes after the file/);
      expect(await api.storedObjects()).toEqual(before);
      expect((await call(alice, 'GET', byId())).json.version).toBe(4);
      expectError(await send(`${api.url}${byId('/content')}`, { method: 'PUT', headers: { ...as(bob), 'content-type': 'text/plain' }, body: 'x' }), 404, 'not_found');
    });

    it('GET /{id}/versions lists versions newest first; restore writes the old bytes as a new head', async () => {
      const versions = await call(alice, 'GET', byId('/versions'));
      expect(versions.status).toBe(200);
      expect(versions.json.next_cursor).toBeNull();
      const items = versions.json.items as Array<Record<string, unknown>>;
      expect(items.map((v) => v.version)).toEqual([4, 3, 2, 1]);
      expect(items[3]).toMatchObject({ version: 1, content_sha256: v1Sha, uploader: 'alice' });
      expect(items[2]).toMatchObject({ version: 2, change_summary: 'fixed a typo' });
      expect(items[1]).toMatchObject({ version: 3, change_summary: 'from a form' });

      const restored = await call(alice, 'POST', byId('/versions/1/restore'));
      expect(restored.status, JSON.stringify(restored.json)).toBe(200);
      expect(restored.json).toMatchObject({ id, version: 5, content_sha256: v1Sha });
      const after = await call(alice, 'GET', byId('/versions'));
      expect(after.json.items[0]).toMatchObject({ version: 5, restored_from: 1, content_sha256: v1Sha });
      expect((await call(alice, 'GET', byId('/content'))).body.toString('utf8')).toBe(text);
      expectError(await call(alice, 'POST', byId('/versions/99/restore')), 404, 'not_found');
      expectError(await call(alice, 'POST', byId('/versions/zero/restore')), 400, 'invalid_request');
    });

    it('GET used-by and writers', async () => {
      const usedBy = await call(alice, 'GET', byId('/used-by'));
      expect(usedBy.status).toBe(200);
      expect(usedBy.json).toEqual({ assets: 0, prompts: 0, tables: 0, referencing_assets: [], assets_not_shown: 0, public_link: false });
      const writers = await call(alice, 'GET', byId('/writers'));
      expect(writers.status).toBe(200);
      expect(writers.json.items).toEqual([expect.objectContaining({ kind: 'person', id: 'alice', created: true })]);
    });

    it('DELETE /{id} removes the file and its stored bytes; then every by-id route answers 404', async () => {
      const keysBefore = await api.storedObjects();
      const del = await call(alice, 'DELETE', byId());
      expect(del.status).toBe(204);
      const keysAfter = await api.storedObjects();
      expect(keysAfter.filter((k) => k.startsWith(`${id}/`))).toEqual([]);
      expect(keysBefore.filter((k) => k.startsWith(`${id}/`)).length).toBeGreaterThan(0);
      for (const [method, suffix] of [
        ['GET', ''],
        ['GET', '/content'],
        ['PATCH', ''],
        ['DELETE', ''],
        ['GET', '/versions'],
        ['POST', '/versions/1/restore'],
        ['GET', '/used-by'],
        ['GET', '/usage'],
        ['GET', '/writers'],
      ] as const) {
        const res = await call(alice, method, byId(suffix), method === 'PATCH' ? { description: 'x' } : undefined);
        expectError(res, 404, 'not_found');
      }
      expectError(await send(`${api.url}${byId('/content')}`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'text/plain' }, body: 'x' }), 404, 'not_found');
      expectError(await call(alice, 'GET', '/api/v1/resources/not-an-id'), 404, 'not_found');
    });

    it('DELETE refuses a caller who may not change the file (403), and a referenced file (409 with counts) unless force=true', async () => {
      const deck = await created(salesAdmin, { library: 'persona:sales', name: 'pitch.txt', data: 'pitch' });
      expectError(await call(salesMember, 'DELETE', `/api/v1/resources/${deck.id}`), 403, 'forbidden');
      pointers.set(deck.id, { prompts: 2, tables: 1 });
      expect((await call(salesAdmin, 'GET', `/api/v1/resources/${deck.id}/used-by`)).json).toEqual({ assets: 0, prompts: 2, tables: 1, referencing_assets: [], assets_not_shown: 0, public_link: false });
      const refused = await call(salesAdmin, 'DELETE', `/api/v1/resources/${deck.id}`);
      expectError(refused, 409, 'conflict', /pitch\.txt.*2 prompts.*1 registered table/);
      expect(refused.json.references).toEqual({ assets: 0, prompts: 2, tables: 1 });
      expect((await call(salesAdmin, 'GET', `/api/v1/resources/${deck.id}`)).status).toBe(200);
      expectError(await call(salesAdmin, 'DELETE', `/api/v1/resources/${deck.id}?force=perhaps`), 400, 'invalid_request');
      expect((await call(salesAdmin, 'DELETE', `/api/v1/resources/${deck.id}?force=true`)).status).toBe(204);
      expect(released).toEqual([deck.id]);
      expectError(await call(salesAdmin, 'GET', `/api/v1/resources/${deck.id}`), 404, 'not_found');
    });

    it('portal delete vs tool delete: prompts hold a manage_resource delete (409 with counts) but not a portal one, which tells them the file is gone', async () => {
      const manage = async (args: Record<string, unknown>) => {
        const result = await invokeTool({
          registry: new ToolRegistry().register(manageResourceTool(api.service, { config: api.config })),
          access: allowAllTools,
          middlewares: [],
          name: 'manage_resource',
          rawArgs: args,
          ctx: { caller: { subject: alice.subject, roles: alice.roles, authType: 'apikey' }, signal: new AbortController().signal, log: silentLogger() },
        });
        return { isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
      };
      const viaTool = await created(alice, { path: 'prompt-material', name: 'tool.md', data: 'material' });
      const viaPortal = await created(alice, { path: 'prompt-material', name: 'portal.md', data: 'material' });
      pointers.set(viaTool.id, { prompts: 3 });
      pointers.set(viaPortal.id, { prompts: 3 });
      released.length = 0;

      const refused = await manage({ action: 'delete', reference: viaTool.reference });
      expect(refused.isError).toBe(true);
      expect(refused.body).toMatchObject({ error: 'conflict', references: { assets: 0, prompts: 3, tables: 0 } });
      expect((await call(alice, 'GET', `/api/v1/resources/${viaTool.id}`)).status).toBe(200);
      expect((await manage({ action: 'delete', reference: viaTool.reference, force: true })).isError).toBe(false);

      expect((await call(alice, 'DELETE', `/api/v1/resources/${viaPortal.id}`)).status).toBe(204);
      expectError(await call(alice, 'GET', `/api/v1/resources/${viaPortal.id}`), 404, 'not_found');
      // Both deletes told the reference counters, so the prompts report the material as missing.
      expect(released).toEqual([viaTool.id, viaPortal.id]);
    });
  });
});
