/**
 * Shares and the public viewer (spec document 1, "Share creation body", `GET /portal/view/{token}`,
 * "Public viewer behavior"; issue 38), and assets as references to resources (spec document 2,
 * "Asset reference", Errors): Used by names the referencing assets the caller may open, counts the
 * others, flags a public link; manage_resource delete reports the count and force leaves the asset
 * reporting the file as missing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetService, DEFAULT_NOTICE } from '../../shared/assets/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { resourceActor } from '../../shared/resources/index.js';
import { startAssetsRig, subjectOf, type AssetsRig } from './assets-fixtures.js';

let rig: AssetsRig;
let assetId: string;
beforeAll(async () => {
  rig = await startAssetsRig();
  assetId = (await rig.call('alice', 'save_artifact', { name: 'Board memo', content: '# Memo\n\nConfidential numbers.', content_type: 'text/markdown' })).body.asset_id;
});
afterAll(async () => rig?.stop());

async function share(body: Record<string, unknown>) {
  const created = await rig.rest('alice', 'POST', `/api/v1/portal/assets/${assetId}/shares`, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { share: { id: string; expires_at: string | null; notice_text: string | null }; token: string; path: string; url: string };
}

describe('POST /api/v1/portal/assets/{id}/shares', () => {
  it('creates a public link: an unguessable token, shown once, kept only as its SHA-256', async () => {
    const created = await share({});
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.path).toBe(`/portal/view/${created.token}`);
    expect(created.url).toBe(`https://portal.example.test/portal/view/${created.token}`);
    expect(created.share).toMatchObject({ public: true, expires_at: null, hide_expiration: false, notice_text: null, state: 'active', shared_with_user_id: null });
    const row = (await rig.db.query(`SELECT * FROM asset_shares WHERE id = $1`, [created.share.id])).rows[0];
    expect(row.token_sha256).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${assetId}/shares`);
    expect(JSON.stringify(listed.body)).not.toContain(created.token);
    expect(listed.body.items[0]).toMatchObject({ id: created.share.id, state: 'active' });
    // The asset now carries a public link.
    expect((await rig.rest('alice', 'GET', `/api/v1/portal/assets/${assetId}`)).body.shares).toEqual({ active: 1, public_link: true });
  });

  it('takes expires_in as a duration and hide_expiration; refuses a bad duration', async () => {
    const created = await share({ expires_in: '36h', hide_expiration: true });
    const expires = new Date(created.share.expires_at!).getTime();
    expect(Math.abs(expires - (Date.now() + 36 * 3_600_000))).toBeLessThan(60_000);
    for (const expires_in of ['soon', '30', '10s', '4000d']) {
      const refused = await rig.rest('alice', 'POST', `/api/v1/portal/assets/${assetId}/shares`, { expires_in });
      expect(refused.status, expires_in).toBe(400);
      expect(refused.body.message, expires_in).toContain('expires_in');
    }
  });

  it('notice_text: omitted or null gives the built-in notice, "" hides it, more than 500 characters is refused', async () => {
    const fallback = await share({ notice_text: null });
    const hidden = await share({ notice_text: '' });
    const own = await share({ notice_text: 'n'.repeat(500) });
    const view = async (token: string) => (await rig.rest(undefined, 'GET', `/api/v1/portal/view/${token}`)).body;
    expect((await view(fallback.token)).share.notice).toBe(DEFAULT_NOTICE);
    expect((await view(hidden.token)).share.notice).toBeNull();
    expect((await view(own.token)).share.notice).toBe('n'.repeat(500));
    const refused = await rig.rest('alice', 'POST', `/api/v1/portal/assets/${assetId}/shares`, { notice_text: 'n'.repeat(501) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('at most 500');
  });

  it('refuses a bad address for a private share; only the owner and administrators share (others 404)', async () => {
    expect((await rig.rest('alice', 'POST', `/api/v1/portal/assets/${assetId}/shares`, { shared_with_email: 'not-an-address' })).status).toBe(400);
    expect((await rig.rest('bob', 'POST', `/api/v1/portal/assets/${assetId}/shares`, {})).status).toBe(404);
    expect((await rig.rest('root', 'POST', `/api/v1/portal/assets/${assetId}/shares`, {})).status).toBe(201);
  });
});

describe('the public viewer', () => {
  it('opens a public link for a stranger: the asset, the notice, the relative expiry, the implementor brand; content with the headers of user content', async () => {
    const created = await share({ expires_in: '2d', notice_text: 'For the board only' });
    const view = await rig.rest(undefined, 'GET', `/api/v1/portal/view/${created.token}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(view.body).toEqual({
      state: 'open',
      asset: { name: 'Board memo', description: '', content_type: 'text/markdown', size: 29, version: 1, updated_at: expect.any(String) },
      share: { private: false, expires_at: created.share.expires_at, notice: 'For the board only' },
      brand: { name: 'Acme Analytics', url: 'https://acme.example.test', logo: '/portal/view-brand/logo.svg' },
    });
    const content = await rig.rest(undefined, 'GET', `/api/v1/portal/view/${created.token}/content`);
    expect(content.status).toBe(200);
    expect(content.text).toBe('# Memo\n\nConfidential numbers.');
    expect(content.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    // A view is counted.
    const listed = (await rig.rest('alice', 'GET', `/api/v1/portal/assets/${assetId}/shares`)).body.items.find((s: { id: string }) => s.id === created.share.id);
    expect(listed.view_count).toBe(1);
  });

  it('hides the expiry when hide_expiration is set', async () => {
    const created = await share({ expires_in: '2d', hide_expiration: true });
    expect((await rig.rest(undefined, 'GET', `/api/v1/portal/view/${created.token}`)).body.share.expires_at).toBeNull();
  });

  it('serves the viewer page at /portal/view/{token} with its own CSP and no Referer; unknown, revoked and expired links answer the same 404', async () => {
    const live = await share({});
    const page = await rig.rest(undefined, 'GET', live.path);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<script type="module" crossorigin src="\/portal\/assets\/view-[^"]+\.js"><\/script>/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');

    const revoked = await share({});
    await rig.rest('alice', 'DELETE', `/api/v1/portal/assets/${assetId}/shares/${revoked.share.id}`);
    const expired = await share({ expires_in: '1h' });
    await rig.db.query(`UPDATE asset_shares SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.share.id]);
    const unknown = 'A'.repeat(43);
    const answers = await Promise.all(
      [revoked.token, expired.token, unknown, 'short'].map(async (token) => ({
        page: await rig.rest(undefined, 'GET', `/portal/view/${token}`),
        view: await rig.rest(undefined, 'GET', `/api/v1/portal/view/${token}`),
        content: await rig.rest(undefined, 'GET', `/api/v1/portal/view/${token}/content`),
        frame: await rig.rest(undefined, 'GET', `/portal/view/${token}/frame`),
      })),
    );
    for (const answer of answers) {
      expect(answer.page.status).toBe(404);
      expect(answer.page.text).toBe(page.text);
      expect(answer.view.status).toBe(404);
      expect(answer.view.body).toEqual(answers[2]!.view.body);
      expect(answer.content.status).toBe(404);
      expect(answer.content.body).toEqual(answers[2]!.view.body);
      expect(answer.frame.status).toBe(404);
    }
  });

  it('a private share asks a signed-out visitor to sign in, opens for the person it names, and is the same 404 for anyone else', async () => {
    const created = await share({ shared_with_user_id: subjectOf('carol'), notice_text: '' });
    const signedOut = await rig.rest(undefined, 'GET', `/api/v1/portal/view/${created.token}`);
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toMatchObject({ state: 'sign_in', sign_in: 'none', sign_in_url: null });
    expect(JSON.stringify(signedOut.body)).not.toContain('Board memo');
    expect((await rig.rest(undefined, 'GET', `/api/v1/portal/view/${created.token}/content`)).status).toBe(404);
    const carol = await rig.rest('carol', 'GET', `/api/v1/portal/view/${created.token}`);
    expect(carol.body).toMatchObject({ state: 'open', asset: { name: 'Board memo' }, share: { private: true, notice: null } });
    expect((await rig.rest('carol', 'GET', `/api/v1/portal/view/${created.token}/content`)).status).toBe(200);
    const bob = await rig.rest('bob', 'GET', `/api/v1/portal/view/${created.token}`);
    expect(bob.status).toBe(404);
    expect(bob.body).toEqual((await rig.rest('bob', 'GET', `/api/v1/portal/view/${'B'.repeat(43)}`)).body);
    expect((await rig.rest('bob', 'GET', created.path)).status).toBe(404);
    expect((await rig.rest('carol', 'GET', created.path)).status).toBe(200);
  });

  it('a private share by email opens for the signed-in person with that address (any case), not for others', async () => {
    const service = createAssetService({ config: rig.config, db: rig.db, objstore: createObjstoreConnections(rig.config, { env: {} }), log: silentLogger() });
    const person = (subject: string, email?: string) => resourceActor({ subject, roles: ['staff'], authType: 'oidc', ...(email ? { email } : {}) }, { config: rig.config, origin: 'person' });
    const created = await share({ shared_with_email: 'Dana@Example.TEST' });
    expect(created.share).toMatchObject({ shared_with_email: 'dana@example.test' });
    expect(await service.openShare(created.token, undefined)).toEqual({ state: 'sign_in' });
    expect((await service.openShare(created.token, person('oidc:idp#dana', 'dana@example.test'))).state).toBe('open');
    expect((await service.openShare(created.token, person('oidc:idp#dan', 'DANA@example.test'))).state).toBe('open');
    await expect(service.openShare(created.token, person('oidc:idp#erin', 'erin@example.test'))).rejects.toMatchObject({ code: 'not_found' });
    const dana = person('oidc:idp#dana', 'dana@example.test');
    const mine = await service.list(dana, { scope: 'shared_with_me' });
    expect(mine.items.map((a) => a.id)).toEqual([assetId]);
  });

  it('frames a shared HTML asset in a sandbox whose CSP forbids every request; the implementor logo is served sanitised', async () => {
    const html = (await rig.call('alice', 'save_artifact', { name: 'Chart', content: '<p>chart</p>', content_type: 'text/html' })).body.asset_id;
    const created = await rig.rest('alice', 'POST', `/api/v1/portal/assets/${html}/shares`, {});
    const frame = await rig.rest(undefined, 'GET', `/portal/view/${created.body.token}/frame`);
    expect(frame.status).toBe(200);
    expect(frame.text).toBe('<p>chart</p>');
    expect(frame.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
    expect(frame.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(frame.headers.get('referrer-policy')).toBe('no-referrer');
    const logo = await rig.rest(undefined, 'GET', '/portal/view-brand/logo.svg');
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toContain('image/svg+xml');
    expect(logo.text).toContain('<rect width="10" height="10" fill="#0b5cd6"/>');
    for (const gone of ['script', 'onload', 'foreignObject', 'javascript:', 'tracker.example', 'evil.example', 'ENTITY', '<image']) expect(logo.text).not.toContain(gone);
  });
});

describe('Used by and delete counts', () => {
  it('lists the referencing assets the caller may open, counts the others, flags a public link; delete is refused with the count unless forced, and the asset then reports the file as missing', async () => {
    const resource = await rig.upload('root', { library: 'global', path: 'brand', name: 'palette.txt', content: 'blue, white' });
    const mine = await rig.call('alice', 'save_artifact', { name: 'Deck notes', content: `Colours from mcp:resource:${resource.id}.`, content_type: 'text/markdown' });
    const bobs = await rig.call('bob', 'save_artifact', { name: 'Bob chart', content: '{"a":1}', content_type: 'application/json', sources: [resource.uri] });
    expect(mine.isError || bobs.isError).toBe(false);
    await rig.rest('bob', 'POST', `/api/v1/portal/assets/${bobs.body.asset_id}/shares`, {});

    const forAlice = await rig.rest('alice', 'GET', `/api/v1/resources/${resource.id}/used-by`);
    expect(forAlice.status).toBe(200);
    expect(forAlice.body).toEqual({
      assets: 2,
      prompts: 0,
      tables: 0,
      referencing_assets: [{ id: mine.body.asset_id, name: 'Deck notes', public_link: false }],
      assets_not_shown: 1,
      public_link: true,
    });
    const forRoot = await rig.rest('root', 'GET', `/api/v1/resources/${resource.id}/used-by`);
    expect(forRoot.body.referencing_assets.map((a: { name: string }) => a.name).sort()).toEqual(['Bob chart', 'Deck notes']);
    expect(forRoot.body.referencing_assets.find((a: { name: string }) => a.name === 'Bob chart').public_link).toBe(true);
    expect(forRoot.body.assets_not_shown).toBe(0);

    // The asset lists what it references, linking to the resource.
    const detail = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${mine.body.asset_id}`);
    expect(detail.body.references).toEqual([{ resource_id: resource.id, reference: `mcp:resource:${resource.id}`, missing: false, readable: true, name: 'palette', uri: resource.uri }]);

    const refused = await rig.call('root', 'manage_resource', { action: 'delete', reference: `mcp:resource:${resource.id}` });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: 'conflict', references: { assets: 2 } });
    expect(refused.text).toContain('2 assets');
    const forced = await rig.call('root', 'manage_resource', { action: 'delete', reference: `mcp:resource:${resource.id}`, force: true });
    expect(forced.isError, forced.text).toBe(false);
    const after = await rig.rest('alice', 'GET', `/api/v1/portal/assets/${mine.body.asset_id}`);
    expect(after.body.references).toEqual([{ resource_id: resource.id, reference: `mcp:resource:${resource.id}`, missing: true, readable: false }]);
  });

  it('records only resources the saver may open: a reference to another person\'s private file is not recorded', async () => {
    const bobsFile = await rig.upload('bob', { name: 'private.txt', content: 'secret' });
    const saved = await rig.call('alice', 'save_artifact', { name: 'Probe', content: `see mcp:resource:${bobsFile.id}`, content_type: 'text/plain' });
    expect((await rig.rest('alice', 'GET', `/api/v1/portal/assets/${saved.body.asset_id}`)).body.references).toEqual([]);
    expect((await rig.rest('bob', 'GET', `/api/v1/resources/${bobsFile.id}/used-by`)).body).toMatchObject({ assets: 0, assets_not_shown: 0, referencing_assets: [] });
  });
});
