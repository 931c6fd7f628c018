/**
 * Issue 11 acceptance: the official TypeScript SDK client's OAuth flow completes against the
 * platform unaided — discovery from a 401, DCR, authorization through the upstream (automated
 * login at the test IdP), token, MCP calls with the token, refresh — with memory storage, and
 * with database storage across two replicas (the callback landing on the other replica).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { alice, connectWithOAuth, SignInProvider, startMemoryRig, startReplicaRig, type OAuthRig } from './fixtures.js';

describe.each([
  ['memory storage, one instance', startMemoryRig],
  ['database storage, two replicas', startReplicaRig],
] as const)('SDK client OAuth flow (%s)', (_name, start) => {
  let rig: OAuthRig;
  beforeAll(async () => {
    rig = await start();
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('discovers, registers, signs in upstream, gets tokens and calls MCP with them', async () => {
    const provider = new SignInProvider(rig.idp, alice);
    const client = await connectWithOAuth(rig.url, provider);
    // Registered dynamically as a public client: no secret was handed out.
    expect(provider.client?.client_id).toMatch(/^dcr_/);
    expect((provider.client as { client_secret?: string }).client_secret).toBeUndefined();
    expect(provider.saved?.token_type).toBe('Bearer');
    expect(provider.saved?.expires_in).toBe(3600);
    expect(provider.saved?.refresh_token).toBeTruthy();
    // The person approved the dynamically registered client on our consent page on the way.
    expect(rig.idp.consentPages()).toBeGreaterThan(0);
    const tools = await client.listTools();
    expect(Array.isArray(tools.tools)).toBe(true);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const caller = JSON.parse((result.content as [{ text: string }])[0].text) as Record<string, unknown>;
    // The same identity as the person's upstream OIDC token would give, with its roles.
    expect(caller).toMatchObject({ subject: `oidc:${rig.idp.issuer}#alice`, idpSubject: 'alice', authType: 'oauth', roles: ['analyst'], name: alice.name, email: alice.email });
    await client.close();
    if (rig.balancer) {
      // The upstream brought the person back to the other replica, which continued the flow.
      expect(rig.balancer.served.filter((s) => s.path === '/oauth/callback').map((s) => s.replica)).toEqual([1]);
      expect(rig.balancer.served.some((s) => s.path === '/oauth/token' && s.replica === 0)).toBe(true);
    }
  });

  it('refreshes: an access token that stopped working is replaced through the rotated refresh token', async () => {
    const provider = new SignInProvider(rig.idp, alice);
    const first = await connectWithOAuth(rig.url, provider);
    await first.close();
    const before = provider.saved!;
    // The access token stops being accepted (as after its hour): the SDK refreshes on the 401.
    provider.saved = { ...before, access_token: 'expired.token.value' };
    const client = new Client({ name: 'oauth-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.url}/mcp`), { authProvider: provider }));
    expect(provider.saved.access_token).not.toBe('expired.token.value');
    expect(provider.saved.refresh_token).toBeTruthy();
    expect(provider.saved.refresh_token).not.toBe(before.refresh_token);
    await client.listTools();
    await client.close();
  });
});
