/**
 * The built-in platform-info MCP App (issue 40 part B) in real Chromium, as a host of the MCP Apps
 * extension (SEP-1865) shows it: the page read with the official SDK client (resources/read
 * ui://platform-info) is loaded in a sandboxed iframe on an origin of its own under the
 * extension's restrictive default CSP (no `_meta.ui.csp` declared), and a host page answers its
 * ui/initialize, then hands it the real platform_info result. The page must render that result,
 * apply the host's theme, report its size, open the brand link through ui/open-link, and do it
 * all without a CSP violation, a page error or a serious accessibility problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiConfigYaml, connectMcp, startTestApi, testConfig } from '../support/api.js';
import { chromiumPath, haveChromium, seriousViolations, watchPageProblems } from '../support/portal.js';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import type { RunningApi } from '../../api/start.js';
import { z } from 'zod';

const tool = (name: string, toolkit: string) => defineTool({ name, toolkit, description: name, input: z.object({}), handler: async () => textResult(name) });

/** What a host MUST apply when a UI resource declares no CSP (the extension's "Restrictive Default"). */
const DEFAULT_APP_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'";

/** A minimal web host: answers the view's requests and records every message it gets. */
const hostPage = (theme: 'light' | 'dark', toolResult: unknown) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<style>body{margin:0;background:${theme === 'dark' ? '#111' : '#eee'}} iframe{border:0;width:640px;height:480px;display:block;margin:24px}</style></head>
<body><main><iframe id="view" title="Platform information" sandbox="allow-scripts" src="https://sandbox.test/app"></iframe></main>
<script>
window.received = [];
window.toolResult = ${JSON.stringify(toolResult).replace(/</g, '\\u003c')};
const view = document.getElementById('view');
const reply = (message) => view.contentWindow.postMessage(message, '*');
window.addEventListener('message', (event) => {
  if (event.source !== view.contentWindow) return;
  const message = event.data;
  window.received.push(message);
  if (message.method === 'ui/initialize') {
    reply({ jsonrpc: '2.0', id: message.id, result: {
      protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1' }, hostCapabilities: { openLinks: {} },
      hostContext: { theme: '${theme}', styles: { variables: { '--color-ring-primary': '#d97706' } } } } });
  } else if (message.method === 'ui/notifications/initialized') {
    reply({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: {} } });
    reply({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: window.toolResult });
  } else if (message.method === 'ui/open-link') {
    reply({ jsonrpc: '2.0', id: message.id, result: {} });
  }
});
</script></body></html>`;

describe.skipIf(!haveChromium)('the platform-info MCP App in a browser host', () => {
  let api: RunningApi;
  let client: Client;
  let browser: Browser;
  let html: string;
  let toolResult: unknown;

  beforeAll(async () => {
    api = await startTestApi({
      config: testConfig(
        apiConfigYaml({
          server: ['name: acme-data', 'version: "2.4.1"', 'description: "Sales facts & figures for the EMEA teams"', 'tags: [sales, finance]'],
          extra: `      display_name: Sales analyst
      description: Reads curated sales data
mcpapps:
  apps:
    platform-info:
      config:
        brand_name: Acme Data
        brand_url: "https://acme.example.com/data"
        logo_svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Acme</title><rect width="32" height="32" rx="6" fill="#0f766e"/><path d="M8 24 16 8l8 16z" fill="#fff"/></svg>'
`,
        }),
      ),
      tools: [tool('sales_chart', 'sales'), tool('ledger_totals', 'ledger')],
    });
    client = await connectMcp(api.url);
    const page = (await client.readResource({ uri: 'ui://platform-info' })).contents[0]!;
    html = 'text' in page ? page.text : '';
    toolResult = await client.callTool({ name: 'platform_info', arguments: {} });
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await api?.stop();
  });

  async function openHost(theme: 'light' | 'dark', width: number): Promise<{ page: Page; problems: string[] }> {
    const page = await (await browser.newContext({ viewport: { width, height: 560 } })).newPage();
    const problems = watchPageProblems(page);
    await page.route('https://host.test/**', (route) => route.fulfill({ contentType: 'text/html', body: hostPage(theme, toolResult) }));
    await page.route('https://sandbox.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', headers: { 'content-security-policy': DEFAULT_APP_CSP }, body: html }),
    );
    await page.goto('https://host.test/');
    return { page, problems };
  }

  const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Array<{ method?: string; params?: Record<string, unknown> }> }).received);

  it('completes the handshake, renders the platform_info result (persona included) and reports its size', async () => {
    const { page, problems } = await openHost('light', 1280);
    const view = page.frameLocator('#view');
    await expect.poll(async () => (await received(page)).map((m) => m.method)).toEqual(expect.arrayContaining(['ui/initialize', 'ui/notifications/initialized']));
    await expect.poll(() => view.getByText('Sales analyst').isVisible()).toBe(true);
    await expect.poll(() => view.getByRole('heading', { level: 1 }).innerText()).toBe('acme-data');
    expect(await view.getByText('Version 2.4.1').isVisible()).toBe(true);
    expect(await view.getByText('Reads curated sales data').isVisible()).toBe(true);
    expect(await view.getByRole('list').nth(0).innerText()).toMatch(/sales\s+finance/);
    expect(await view.getByRole('list').nth(1).innerText()).toMatch(/ledger\s+sales/); // the server's toolkits
    expect(await view.getByRole('link', { name: /Acme Data/ }).getAttribute('href')).toBe('https://acme.example.com/data');
    expect(await view.getByRole('img', { name: 'Acme Data logo' }).isVisible()).toBe(true);
    await expect.poll(async () => (await received(page)).some((m) => m.method === 'ui/notifications/size-changed' && typeof m.params?.height === 'number')).toBe(true);
    await page.screenshot({ path: '/tmp/wt-40b-platform-info-light-1280.png' });
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the brand link goes to the host as ui/open-link; the dark theme applies', async () => {
    const { page, problems } = await openHost('dark', 1920);
    const view = page.frameLocator('#view');
    await expect.poll(async () => (await received(page)).some((m) => m.method === 'ui/notifications/initialized')).toBe(true);
    await view.getByRole('link', { name: /Acme Data/ }).click();
    await expect.poll(async () => (await received(page)).filter((m) => m.method === 'ui/open-link').map((m) => m.params)).toEqual([{ url: 'https://acme.example.com/data' }]);
    expect(await view.locator('html').evaluate((el) => getComputedStyle(el).colorScheme)).toBe('dark');
    await page.screenshot({ path: '/tmp/wt-40b-platform-info-dark-1920.png' });
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
