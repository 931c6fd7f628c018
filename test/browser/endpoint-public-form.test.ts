/**
 * A public scripted endpoint in a real browser (issue 17, acceptance): headless Debian Chromium
 * (playwright-core) opens a partner's page on another origin, listed in the endpoint's
 * allowed_origins, that loads /botcheck/solver.js from the platform, solves a challenge at
 * difficulty 16, and posts its form as JSON with the answer in X-Bot-Check. The browser's CORS
 * preflight is answered by the endpoint, and the handler's answer reaches the page; a credentialed
 * request cannot read it (credentials are never allowed across origins). Without Chromium the test
 * is skipped, saying so.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndpointRig, type EndpointRig } from '../integration/endpoint-requests-fixtures.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
if (!haveChromium) console.warn(`browser test skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);

describe.skipIf(!haveChromium)('a public endpoint from a partner page', () => {
  let rig: EndpointRig;
  let partner: Server;
  let partnerOrigin: string;
  let browser: Browser;

  beforeAll(async () => {
    rig = await startEndpointRig({ botCheck: 'deployment' });
    const page = `<!doctype html><html><head><title>Order form</title><script src="${rig.api.url}/botcheck/solver.js"></script></head>
<body><form><div id="bot-check"></div></form></body></html>`;
    partner = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    partnerOrigin = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
    await rig.endpoint('orders', 'export function handle(req) { return { status: 201, json: { ordered: req.json.item, origin: req.headers.origin } } }', {
      methods: ['POST'],
      allowed_origins: [partnerOrigin],
    });
    // Root in containers cannot use Chromium's sandbox.
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (partner ? partner.close(() => resolve()) : resolve()));
    await rig?.stop();
  });

  it('solves a challenge at difficulty 16 and the endpoint answers the form', async () => {
    const page = await browser.newPage();
    await page.goto(partnerOrigin);
    const result = await page.evaluate(async (endpointUrl) => {
      const check = (window as unknown as { PlatformBotCheck: { header: string; answer(n: string, o: { container: Element }): Promise<string> } }).PlatformBotCheck;
      const answer = await check.answer('orders', { container: document.getElementById('bot-check')! });
      const send = (value: string, credentials: RequestCredentials) =>
        fetch(endpointUrl, { method: 'POST', credentials, headers: { 'content-type': 'application/json', [check.header]: value }, body: JSON.stringify({ item: 'tea' }) });
      const answered = await send(answer, 'omit');
      const body = (await answered.json()) as unknown;
      // A credentialed cross-origin request: the browser keeps the answer from the page.
      const credentialed = await send(answer, 'include').then(
        () => 'read',
        (error: unknown) => (error instanceof TypeError ? 'blocked' : String(error)),
      );
      return { answer, status: answered.status, body, credentialed };
    }, `${rig.api.url}/endpoints/orders`);
    expect(result.answer).toMatch(/^v1\.orders\.16\./);
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ ordered: 'tea', origin: partnerOrigin });
    expect(result.credentialed).toBe('blocked');
    await page.close();
  }, 120_000);
});
