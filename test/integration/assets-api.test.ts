/**
 * Assets through their two doors (issue 38): the MCP tools save_artifact and manage_asset, and the
 * REST routes under /api/v1/portal/assets — versions with provenance, restore, details, delete,
 * the content-type allow-list and portal.max_content_size, the bytes in portal.s3_bucket under
 * portal.s3_prefix, owner-and-administrators-only authority (others 404), and persona filtering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAssetsRig, subjectOf, type AssetsRig } from './assets-fixtures.js';

let rig: AssetsRig;
beforeAll(async () => {
  rig = await startAssetsRig();
});
afterAll(async () => rig?.stop());

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3a6e15d0000000049454e44ae426082', 'hex');


describe('save_artifact', () => {
  let firstId: string;

  it('saves generated content as an asset: its id, version 1, the portal link from portal.public_base_url, provenance of the session', async () => {
    // A tool call before the save: the provenance records it.
    expect((await rig.call('alice', 'manage_asset', { action: 'list' })).isError).toBe(false);
    const saved = await rig.call('alice', 'save_artifact', {
      name: 'Q3 revenue summary',
      content: '# Q3\n\nRevenue grew **12%**.',
      content_type: 'text/markdown',
      description: 'Quarterly summary',
      tags: ['finance', 'q3'],
      sources: ['https://example.test/report'],
    });
    expect(saved.isError, saved.text).toBe(false);
    firstId = saved.body.asset_id;
    expect(saved.body).toMatchObject({
      version: 1,
      created: true,
      portal_url: `https://portal.example.test/portal/assets/${firstId}`,
      provenance_captured: true,
    });
    expect(saved.body.calls_recorded).toBeGreaterThanOrEqual(1);
    expect(saved.body.message).toContain('Q3 revenue summary');
    const detail = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${firstId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ name: 'Q3 revenue summary', content_type: 'text/markdown', tags: ['finance', 'q3'], owner: { subject: subjectOf('alice') } });
    expect(detail.body.provenance.origin).toBe('agent');
    expect(detail.body.provenance.session_id).toEqual(expect.any(String));
    expect(detail.body.provenance.calls.map((c: { tool: string }) => c.tool)).toContain('manage_asset');
    expect(detail.body.provenance.sources).toEqual(['https://example.test/report']);
  });

  it('stores the bytes in portal.s3_bucket under portal.s3_prefix, one object per version', async () => {
    const objects = await rig.storedKeys();
    expect(objects.some((key) => key.startsWith(`tenant-a/assets/${firstId}/1-`))).toBe(true);
  });

  it('each save of the same asset is a new version; versions list newest first; restore makes the old content the next version', async () => {
    const second = await rig.call('alice', 'save_artifact', { asset_id: firstId, content: '# Q3\n\nRevenue grew 13%.', content_type: 'text/markdown', change_summary: 'corrected' });
    expect(second.isError, second.text).toBe(false);
    expect(second.body).toMatchObject({ asset_id: firstId, version: 2, created: false });
    const versions = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${firstId}/versions`);
    expect(versions.body.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.body.items[0]).toMatchObject({ change_summary: 'corrected', origin: 'agent' });
    const restored = await rig.rest('alice', 'POST', `/api/v1/portal/assets/${firstId}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.version).toBe(3);
    const content = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${firstId}/content`);
    expect(content.text).toBe('# Q3\n\nRevenue grew **12%**.');
    const v2 = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${firstId}/content?version=2`);
    expect(v2.text).toContain('13%');
    const latest = (await rig.rest('alice', 'GET', `/api/v1/portal/assets/${firstId}/versions`)).body.items[0];
    expect(latest).toMatchObject({ version: 3, restored_from: 1, change_summary: 'restored from version 1', origin: 'person' });
    // Restoring the current version changes nothing.
    expect((await rig.rest('alice', 'POST', `/api/v1/portal/assets/${firstId}/versions/3/restore`)).status).toBe(409);
  });

  it('saves a PNG given as content_base64', async () => {
    const saved = await rig.call('alice', 'save_artifact', { name: 'Pixel', content_base64: png.toString('base64'), content_type: 'image/png' });
    expect(saved.isError, saved.text).toBe(false);
    const content = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${saved.body.asset_id}/content`);
    expect(content.headers.get('content-type')).toBe('image/png');
  });

  it('refuses content past portal.max_content_size, saying so, and stores nothing', async () => {
    const before = await rig.storedKeys();
    const refused = await rig.call('alice', 'save_artifact', { name: 'Big', content: 'x'.repeat(4097), content_type: 'text/plain' });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: 'too_large', limit_bytes: 4096, size: 4097 });
    expect(refused.text).toContain('portal.max_content_size');
    expect(await rig.storedKeys()).toEqual(before);
    expect((await rig.call('alice', 'save_artifact', { name: 'Exactly', content: 'x'.repeat(4096), content_type: 'text/plain' })).isError).toBe(false);
  });

  it('refuses a type outside the allow-list, naming the allowed ones, and content that is not what its type says', async () => {
    const pdf = await rig.call('alice', 'save_artifact', { name: 'Doc', content: '%PDF-1.7', content_type: 'application/pdf' });
    expect(pdf.body).toMatchObject({ error: 'unsupported' });
    expect(pdf.text).toContain('text/markdown, text/html, text/jsx, image/svg+xml, text/csv, application/json, text/plain, image/png');
    expect((await rig.call('alice', 'save_artifact', { name: 'J', content: '{nope', content_type: 'application/json' })).body).toMatchObject({ error: 'invalid' });
    expect((await rig.call('alice', 'save_artifact', { name: 'P', content: 'not a png', content_type: 'image/png' })).body).toMatchObject({ error: 'invalid' });
    expect((await rig.call('alice', 'save_artifact', { name: 'S', content: '<html></html>', content_type: 'image/svg+xml' })).body).toMatchObject({ error: 'invalid' });
    expect((await rig.call('alice', 'save_artifact', { content: 'a', content_type: 'text/plain' })).body).toMatchObject({ error: 'invalid' });
  });

  it('refuses a new version of another user\'s asset as not found', async () => {
    const refused = await rig.call('bob', 'save_artifact', { asset_id: firstId, content: 'mine now', content_type: 'text/plain' });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: 'not_found' });
  });

  it('is persona-filtered like every tool: a persona that denies the asset tools neither lists nor calls them', async () => {
    const client = await rig.connect('lena');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('save_artifact');
    expect(names).not.toContain('manage_asset');
    const staff = (await (await rig.connect('bob')).listTools()).tools.map((t) => t.name);
    expect(staff).toEqual(expect.arrayContaining(['save_artifact', 'manage_asset']));
    await expect(client.callTool({ name: 'save_artifact', arguments: { name: 'x', content: 'x', content_type: 'text/plain' } })).rejects.toThrow(/Unknown tool: save_artifact/);
  });
});

describe('manage_asset', () => {
  let id: string;
  beforeAll(async () => {
    id = (await rig.call('bob', 'save_artifact', { name: 'Churn table', content: 'month,churn\n2025-01,2.1\n', content_type: 'text/csv' })).body.asset_id;
  });

  it('lists and searches the caller\'s assets, and gets one with its content inline', async () => {
    const listed = await rig.call('bob', 'manage_asset', { action: 'list', query: 'churn' });
    expect(listed.body.items.map((a: { id: string }) => a.id)).toEqual([id]);
    expect((await rig.call('bob', 'manage_asset', { action: 'list', query: 'nothing-matches' })).body.items).toEqual([]);
    const got = await rig.call('bob', 'manage_asset', { action: 'get', asset_id: id });
    expect(got.body).toMatchObject({ asset: { id, name: 'Churn table' }, version: 1, content: 'month,churn\n2025-01,2.1\n', references: [] });
  });

  it('updates details, and with content saves a new version', async () => {
    const details = await rig.call('bob', 'manage_asset', { action: 'update', asset_id: id, name: 'Churn by month', tags: ['churn'] });
    expect(details.body.asset).toMatchObject({ name: 'Churn by month', tags: ['churn'], version: 1 });
    const content = await rig.call('bob', 'manage_asset', { action: 'update', asset_id: id, content: 'month,churn\n2025-01,2.2\n' });
    expect(content.body).toMatchObject({ version: 2, asset: { content_type: 'text/csv' } });
    const versions = await rig.call('bob', 'manage_asset', { action: 'list_versions', asset_id: id });
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const reverted = await rig.call('bob', 'manage_asset', { action: 'revert', asset_id: id, version: 1 });
    expect(reverted.body.asset.version).toBe(3);
  });

  it('shares, lists shares and revokes; refuses a notice over 500 characters', async () => {
    const shared = await rig.call('bob', 'manage_asset', { action: 'share', asset_id: id, expires_in: '7d', notice_text: 'Internal only' });
    expect(shared.isError, shared.text).toBe(false);
    expect(shared.body.url).toMatch(/^https:\/\/portal\.example\.test\/portal\/view\/[A-Za-z0-9_-]{43}$/);
    expect(shared.body.share).toMatchObject({ public: true, notice_text: 'Internal only', state: 'active' });
    const listed = await rig.call('bob', 'manage_asset', { action: 'list_shares', asset_id: id });
    expect(listed.body.shares).toHaveLength(1);
    const revoked = await rig.call('bob', 'manage_asset', { action: 'revoke_share', asset_id: id, share_id: shared.body.share.id });
    expect(revoked.body.share.state).toBe('revoked');
    const tooLong = await rig.call('bob', 'manage_asset', { action: 'share', asset_id: id, notice_text: 'n'.repeat(501) });
    expect(tooLong.isError).toBe(true);
  });

  it('answers another user\'s asset as not found for every action', async () => {
    for (const action of ['get', 'update', 'delete', 'list_versions', 'share', 'list_shares']) {
      const refused = await rig.call('alice', 'manage_asset', { action, asset_id: id, name: 'x', version: 1 });
      expect(refused.isError, action).toBe(true);
      expect(refused.body.error, action).toBe('not_found');
    }
  });

  it('deletes: the asset, its versions and its objects are gone', async () => {
    expect((await rig.call('bob', 'manage_asset', { action: 'delete', asset_id: id })).body).toEqual({ deleted: true, asset_id: id });
    expect((await rig.call('bob', 'manage_asset', { action: 'get', asset_id: id })).body.error).toBe('not_found');
    const objects = await rig.storedKeys();
    expect(objects.filter((key) => key.includes(id))).toEqual([]);
  });
});

describe('REST /api/v1/portal/assets', () => {
  let id: string;
  beforeAll(async () => {
    id = (await rig.call('alice', 'save_artifact', { name: 'Dashboard', content: '<h1>Hi</h1><script>document.title="ran"</script>', content_type: 'text/html' })).body.asset_id;
  });

  it('lists mine, shared with me and (administrators) all; others may not list all', async () => {
    const mine = await rig.rest('alice', 'GET', '/api/v1/portal/assets?scope=mine');
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((a: { id: string }) => a.id)).toContain(id);
    expect(mine.body.items.every((a: { owner: { subject: string } }) => a.owner.subject === subjectOf('alice'))).toBe(true);
    expect((await rig.rest('bob', 'GET', '/api/v1/portal/assets')).body.items.map((a: { id: string }) => a.id)).not.toContain(id);
    expect((await rig.rest('carol', 'GET', '/api/v1/portal/assets?scope=shared_with_me')).body.items).toEqual([]);
    await rig.rest('alice', 'POST', `/api/v1/portal/assets/${id}/shares`, { shared_with_user_id: subjectOf('carol') });
    const shared = await rig.rest('carol', 'GET', '/api/v1/portal/assets?scope=shared_with_me');
    expect(shared.body.items.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(shared.body.items[0].allowed_actions).toEqual({ read: true, change: false, delete: false, share: false });
    expect((await rig.rest('alice', 'GET', '/api/v1/portal/assets?scope=all')).status).toBe(403);
    const all = await rig.rest('root', 'GET', '/api/v1/portal/assets?scope=all&limit=2');
    expect(all.body.items).toHaveLength(2);
    expect(all.body.next_cursor).toEqual(expect.any(String));
    const next = await rig.rest('root', 'GET', `/api/v1/portal/assets?scope=all&limit=2&cursor=${all.body.next_cursor}`);
    expect(next.body.items.map((a: { id: string }) => a.id)).not.toContain(all.body.items[0].id);
  });

  it('reads details and content with the headers of user content; the HTML preview is a sandboxed frame that forbids the network', async () => {
    const content = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${id}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(content.headers.get('content-disposition')).toMatch(/^attachment; filename="Dashboard.html"/);
    const frame = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${id}/frame`);
    expect(frame.status).toBe(200);
    expect(frame.text).toContain('<h1>Hi</h1>');
    const csp = frame.headers.get('content-security-policy')!;
    expect(csp).toContain('sandbox allow-scripts');
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('connect-src');
    expect(csp).toMatch(/^script-src 'unsafe-inline'; default-src 'none';/);
    expect(csp).toContain("frame-ancestors 'self'");
    const notFramed = await rig.rest('bob', 'GET', `/api/v1/portal/assets/${(await rig.call('bob', 'save_artifact', { name: 't', content: 'x', content_type: 'text/plain' })).body.asset_id}/frame`);
    expect(notFramed.status).toBe(400);
  });

  it('a JSX preview is the runtime page with the source as data, under a CSP naming only the portal\'s own scripts', async () => {
    const jsx = (await rig.call('alice', 'save_artifact', { name: 'Widget', content: 'export default function App() { return <p>Hello</p>; }', content_type: 'text/jsx' })).body.asset_id;
    const frame = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${jsx}/frame?theme=dark`);
    expect(frame.status).toBe(200);
    expect(frame.text).toContain('<script type="application/json" id="jsx-source">');
    expect(frame.text).toContain('\\u003cp>Hello\\u003c/p>');
    expect(frame.headers.get('content-security-policy')).toContain(`script-src ${rig.config.portal.public_base_url.replace(/\/$/, '')}/portal/assets/ 'unsafe-eval'`);
    expect(frame.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
  });

  it('edits details and deletes (204), the owner only; the recipient of a private share reads but may not change (403)', async () => {
    const patched = await rig.rest('alice', 'PATCH', `/api/v1/portal/assets/${id}`, { name: 'Sales dashboard', description: 'Live', tags: ['sales'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Sales dashboard', description: 'Live', tags: ['sales'] });
    expect((await rig.rest('carol', 'GET', `/api/v1/portal/assets/${id}`)).status).toBe(200);
    const carolPatch = await rig.rest('carol', 'PATCH', `/api/v1/portal/assets/${id}`, { name: 'x' });
    expect(carolPatch.status).toBe(403);
    expect(carolPatch.body.message).toContain('owner');
    expect((await rig.rest('alice', 'PATCH', `/api/v1/portal/assets/${id}`, {})).status).toBe(400);
    expect((await rig.rest('alice', 'PATCH', `/api/v1/portal/assets/${id}`, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).status).toBe(400);
  });

  it('answers 404 to everyone else on every route, as for an asset that does not exist; 401 without credentials', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', ''],
      ['GET', '/content'],
      ['GET', '/frame'],
      ['GET', '/versions'],
      ['POST', '/versions/1/restore'],
      ['PATCH', '', { name: 'x' }],
      ['DELETE', ''],
      ['POST', '/shares', {}],
      ['GET', '/shares'],
      ['DELETE', '/shares/00000000-0000-7000-8000-000000000000'],
    ];
    for (const [method, suffix, body] of routes) {
      const answer = await rig.rest('bob', method, `/api/v1/portal/assets/${id}${suffix}`, body);
      const unknown = await rig.rest('bob', method, `/api/v1/portal/assets/01900000-0000-7000-8000-000000000000${suffix}`, body);
      expect(answer.status, `${method} ${suffix}`).toBe(404);
      expect(answer.body, `${method} ${suffix}`).toEqual(unknown.body);
      expect((await rig.rest(undefined, method, `/api/v1/portal/assets/${id}${suffix}`, body)).status, `${method} ${suffix} signed out`).toBe(401);
    }
    // A platform administrator reads and changes every asset.
    expect((await rig.rest('root', 'GET', `/api/v1/portal/assets/${id}`)).body.allowed_actions).toEqual({ read: true, change: true, delete: true, share: true });
  });

  it('delete answers 204 and the asset is gone', async () => {
    expect((await rig.rest('alice', 'DELETE', `/api/v1/portal/assets/${id}`)).status).toBe(204);
    expect((await rig.rest('alice', 'GET', `/api/v1/portal/assets/${id}`)).status).toBe(404);
  });
});
