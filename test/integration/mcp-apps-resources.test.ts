/**
 * MCP Apps (issue 40 part B; spec document 1 `mcpapps.*`; the MCP Apps extension SEP-1865), through
 * the official SDK client over the real Streamable HTTP transport: the apps in resources/list,
 * resources/read of ui://platform-info (MIME type, branding) and of a custom app (its files put
 * into the page, its config injected, its CSP declared), the tools that surface them, and every
 * way out of assets_path refused.
 */
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiConfigYaml, connectMcp, startTestApi, testConfig } from '../support/api.js';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import type { RunningApi } from '../../api/start.js';

const MIME = 'text/html;profile=mcp-app';
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cf00000301010018dd8db00000000049454e44ae426082', 'hex');

const salesChart = defineTool({
  name: 'sales_chart',
  toolkit: 'sales',
  description: 'Draw the sales chart',
  input: z.object({}),
  handler: async () => textResult('chart drawn'),
});
const salesTotals = defineTool({ name: 'sales_totals', toolkit: 'sales', description: 'Sum sales', input: z.object({}), handler: async () => textResult('42') });

/** The JSON text of the app-config element of a page. */
function appConfigText(html: string): string {
  const start = html.indexOf('<script type="application/json" id="app-config">');
  expect(start).toBeGreaterThanOrEqual(0);
  const body = html.slice(start + '<script type="application/json" id="app-config">'.length);
  return body.slice(0, body.indexOf('</script>'));
}

/** The one item of an app's resources/read answer, as text (an app is never a blob). */
async function readPage(client: Client, uri: string) {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const page = contents[0]!;
  if (!('text' in page)) throw new Error(`${uri} answered a blob`);
  return page;
}

const readError = (client: Client, uri: string) =>
  client.readResource({ uri }).then(
    () => undefined,
    (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
  );

describe('MCP Apps over MCP resources and tools', () => {
  let dir: string;
  let api: RunningApi;
  let client: Client;
  const hostile = '</script><script>alert("owned")</script><!-- ';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-apps-'));
    const charts = join(dir, 'charts');
    await mkdir(join(charts, 'css'), { recursive: true });
    await mkdir(join(charts, 'img'), { recursive: true });
    await writeFile(
      join(charts, 'index.html'),
      '<!DOCTYPE html>\n<html><head><title>Charts</title><link rel="stylesheet" href="css/app.css"></head>\n' +
        '<body><img src="img/dot.png" alt="dot"><script src="https://cdn.example.com/lib.js"></script>\n' +
        '<script type="module" src="./app.js?v=3"></script><script src="current.js"></script></body></html>\n',
    );
    await writeFile(join(charts, 'app.js'), 'const end = "</script>"; document.title = "charts " + end.length;\n');
    await symlink(join(charts, 'app.js'), join(charts, 'current.js')); // a symlink that stays inside is fine
    await writeFile(join(charts, 'css', 'app.css'), 'body { background: url("../img/dot.png"); color: #123; }\n');
    await writeFile(join(charts, 'img', 'dot.png'), png);
    await writeFile(join(dir, 'secret.js'), 'const secret = "outside the app";\n');
    // Apps whose pages reach outside their directory, each its own way.
    const evil = async (name: string, ref: string) => {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, 'index.html'), `<html><head></head><body><script src="${ref}"></script></body></html>`);
    };
    await evil('climb', '../secret.js');
    await evil('encoded', '%2e%2e/secret.js');
    await evil('rooted', '/etc/passwd');
    await evil('linked', 'leak.js');
    await symlink(join(dir, 'secret.js'), join(dir, 'linked', 'leak.js'));
    await evil('missing', 'nowhere.js');
    // Apps past the bounds: one file over 2 MiB, over 100 files, a page over 8 MiB.
    await evil('big', 'big.js');
    await writeFile(join(dir, 'big', 'big.js'), Buffer.alloc(2 * 1024 * 1024 + 1, 0x20));
    await mkdir(join(dir, 'many'));
    await writeFile(join(dir, 'many', 'dot.png'), png);
    await writeFile(join(dir, 'many', 'index.html'), '<html><body>' + '<img src="dot.png" alt="">'.repeat(101) + '</body></html>');
    await mkdir(join(dir, 'heavy'));
    await writeFile(join(dir, 'heavy', 'part.js'), Buffer.alloc(2 * 1024 * 1024 - 16, 0x20));
    await writeFile(join(dir, 'heavy', 'index.html'), '<html><body>' + '<script src="part.js"></script>'.repeat(5) + '</body></html>');

    const app = (name: string, extra = '') => `    ${name}: { assets_path: ${JSON.stringify(join(dir, name))}${extra} }\n`;
    api = await startTestApi({
      config: testConfig(
        apiConfigYaml({
          server: ['name: acme-data', 'description: "Sales <b>facts</b> & figures"', 'tags: [sales, "<i>finance</i>"]'],
          extra: `mcpapps:
  apps:
    platform-info:
      config:
        brand_name: "Acme <b>&</b> Co"
        brand_url: "https://acme.example.com/?a=1&b=\\"2\\""
        logo_svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><circle cx="5" cy="5" r="4" fill="#c00"/></svg>'
    charts:
      assets_path: ${JSON.stringify(charts)}
      tools: [sales_chart]
      csp:
        resource_domains: ["https://cdn.example.com"]
        connect_domains: ["https://api.example.com"]
      config:
        region: EMEA
        note: ${JSON.stringify(hostile)}
        nested: { limit: 5, flags: [true, false] }
${['climb', 'encoded', 'rooted', 'linked', 'missing', 'big', 'many', 'heavy'].map((name) => app(name)).join('')}`,
        }),
      ),
      tools: [salesChart, salesTotals],
    });
    client = await connectMcp(api.url);
  });

  afterAll(async () => {
    await client?.close();
    await api?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('resources/list shows every enabled app as a ui:// resource with the MCP App MIME type and its declared CSP', async () => {
    const { resources } = await client.listResources();
    const apps = resources.filter((r) => r.uri.startsWith('ui://'));
    expect(apps.map((r) => r.uri)).toEqual(
      ['platform-info', 'charts', 'climb', 'encoded', 'rooted', 'linked', 'missing', 'big', 'many', 'heavy'].map((name) => `ui://${name}`),
    );
    for (const app of apps) expect(app.mimeType).toBe(MIME);
    expect(apps[0]).toMatchObject({ name: 'platform-info', title: 'Platform information' });
    expect(apps[0]!._meta).toBeUndefined(); // no CSP declared: hosts apply the extension's restrictive default
    expect(apps[1]).toMatchObject({
      name: 'charts',
      _meta: { ui: { csp: { resourceDomains: ['https://cdn.example.com'], connectDomains: ['https://api.example.com'] } } },
    });
  });

  it('the server announces the extension in its capabilities (SEP-2133 extensions)', () => {
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/ui': {} });
  });

  it('the tools that surface an app carry its resource URI in _meta.ui.resourceUri and the legacy ui/resourceUri key', async () => {
    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.map((t) => [t.name, t._meta]));
    expect(meta.platform_info).toEqual({ ui: { resourceUri: 'ui://platform-info' }, 'ui/resourceUri': 'ui://platform-info' });
    expect(meta.sales_chart).toEqual({ ui: { resourceUri: 'ui://charts' }, 'ui/resourceUri': 'ui://charts' });
    expect(meta.sales_totals).toBeUndefined();
    // The tool still answers as text for hosts without MCP Apps (the extension's fallback).
    expect((await client.callTool({ name: 'sales_chart', arguments: {} })).content).toEqual([{ type: 'text', text: 'chart drawn' }]);
  });

  it('resources/read ui://platform-info returns a self-contained HTML page with the platform facts, escaped', async () => {
    const page = await readPage(client, 'ui://platform-info');
    expect(page).toMatchObject({ uri: 'ui://platform-info', mimeType: MIME });
    expect(page._meta).toBeUndefined();
    const html = page.text;
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<h1 id="name">acme-data</h1>');
    expect(html).toContain('Sales &lt;b&gt;facts&lt;/b&gt; &amp; figures');
    expect(html).toContain('<li>&lt;i&gt;finance&lt;/i&gt;</li>');
    expect(html).toContain('<li>sales</li>'); // the toolkits of this server
    // Self-contained: no file, script or style sheet from anywhere else.
    expect(html).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet|https?:\/\/(?!acme\.example\.com)/);
    expect(html).toContain("request('ui/initialize'");
  });

  it('branding: brand_name and brand_url escaped where they go, the logo sanitised and shown as an image', async () => {
    const html = (await readPage(client, 'ui://platform-info')).text;
    expect(html).toContain('<span>Acme &lt;b&gt;&amp;&lt;/b&gt; Co</span>');
    expect(html).toContain('<title>Acme &lt;b&gt;&amp;&lt;/b&gt; Co · acme-data</title>');
    expect(html).toContain('<a id="brand-link" href="https://acme.example.com/?a=1&amp;b=&quot;2&quot;" target="_blank" rel="noopener noreferrer">');
    const logo = /<img alt="Acme &lt;b&gt;&amp;&lt;\/b&gt; Co logo" src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)">/.exec(html);
    expect(logo).not.toBeNull();
    const svg = Buffer.from(logo![1]!, 'base64').toString('utf8');
    expect(svg).toContain('<circle cx="5" cy="5" r="4" fill="#c00"/>');
    expect(svg).not.toMatch(/script|onload|alert/);
  });

  it('a custom app: its own scripts, style sheet and images put into the page, other origins left to its CSP, and its CSP in the read _meta', async () => {
    const page = await readPage(client, 'ui://charts');
    expect(page).toMatchObject({
      uri: 'ui://charts',
      mimeType: MIME,
      _meta: { ui: { csp: { resourceDomains: ['https://cdn.example.com'], connectDomains: ['https://api.example.com'] } } },
    });
    const html = page.text;
    const dataPng = `data:image/png;base64,${png.toString('base64')}`;
    expect(html).toContain(`<style>body { background: url("${dataPng}"); color: #123; }\n</style>`);
    expect(html).toContain(`<img src="${dataPng}" alt="dot">`);
    expect(html).toContain('<script src="https://cdn.example.com/lib.js"></script>');
    // The script's own "</script>" cannot end the element it is put into.
    const inlined = 'const end = "<\\/script>"; document.title = "charts " + end.length;\n';
    expect(html).toContain(`<script type="module">${inlined}</script>`);
    expect(html).toContain(`<script>${inlined}</script>`); // current.js, a symlink inside the directory
    expect(html).not.toMatch(/src="(\.\/)?app\.js|current\.js|css\/app\.css/);
  });

  it('a custom app: config injected as JSON in script#app-config, first in <head>; a value holding </script> cannot break out', async () => {
    const html = (await readPage(client, 'ui://charts')).text;
    expect(html).toMatch(/^<!DOCTYPE html>\n<html><head><script type="application\/json" id="app-config">/);
    const json = appConfigText(html);
    expect(json).not.toMatch(/<|>|&/);
    expect(JSON.parse(json)).toEqual({ region: 'EMEA', note: hostile, nested: { limit: 5, flags: [true, false] } });
    // Exactly the app's own script elements follow: the hostile value opened none.
    expect(html.match(/<script\b/g)).toHaveLength(4);
    expect(html).not.toContain('alert("owned")</script>');
  });

  it('refuses a page that names a file outside assets_path: ../, encoded ../, a rooted path, a symlink out', async () => {
    for (const [name, what] of [
      ['climb', '"../secret.js" is outside the app\'s directory'],
      ['encoded', '"%2e%2e/secret.js" is outside the app\'s directory'],
      ['rooted', 'an app names its files relative to the page, not from a root'],
      ['linked', 'leak.js resolves outside the app\'s directory (symlink)'],
    ] as const) {
      const error = await readError(client, `ui://${name}`);
      expect(error, name).toEqual({ code: -32603, message: expect.stringContaining(`app ui://${name} cannot be served: `) });
      expect(error!.message, name).toContain(what);
      expect(error!.message, name).not.toContain(dir); // no server path in the answer
      expect(error!.message, name).not.toContain('outside the app";'); // nor the file's content
    }
    expect(await readError(client, 'ui://missing')).toEqual({ code: -32603, message: expect.stringContaining('nowhere.js does not exist') });
  });

  it('bounds what one read assembles: a file over 2 MiB, more than 100 files, a page over 8 MiB', async () => {
    expect(await readError(client, 'ui://big')).toEqual({ code: -32603, message: expect.stringContaining('big.js is larger than 2097152 bytes') });
    expect(await readError(client, 'ui://many')).toEqual({ code: -32603, message: expect.stringContaining('the page references more than 100 files') });
    expect(await readError(client, 'ui://heavy')).toEqual({ code: -32603, message: expect.stringContaining('the assembled page is larger than 8388608 bytes') });
  });

  it('answers only the exact URIs of the apps: a path under one is not a file of it', async () => {
    for (const uri of ['ui://charts/app.js', 'ui://charts/../secret.js', 'ui://charts/css/app.css', 'ui://nothing']) {
      expect(await readError(client, uri), uri).toEqual({ code: -32002, message: expect.stringContaining(`resource not found: ${uri}`) });
    }
  });
});

describe('MCP Apps switched off', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-apps-off-'));
    await writeFile(join(dir, 'index.html'), '<html><body>charts</body></html>');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const serve = async (mcpapps: string) =>
    startTestApi({ config: testConfig(apiConfigYaml({ extra: `mcpapps:\n${mcpapps}` })), tools: [salesChart] });

  it('mcpapps.enabled: false removes every app: no ui:// resource, no tool _meta, reads not found (and no assets are checked)', async () => {
    const api = await serve(`  enabled: false\n  apps:\n    charts: { assets_path: /no/such/dir, tools: [sales_chart] }\n`);
    const client = await connectMcp(api.url);
    try {
      expect((await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'))).toEqual([]);
      expect((await client.listTools()).tools.filter((t) => t._meta)).toEqual([]);
      expect(client.getServerCapabilities()?.extensions).toBeUndefined();
      for (const uri of ['ui://platform-info', 'ui://charts']) {
        expect(await readError(client, uri)).toEqual({ code: -32002, message: expect.stringContaining('resource not found') });
      }
    } finally {
      await client.close();
      await api.stop();
    }
  });

  it("an app's enabled: false removes that app only; the built-in one can be switched off the same way", async () => {
    const api = await serve(
      `  apps:\n    charts: { enabled: false, assets_path: /no/such/dir, tools: [sales_chart] }\n    live: { assets_path: ${JSON.stringify(dir)} }\n`,
    );
    const client = await connectMcp(api.url);
    try {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['ui://platform-info', 'ui://live']);
      const tools = (await client.listTools()).tools;
      expect(tools.find((t) => t.name === 'sales_chart')!._meta).toBeUndefined();
      expect(await readError(client, 'ui://charts')).toMatchObject({ code: -32002 });
      expect((await client.readResource({ uri: 'ui://live' })).contents[0]).toMatchObject({ mimeType: MIME, text: '<html><body>charts</body></html>' });
    } finally {
      await client.close();
      await api.stop();
    }
    const noBuiltIn = await serve('  apps:\n    platform-info: { enabled: false }\n');
    const other = await connectMcp(noBuiltIn.url);
    try {
      expect((await other.listResources()).resources).toEqual([]);
      expect((await other.listTools()).tools.find((t) => t.name === 'platform_info')!._meta).toBeUndefined();
    } finally {
      await other.close();
      await noBuiltIn.stop();
    }
  });
});
