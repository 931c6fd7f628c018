/**
 * End to end: the `oidc-provider` package issues a JWT access token from its real token endpoint;
 * an MCP client presents it to the real api (its authentication chain: API keys, then OIDC). The roles
 * from the token (prefix stripped) pick the persona that may call the test tool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseConfig } from '../../shared/config/index.js';
import { defineTool, jsonResult } from '../../shared/mcp-tools/index.js';
import type { RunningApi } from '../../api/start.js';
import { startTestApi } from '../support/api.js';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.js';

const whoami = defineTool({
  name: 'whoami',
  toolkit: 'test',
  description: 'Returns the authenticated caller',
  input: z.object({}),
  handler: async (_args, ctx) => jsonResult({ ...ctx.caller }),
});

describe('OIDC bearer tokens on the MCP HTTP endpoint', () => {
  let provider: TestOidcProvider;
  let api: RunningApi;
  let url: string;

  beforeAll(async () => {
    provider = await startOidcProvider({
      claims: { realm_access: { roles: ['platform-analyst', 'uma_authorization'] }, name: 'Pipeline Bot', email: 'bot@example.com' },
    });
    const { config } = parseConfig(
      `
server:
  transport: http
  address: "127.0.0.1:0"
  shutdown: { pre_shutdown_delay: 0s }
auth:
  oidc:
    enabled: true
    issuer: ${provider.issuer}
    client_id: ${provider.clientId}
    role_claim_path: realm_access.roles
    role_prefix: platform-
personas:
  definitions:
    analyst:
      roles: [analyst]
      tools:
        allow: ["whoami"]
`,
      {},
    );
    api = await startTestApi({ config, tools: [whoami] });
    url = api.url;
  });
  afterAll(async () => {
    await api?.stop();
    await provider?.close();
  });

  const initialize = (authorization?: string) =>
    fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    });

  it('a token from the provider connects, and the tool sees the OIDC caller with stripped roles', async () => {
    const token = await provider.accessToken();
    const client = new Client({ name: 'oidc-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result).toMatchObject({
        structuredContent: {
          // client_credentials tokens carry the client id as sub; the subject is namespaced by issuer
          subject: `oidc:${provider.issuer}#${provider.clientId}`,
          idpSubject: provider.clientId,
          name: 'Pipeline Bot',
          email: 'bot@example.com',
          roles: ['analyst'],
          authType: 'oidc',
        },
      });
    } finally {
      await client.close();
    }
  });

  it('missing token: 401 with a Bearer challenge naming the protected resource metadata', async () => {
    const response = await initialize();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer realm="mcp", resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('a tampered token: 401 invalid_token naming the failed check', async () => {
    const [head, , signature] = (await provider.accessToken()).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', iss: provider.issuer, aud: provider.clientId, exp: 4102444800 })).toString('base64url');
    const response = await initialize(`Bearer ${head}.${forged}.${signature}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="mcp", resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="invalid token signature"`,
    );
  });

  it('a bearer that is not a JWT: 401 invalid_token (malformed)', async () => {
    const response = await initialize('Bearer not-a-token');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error_description="malformed token"');
  });
});
