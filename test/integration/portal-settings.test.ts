/**
 * GET /api/v1/portal/settings (api/portal/settings-route.ts): public, the brand the sidebar shows,
 * how people sign in, and the inline preview bound the portal's preview pane and source editor
 * apply — the api's own (spec document 2, "Limits": fetch returns bytes inline up to 1 MB), so the
 * portal never states a limit of its own.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { portalSettingsRoute } from '../../api/portal/settings-route.js';
import { parseConfig } from '../../shared/config/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { FETCH_INLINE_BYTES } from '../../shared/search/index.js';

let app: App;
let url: string;
beforeAll(async () => {
  const { config } = parseConfig(`portal: { title: "Acme Files", logo: "https://cdn.example.com/logo.svg", logo_dark: "https://cdn.example.com/logo-dark.svg" }\n`, {});
  app = await buildHttpApp({ log: silentLogger(), metrics: createMetrics({ defaultMetrics: false }), readiness: new Readiness(), bodyLimit: 1024, version: 'test', serveMetrics: false });
  await app.register(portalSettingsRoute, { config, signIn: 'link' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => app?.close());

it('answers signed out: the brand, the sign-in kind, the inline preview bound (the bytes fetch answers inline, 1 MB) and the upload ceiling per file', async () => {
  const answer = await fetch(`${url}/api/v1/portal/settings`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-cache');
  expect(await answer.json()).toEqual({
    title: 'Acme Files',
    logo: 'https://cdn.example.com/logo.svg',
    logo_light: '',
    logo_dark: 'https://cdn.example.com/logo-dark.svg',
    sign_in: 'link',
    admin_path_prefix: '',
    inline_preview_bytes: FETCH_INLINE_BYTES,
    max_upload_bytes: 104_857_600,
  });
  expect(FETCH_INLINE_BYTES).toBe(1024 * 1024);
});

it('states resources.managed.max_upload_bytes as configured (the upload dialog refuses a larger file before sending it)', async () => {
  const { config } = parseConfig('resources: { managed: { max_upload_bytes: 5000 } }\n', {});
  const other = await buildHttpApp({ log: silentLogger(), metrics: createMetrics({ defaultMetrics: false }), readiness: new Readiness(), bodyLimit: 1024, version: 'test', serveMetrics: false });
  await other.register(portalSettingsRoute, { config, signIn: 'none' });
  try {
    const answer = await other.inject({ method: 'GET', url: '/api/v1/portal/settings' });
    expect(answer.json()).toMatchObject({ max_upload_bytes: 5000 });
  } finally {
    await other.close();
  }
});

it("names admin.path_prefix when admin.enabled (the administrators' pages call the admin API there)", async () => {
  const { config } = parseConfig('admin: { enabled: true, path_prefix: /ops/admin }\n', {});
  const other = await buildHttpApp({ log: silentLogger(), metrics: createMetrics({ defaultMetrics: false }), readiness: new Readiness(), bodyLimit: 1024, version: 'test', serveMetrics: false });
  await other.register(portalSettingsRoute, { config, signIn: 'none' });
  try {
    const answer = await other.inject({ method: 'GET', url: '/api/v1/portal/settings' });
    expect(answer.json()).toMatchObject({ admin_path_prefix: '/ops/admin' });
  } finally {
    await other.close();
  }
});
