import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { freePort } from '../../shared/temporal/index.js';

describe('TLS from server.tls.*', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('serves HTTPS with the configured certificate', async () => {
    const config = testConfig(apiConfigYaml({ server: [`tls: { enabled: true, cert_file: ${join(dir, 'cert.pem')}, key_file: ${join(dir, 'key.pem')} }`] }));
    const api = await startTestApi({ config });
    expect(api.url).toMatch(/^https:\/\//);
    const { status, subject } = await new Promise<{ status: number; subject: string }>((resolve, reject) => {
      const req = request(`${api.url}/healthz`, { rejectUnauthorized: false }, (res) => {
        const cert = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
        res.resume();
        resolve({ status: res.statusCode ?? 0, subject: cert.subject.CN as string });
      });
      req.on('error', reject);
      req.end();
    });
    expect({ status, subject }).toEqual({ status: 200, subject: 'localhost' });
    await api.stop();
  });
});

describe('metrics.address', () => {
  it('serves /metrics on its own listener and not on the API port', async () => {
    const port = await freePort();
    const api = await startTestApi({ config: testConfig(apiConfigYaml({ extra: `metrics:\n  address: "127.0.0.1:${port}"\n` })) });
    await fetch(`${api.url}/healthz`);
    const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/platform_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1/);
    expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    await api.stop();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('legacy HTTP+SSE transport (server.transport: sse)', () => {
  it('connects over GET /sse + POST /messages and calls a tool; refuses without credentials', async () => {
    const api = await startTestApi({ config: testConfig(apiConfigYaml().replace('transport: http', 'transport: sse')) });
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(
      new SSEClientTransport(new URL(`${api.url}/sse`), {
        requestInit: { headers: { authorization: `Bearer ${testApiKey}` } },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), authorization: `Bearer ${testApiKey}` } }) },
      }),
    );
    const result = await client.callTool({ name: 'platform_info', arguments: {} });
    expect(result.structuredContent).toMatchObject({ name: 'agent-data-platform' });
    await client.close();
    expect((await fetch(`${api.url}/sse`)).status).toBe(401);
    const unknown = await fetch(`${api.url}/messages?sessionId=nope`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    await api.stop();
  });
});

describe('icons', () => {
  it('injects icons into tools/list, prompts/list and resources/list when icons.enabled', async () => {
    const icon = 'data:image/svg+xml;base64,PHN2Zy8+';
    const api = await startTestApi({
      config: testConfig(
        apiConfigYaml({
          server: ['prompts: [{ name: hello, content: "Hi" }]'],
          extra: `resources:
  custom: [{ uri: "docs://a", name: A, mime_type: text/plain, content: a }]
icons:
  enabled: true
  tools: { platform_info: { src: "${icon}", mime_type: image/svg+xml } }
  prompts: { hello: { src: "${icon}" } }
  resources: { "docs://a": { src: "${icon}" } }
`,
        }),
      ),
    });
    const client = new Client({ name: 'icons', version: '1' });
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));
    expect((await client.listTools()).tools[0]!.icons).toEqual([{ src: icon, mimeType: 'image/svg+xml' }]);
    expect((await client.listPrompts()).prompts[0]!.icons).toEqual([{ src: icon }]);
    expect((await client.listResources()).resources[0]!.icons).toEqual([{ src: icon }]);
    await client.close();
    await api.stop();
  });
});
