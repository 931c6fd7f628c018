/**
 * GET /api/v1/resources/:id/usage over HTTP, through the route's response schema: with audit on,
 * reads counted from the audit trail (`recorded: true`); with audit off, "usage is not recorded"
 * (`recorded: false` and a message), not zeros; the OpenAPI document describes both answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, as, multipart, send, startResourceRestApi, type ResourceRestApi } from './resources-rest-fixtures.js';

async function uploadAndDownload(api: ResourceRestApi): Promise<string> {
  const form = multipart([
    { name: 'library', value: 'personal' },
    { name: 'path', value: 'usage' },
    { name: 'file', filename: 'u.txt', type: 'text/plain', data: 'usage' },
  ]);
  const created = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(alice), 'content-type': form.contentType }, body: form.body });
  expect(created.status).toBe(201);
  const id = created.json.id as string;
  expect((await send(`${api.url}/api/v1/resources/${id}/content`, { method: 'GET', headers: as(alice) })).status).toBe(200);
  return id;
}

describe.each([true, false])('usage route (audit.enabled: %s)', (audit) => {
  let api: ResourceRestApi;
  beforeAll(async () => {
    api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 1024 * 1024, audit });
  }, 120_000);
  afterAll(async () => api?.close());

  it(audit ? 'answers the reads counted from the audit trail' : 'answers that usage is not recorded, not zeros', async () => {
    const id = await uploadAndDownload(api);
    const usage = await send(`${api.url}/api/v1/resources/${id}/usage`, { method: 'GET', headers: as(alice) });
    expect(usage.status).toBe(200);
    if (audit) {
      expect(usage.json).toEqual({
        recorded: true,
        last_read_at: expect.any(String),
        never_read: false,
        last_30_days: { resources_read: 0, search_fetch: 0, portal_download: 1, portal_preview: 0 },
        last_90_days: { resources_read: 0, search_fetch: 0, portal_download: 1, portal_preview: 0 },
        retention_days: 90,
      });
    } else {
      expect(usage.json).toEqual({ recorded: false, message: expect.stringMatching(/^usage is not recorded/) });
    }
  });

  it('the portal reading a file to show it (purpose=preview) is a preview, not a download: no last read stamped, counted under portal_preview', async () => {
    const form = multipart([
      { name: 'library', value: 'personal' },
      { name: 'path', value: 'usage' },
      { name: 'file', filename: 'shown.txt', type: 'text/plain', data: 'shown, not downloaded' },
    ]);
    const created = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(alice), 'content-type': form.contentType }, body: form.body });
    const id = created.json.id as string;
    const shown = await send(`${api.url}/api/v1/resources/${id}/content?purpose=preview`, { method: 'GET', headers: as(alice) });
    expect(shown.status).toBe(200);
    expect(shown.body.toString('utf8')).toBe('shown, not downloaded');
    expect((await send(`${api.url}/api/v1/resources/${id}/content?purpose=print`, { method: 'GET', headers: as(alice) })).status).toBe(400);
    const usage = await send(`${api.url}/api/v1/resources/${id}/usage`, { method: 'GET', headers: as(alice) });
    if (audit) {
      expect(usage.json).toMatchObject({
        last_read_at: null,
        last_30_days: { resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 1 },
      });
    } else {
      expect(usage.json).toMatchObject({ recorded: false });
    }
  });

  it('documents both answers in the OpenAPI document', async () => {
    const doc = await send(`${api.url}/api/openapi.json`, { method: 'GET' });
    const ok = doc.json.paths['/api/v1/resources/{id}/usage'].get.responses['200'];
    const variants = JSON.stringify(ok);
    expect(variants).toContain('"recorded"');
    expect(variants).toContain('never_read');
    expect(variants).toContain('usage is not recorded');
  });
});
