/**
 * The managed-resources REST routes over real HTTP (as resources-rest-api.test.ts), on each
 * object-store driver: facets and folder counts, the JSON body limit, and the OpenAPI document
 * of every resource route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TAG_CHARS, MAX_TAGS } from '../../shared/resources/index.js';
import {
  alice,
  expectError,
  resourceRestCalls,
  salesAdmin,
  salesMember,
  send,
  startResourceRestApi,
  type ResourceRestApi,
  type Who,
} from './resources-rest-fixtures.js';

let api: ResourceRestApi;
const { call, created } = resourceRestCalls(() => api);

describe.each(['s3', 'filesystem'] as const)('resources REST facets, limits and OpenAPI on the %s driver', (driver) => {
  beforeAll(async () => {
    api = await startResourceRestApi({ driver, maxUploadBytes: 2 * 1024 * 1024, bodyLimit: 256 * 1024 });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  describe('facets and folders', () => {
    const facet = async (who: Who, path: string) => {
      const res = await call(who, 'GET', '/api/v1/resources/facets');
      expect(res.status).toBe(200);
      return (res.json.folders as Array<Record<string, unknown>>).find((f) => f.path === path);
    };

    beforeAll(async () => {
      await created(salesAdmin, { library: 'persona:sales', path: 'decks/2025', name: 'q1.txt', data: 'q1' });
      await created(salesAdmin, { library: 'persona:sales', path: 'decks', name: 'intro.txt', data: 'hi' });
    });

    it('counts files at every depth with the last change beneath', async () => {
      const decks = await facet(salesMember, 'persona:sales/decks');
      const year = await facet(salesMember, 'persona:sales/decks/2025');
      const top = await facet(salesMember, 'persona:sales');
      expect(decks).toMatchObject({ library: 'persona:sales', count: 2, direct_count: 1 });
      expect(year).toMatchObject({ count: 1, direct_count: 1 });
      expect(top).toMatchObject({ count: 2, direct_count: 0 });
      const intro = await call(salesAdmin, 'GET', `/api/v1/resources?path=${encodeURIComponent('persona:sales/decks')}&direct=true`);
      expect(decks!.last_changed_at).toBe(intro.json.items[0].updated_at);
      // Not a member: the persona's folders are not shown.
      expect(await facet(alice, 'persona:sales/decks')).toBeUndefined();
    });

    it('creates empty folders with their ancestors, in either path form', async () => {
      const res = await call(salesAdmin, 'POST', '/api/v1/resources/folders', { library: 'persona:sales', path: 'empty/inner' });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ library: 'persona:sales', path: 'empty/inner', allowed_actions: { list: true, add: true, describe: true, delete: true } });
      expect(await facet(salesAdmin, 'persona:sales/empty')).toMatchObject({ count: 0, last_changed_at: null });
      expect(await facet(salesAdmin, 'persona:sales/empty/inner')).toMatchObject({ count: 0 });

      const combined = await call(alice, 'POST', '/api/v1/resources/folders', { path: 'personal/drafts' });
      expect(combined.status).toBe(201);
      expect(combined.json).toEqual({ library: 'person:alice', path: 'drafts', allowed_actions: { list: true, add: true, describe: true, delete: true } });
      expect(await facet(alice, 'person:alice/drafts')).toMatchObject({ count: 0 });
    });

    it('refuses folder names breaking the rule (400), no library (400), and callers without the authority to add (403)', async () => {
      expectError(await call(alice, 'POST', '/api/v1/resources/folders', { library: 'personal', path: 'Bad_Name' }), 400, 'invalid', /lowercase/);
      expectError(await call(alice, 'POST', '/api/v1/resources/folders', { path: '' }), 400, 'invalid');
      expectError(await call(alice, 'POST', '/api/v1/resources/folders', { library: 'personal' }), 400, 'invalid_request');
      expectError(await call(salesMember, 'POST', '/api/v1/resources/folders', { library: 'persona:sales', path: 'mine' }), 403, 'forbidden');
      expectError(await call(alice, 'POST', '/api/v1/resources/folders', { library: 'global', path: 'x' }), 403, 'forbidden');
    });

    it('deletes a folder only when nothing is filed in it, named by query or body', async () => {
      expectError(await call(salesAdmin, 'DELETE', `/api/v1/resources/folders?library=${encodeURIComponent('persona:sales')}&path=decks`), 409, 'conflict');
      const byBody = await call(salesAdmin, 'DELETE', '/api/v1/resources/folders', { path: 'persona:sales/empty/inner' });
      expect(byBody.status, JSON.stringify(byBody.json)).toBe(204);
      expect(await facet(salesAdmin, 'persona:sales/empty/inner')).toBeUndefined();
      const byQuery = await call(salesAdmin, 'DELETE', `/api/v1/resources/folders?path=${encodeURIComponent('persona:sales/empty')}`);
      expect(byQuery.status, JSON.stringify(byQuery.json)).toBe(204);
      expect(await facet(salesAdmin, 'persona:sales/empty')).toBeUndefined();
      expectError(await call(salesAdmin, 'DELETE', '/api/v1/resources/folders'), 400, 'invalid');
      expectError(await call(salesMember, 'DELETE', '/api/v1/resources/folders', { path: 'persona:sales/decks/2025' }), 403, 'forbidden');
    });

    it('describes a folder with {library, path} or {path: <library>/<folder>}', async () => {
      const one = await call(salesAdmin, 'PUT', '/api/v1/resources/folders/description', { path: 'persona:sales/decks', description: 'Slide decks' });
      expect(one.status).toBe(200);
      expect(one.json).toMatchObject({ library: 'persona:sales', path: 'decks', description: 'Slide decks', allowed_actions: { describe: true } });
      const two = await call(salesAdmin, 'PUT', '/api/v1/resources/folders/description', { library: 'persona:sales', path: 'decks/2025', description: 'This year' });
      expect(two.status).toBe(200);
      expect(await facet(salesMember, 'persona:sales/decks')).toMatchObject({ description: 'Slide decks' });
      expect(await facet(salesMember, 'persona:sales/decks/2025')).toMatchObject({ description: 'This year' });
      expectError(await call(salesMember, 'PUT', '/api/v1/resources/folders/description', { path: 'persona:sales/decks', description: 'x' }), 403, 'forbidden');
      expectError(await call(salesAdmin, 'PUT', '/api/v1/resources/folders/description', { path: 'persona:sales/decks' }), 400, 'invalid_request');
    });
  });

  describe('limits and the OpenAPI document', () => {
    it('answers 413 {error, message} for a JSON body over server.body_limit', async () => {
      const res = await call(alice, 'POST', '/api/v1/resources/folders', { library: 'personal', path: 'x'.repeat(300 * 1024) });
      expectError(res, 413, 'payload_too_large');
    });

    it('documents every route, with the multipart upload form in field order', async () => {
      const res = await send(`${api.url}/api/openapi.json`, { method: 'GET' });
      expect(res.status).toBe(200);
      const paths = res.json.paths as Record<string, Record<string, Record<string, unknown>>>;
      const expected: Record<string, string[]> = {
        '/api/v1/resources': ['get', 'post'],
        '/api/v1/resources/facets': ['get'],
        '/api/v1/resources/folders': ['delete', 'post'],
        '/api/v1/resources/folders/description': ['put'],
        '/api/v1/resources/{id}': ['delete', 'get', 'patch'],
        // HEAD is served too; @fastify/swagger leaves HEAD routes out of the document.
        '/api/v1/resources/{id}/content': ['get', 'put'],
        '/api/v1/resources/{id}/versions': ['get'],
        '/api/v1/resources/{id}/versions/{version}/restore': ['post'],
        '/api/v1/resources/{id}/used-by': ['get'],
        '/api/v1/resources/{id}/usage': ['get'],
        '/api/v1/resources/{id}/writers': ['get'],
        '/api/v1/resources/{id}/move-targets': ['get'],
        '/api/v1/resources/{id}/thumbnail': ['get'],
        '/api/v1/resources/{id}/thumbnail/recapture': ['post'],
        // The file manager's (issue 36): top-level folders, People, the source editor, Query as a table.
        '/api/v1/resources/libraries': ['get'],
        '/api/v1/resources/libraries/people': ['get'],
        '/api/v1/resources/{id}/source': ['put'],
        '/api/v1/resources/{id}/tables': ['get', 'post'],
      };
      for (const [path, methods] of Object.entries(expected)) {
        expect(Object.keys(paths[path] ?? {}).sort(), path).toEqual(methods);
        for (const m of methods) expect(paths[path]![m]!.description, `${m} ${path}`).toEqual(expect.any(String));
      }
      const upload = paths['/api/v1/resources']!.post as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } };
      const form = upload.requestBody.content['multipart/form-data']!.schema;
      expect(Object.keys(form.properties)).toEqual(['library', 'path', 'display_name', 'description', 'tags', 'if_exists', 'search_setting', 'change_summary', 'file']);
      expect(form.properties.file).toMatchObject({ type: 'string', format: 'binary' });
      expect(form.properties.if_exists).toMatchObject({ enum: ['fail', 'skip_unchanged', 'replace'] });
      // The tag limits the service applies, in the upload form and in an edit.
      const tagLimits = { maxItems: MAX_TAGS, items: { maxLength: MAX_TAG_CHARS } };
      expect(form.properties.tags).toMatchObject(tagLimits);
      const patch = paths['/api/v1/resources/{id}']!.patch as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } };
      expect(patch.requestBody.content['application/json']!.schema.properties.tags).toMatchObject(tagLimits);
      const list = paths['/api/v1/resources']!.get as { parameters: Array<{ name: string; schema: { enum?: string[] } }> };
      expect(list.parameters.map((p) => p.name).sort()).toEqual(['cursor', 'direct', 'limit', 'path', 'sort']);
      expect(list.parameters.find((p) => p.name === 'sort')!.schema.enum).toEqual(['name', 'name_desc', 'updated', 'updated_asc', 'size', 'size_desc', 'last_read', 'last_read_asc']);
      const replace = paths['/api/v1/resources/{id}/content']!.put as { requestBody: { content: Record<string, unknown> } };
      expect(Object.keys(replace.requestBody.content).sort()).toEqual(['application/octet-stream', 'multipart/form-data']);
    });
  });
});
