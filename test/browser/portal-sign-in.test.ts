/**
 * A real browser signs in to the portal: headless Debian Chromium (playwright-core) opens
 * /portal/auth/login, is sent to the test identity provider's login page, fills it in, and comes
 * back through the callback signed in — the session cookie set by the browser itself — landing on
 * the platform's session JSON, which names the person. CI installs Chromium (.ci/run); without it
 * the test is skipped, saying so.
 */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { startTestApi, testConfig } from '../support/api.js';
import { startLoginProvider, type LoginProvider } from '../support/login-provider.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
if (!haveChromium) console.warn(`browser test skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);

describe.skipIf(!haveChromium)('portal sign-in in a browser', () => {
  let provider: LoginProvider;
  let api: RunningApi;
  let browser: Browser;
  const grace = { username: 'grace', password: 'cobol-1959', name: 'Grace Hopper', email: 'grace@example.com', roles: ['analyst'] };

  beforeAll(async () => {
    provider = await startLoginProvider();
    provider.addUser(grace);
    const clientSecret = randomBytes(16).toString('hex');
    const config = testConfig(`
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
auth:
  oidc:
    enabled: true
    issuer: ${provider.issuer}
    client_id: portal
    client_secret: ${clientSecret}
    role_claim_path: realm_access.roles
  browser_session:
    enabled: true
    signing_key: ${randomBytes(32).toString('base64')}
    secure: false
# The portal itself (it needs a database and object storage configured; this test reaches neither).
database: { dsn: "postgresql://postgres@127.0.0.1:5432/unused" }
toolkits:
  objstore:
    local: { driver: filesystem, root: /tmp/unused-portal-objects }
portal: { enabled: true, s3_bucket: portal, title: "Grace's Portal" }
`);
    api = await startTestApi({ config });
    await provider.addClient({ clientId: 'portal', clientSecret, redirectUris: [`${api.url}/portal/auth/callback`] });
    // Root in containers cannot use Chromium's sandbox.
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await provider?.close();
  });

  it('signs in through the provider’s login page and lands signed in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.url}/portal/auth/login?return_to=${encodeURIComponent('/api/v1/portal/session')}`);
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await page.getByLabel('Username').fill(grace.username);
    await page.getByLabel('Password').fill(grace.password);
    await Promise.all([page.waitForURL(`${api.url}/api/v1/portal/session`), page.getByRole('button', { name: 'Sign in' }).click()]);

    const session = JSON.parse((await page.locator('body').innerText()).trim()) as Record<string, unknown>;
    expect(session).toMatchObject({
      subject: `oidc:${provider.issuer}#grace`,
      name: 'Grace Hopper',
      email: 'grace@example.com',
      roles: ['analyst'],
      auth_type: 'browser_session',
      csrf_token: expect.any(String),
    });
    const cookies = await context.cookies(api.url);
    expect(cookies.find((c) => c.name === 'mcp_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    await context.close();
  });

  it('sends a signed-out visitor of a portal address to sign in, and back to that address once signed in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const asked = '/portal/resources/lib/global/templates?sort=size';
    await page.goto(`${api.url}${asked}`);
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByLabel('Username').fill(grace.username);
    await page.getByLabel('Password').fill(grace.password);
    await Promise.all([page.waitForURL(`${api.url}${asked}`), page.getByRole('button', { name: 'Sign in' }).click()]);
    // Signed in: the portal's sidebar names the person and the brand.
    await expect.poll(() => page.getByRole('navigation', { name: 'Portal' }).innerText()).toContain('Grace Hopper');
    expect(await page.title()).toBe("Grace's Portal");
    await context.close();
  });
});
