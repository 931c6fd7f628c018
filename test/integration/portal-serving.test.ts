/**
 * How the api serves the portal (PORTAL.md, "How it is served"; issue 36, "The app"): the built app
 * at /portal/ with its CSP, hashed assets cached for a year and compressed, index.html revalidated
 * and answering every portal address (reload and links work), a missing hashed asset a 404 (never
 * HTML as script), nothing outside the build reachable; the brand and sign-in kind at
 * /api/v1/portal/settings; no portal at all unless `portal.enabled`; a clear start-up error when it
 * is enabled but not built.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { portalDistDir } from '../../shared/toolchain/index.js';
import { startTestApi, testConfig } from '../support/api.js';

function portalYaml(portal: string): string {
  return `
server: { address: "127.0.0.1:0", transport: http, shutdown: { pre_shutdown_delay: 0s, grace_period: 5s } }
database: { dsn: "postgresql://postgres@127.0.0.1:5432/unused" }
toolkits:
  objstore:
    local: { driver: filesystem, root: /tmp/unused-portal-objects }
portal: ${portal}
`;
}

let api: RunningApi;
let script: string;

beforeAll(async () => {
  api = await startTestApi({
    config: testConfig(portalYaml('{ enabled: true, s3_bucket: portal, title: "Acme Data", logo: "https://cdn.acme.test/logo.svg", logo_dark: "https://img.acme.test/dark.svg" }')),
  });
  script = (await readdir(join(portalDistDir, 'assets'))).find((name) => name.endsWith('.js'))!;
});

afterAll(async () => api?.stop());

describe('the built portal at /portal/', () => {
  it('answers index.html at /portal/ with the strict CSP, never cached without revalidation', async () => {
    for (const path of ['/portal/', '/portal']) {
      const answer = await fetch(`${api.url}${path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = answer.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      // Images from the configured logos' origins only, besides its own.
      expect(csp).toContain("img-src 'self' data: blob: https://cdn.acme.test https://img.acme.test;");
      expect(await answer.text()).toContain('<div id="root"></div>');
    }
  });

  it('answers the app at every portal address, so reload and links work', async () => {
    for (const path of ['/portal/resources', '/portal/resources/lib/global/templates', '/portal/resources/lib/person:oidc%3Ax%23y/a', '/portal/admin/resources/0190a1b2', '/portal/no/such/page']) {
      const answer = await fetch(`${api.url}${path}`);
      expect(answer.status, path).toBe(200);
      expect(await answer.text()).toContain('<div id="root"></div>');
    }
  });

  it('caches hashed assets for a year, compresses them, and answers 304 to a matching ETag', async () => {
    const plain = await fetch(`${api.url}/portal/assets/${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const bytes = Buffer.from(await plain.arrayBuffer());
    const raw = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(`${api.url}/portal/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(raw.body).equals(bytes)).toBe(true);
    expect(raw.body.length).toBeLessThan(bytes.length);
    const again = await fetch(`${api.url}/portal/assets/${script}`, { headers: { 'if-none-match': plain.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('answers 404 for a hashed asset the build does not have, never the HTML page', async () => {
    const answer = await fetch(`${api.url}/portal/assets/index-gone1234.js`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('serves nothing outside the build: no stamp files, no traversal', async () => {
    const stamp = await fetch(`${api.url}/portal/.platform-source-hash`);
    expect(await stamp.text()).toContain('<div id="root"></div>');
    for (const path of ['/portal/../package.json', '/portal/%2e%2e/package.json', '/portal/assets/%2e%2e/%2e%2e/package.json', '/portal/..%2fpackage.json']) {
      const answer = await fetch(`${api.url}${path}`);
      expect(await answer.text(), path).not.toContain('"name": "agent-data-platform"');
    }
  });

  it('GET /api/v1/portal/settings answers the brand and that browser sign-in is not configured, without credentials', async () => {
    const answer = await fetch(`${api.url}/api/v1/portal/settings`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ title: 'Acme Data', logo: 'https://cdn.acme.test/logo.svg', logo_light: '', logo_dark: 'https://img.acme.test/dark.svg', sign_in: 'none', inline_preview_bytes: 1024 * 1024, admin_path_prefix: '', max_upload_bytes: 104_857_600 });
  });
});

describe('portal.enabled', () => {
  it('false (the default): no portal and no settings route', async () => {
    const off = await startTestApi({ config: testConfig(portalYaml('{ enabled: false }')) });
    try {
      expect((await fetch(`${off.url}/portal/`)).status).toBe(404);
      expect((await fetch(`${off.url}/api/v1/portal/settings`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });

  it('true without a build: the api does not start, and says how to build it', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'portal-unbuilt-'));
    try {
      await expect(startTestApi({ config: testConfig(portalYaml('{ enabled: true, s3_bucket: portal }')), portalDistDir: empty })).rejects.toThrow(
        /portal\.enabled is true but the portal is not built .*index\.html is missing\): run npm run build:portal/,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
