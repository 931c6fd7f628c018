/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for /mcp: the same document at the root and the
 * path-suffixed well-known URL, naming the exact endpoint and the OIDC issuer; every 401 from the
 * MCP endpoints points at it. Without an authorization server there is no document (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverOAuthServerInfo, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { checkResourceAllowed } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { RunningApi } from '../../api/start.js';
import { startTestApi, testApiKey, testConfig } from '../support/api.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-provider.js';

const configYaml = (opts: { transport?: string; oidcIssuer?: string; publicBase?: string }) => `
server:
  address: "127.0.0.1:0"
  transport: ${opts.transport ?? 'http'}
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${testApiKey}, name: tester, roles: [analyst] }
${opts.oidcIssuer ? `  oidc:\n    enabled: true\n    issuer: ${opts.oidcIssuer}\n    client_id: platform\n    scopes: [openid, profile, offline_access]\n` : ''}
${opts.publicBase ? `oauth:\n  issuer: ${opts.publicBase}\n` : ''}
personas:
  definitions:
    analyst: { roles: [analyst] }
`;

const wellKnownPaths = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'];

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'prm-test', version: '1' } },
});

/** Each way a request reaches an MCP endpoint without (valid) credentials. */
const unauthenticated = (base: string, authorization?: string): Array<[string, Promise<Response>]> => {
  const headers = { accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) };
  return [
    ['POST /mcp', fetch(`${base}/mcp`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: initialize })],
    ['GET /mcp', fetch(`${base}/mcp`, { headers: { ...headers, accept: 'text/event-stream' } })],
    ['DELETE /mcp', fetch(`${base}/mcp`, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': 'some-session' } })],
  ];
};

describe('protected resource metadata with an OIDC issuer', () => {
  let issuer: TestIssuer;
  let api: RunningApi;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    api = await startTestApi({ config: testConfig(configYaml({ oidcIssuer: issuer.url, transport: 'sse' })) });
  });
  afterAll(async () => {
    await api?.stop();
    await issuer?.close();
  });

  it('serves the same document at the root and the path-suffixed well-known URL, CORS-readable', async () => {
    const answers = await Promise.all(wellKnownPaths.map((path) => fetch(`${api.url}${path}`, { headers: { origin: 'https://inspector.example' } })));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    }
    const [root, suffixed] = await Promise.all(answers.map((a) => a.json()));
    expect(suffixed).toEqual(root);
    expect(root).toEqual({
      resource: `${api.url}/mcp`,
      authorization_servers: [issuer.url],
      bearer_methods_supported: ['header'],
      scopes_supported: ['openid', 'profile'],
      resource_name: 'agent-data-platform',
    });
  });

  it('answers the CORS preflight a browser sends for the MCP-Protocol-Version header', async () => {
    const preflight = await fetch(`${api.url}${wellKnownPaths[1]}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/MCP-Protocol-Version/i);
  });

  it('every 401 from /mcp points at the path-suffixed document and keeps the realm', async () => {
    const expected = `resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp"`;
    for (const [what, pending] of [...unauthenticated(api.url), ...unauthenticated(api.url, 'Bearer not-a-valid-token')]) {
      const response = await pending;
      expect(response.status, what).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge, what).toMatch(/^Bearer realm="mcp"/);
      expect(challenge, what).toContain(expected);
      expect(challenge, what).toContain('scope="openid profile"');
    }
    const invalid = await unauthenticated(api.url, 'Bearer not-a-valid-token')[0]![1];
    expect(invalid.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('the legacy SSE endpoints challenge the same way', async () => {
    for (const response of [await fetch(`${api.url}/sse`), await fetch(`${api.url}/messages?sessionId=x`, { method: 'POST', body: '{}' })]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp"`);
    }
  });

  it('the SDK client discovers the issuer from a 401 and accepts the resource for /mcp', async () => {
    const mcpUrl = `${api.url}/mcp`;
    const [, pending] = unauthenticated(api.url)[0]!;
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(await pending);
    expect(scope).toBe('openid profile');
    const info = await discoverOAuthServerInfo(mcpUrl, { resourceMetadataUrl: resourceMetadataUrl! });
    expect(info.authorizationServerUrl).toBe(issuer.url);
    expect(info.authorizationServerMetadata?.token_endpoint).toBe(`${issuer.url}/token`);
    expect(checkResourceAllowed({ requestedResource: mcpUrl, configuredResource: info.resourceMetadata!.resource })).toBe(true);
  });
});

describe('protected resource metadata behind a configured public URL', () => {
  let issuer: TestIssuer;
  let api: RunningApi;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    api = await startTestApi({ config: testConfig(configYaml({ oidcIssuer: issuer.url, publicBase: 'https://mcp.example.com/' })) });
  });
  afterAll(async () => {
    await api?.stop();
    await issuer?.close();
  });

  it('names the endpoint under oauth.issuer, not the address it was reached at', async () => {
    const document = await (await fetch(`${api.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(document.resource).toBe('https://mcp.example.com/mcp');
    const [, pending] = unauthenticated(api.url)[0]!;
    expect((await pending).headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
  });
});

describe('without an authorization server', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(configYaml({})) });
  });
  afterAll(async () => api?.stop());

  it('serves no metadata document (404) and challenges with the realm only', async () => {
    for (const path of wellKnownPaths) expect((await fetch(`${api.url}${path}`)).status).toBe(404);
    for (const [what, pending] of unauthenticated(api.url)) {
      const response = await pending;
      expect(response.status, what).toBe(401);
      expect(response.headers.get('www-authenticate'), what).toBe('Bearer realm="mcp"');
    }
  });
});
