/**
 * Issue 35 item 4: on a loopback deployment, a client that addresses the platform as `localhost`
 * while the issuer says 127.0.0.1 (or the reverse) passes the protected-resource check: the SDK
 * client refuses metadata whose `resource` is not the URL it was given ("Protected resource … does
 * not match expected …"), so the metadata and the 401 challenge answer in the request's loopback
 * spelling, and the OAuth server takes that spelling as its own resource (RFC 8707), issuing the
 * token for the canonical audience. On any other deployment nothing changes: the resource is
 * exactly the configured one and another spelling is `invalid_target`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { alice, authorizeRequest, connectWithOAuth, oauthYaml, pkcePair, recordingFetch, SignInProvider, startMemoryRig, type OAuthRig, type SentRequest } from './fixtures.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';

const otherSpelling = { '127.0.0.1': 'localhost', localhost: '127.0.0.1' } as const;

describe.each(['127.0.0.1', 'localhost'] as const)('a loopback deployment whose issuer says %s', (issuerHost) => {
  let rig: OAuthRig;
  let asked: string;
  beforeAll(async () => {
    rig = await startMemoryRig({ issuerHost });
    asked = rig.url.replace(issuerHost, otherSpelling[issuerHost]);
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('answers the metadata and the 401 challenge in the loopback spelling the client used', async () => {
    const challenge = (await fetch(`${asked}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).headers.get('www-authenticate');
    expect(challenge).toContain(`resource_metadata="${asked}/.well-known/oauth-protected-resource/mcp"`);
    const metadata = (await (await fetch(`${asked}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    // The authorization server stays the configured issuer (its metadata must name itself).
    expect(metadata).toMatchObject({ resource: `${asked}/mcp`, authorization_servers: [rig.url] });
  });

  it(`the SDK client given ${otherSpelling[issuerHost]} signs in and initializes; the token is for the canonical resource`, async () => {
    const sent: SentRequest[] = [];
    const provider = new SignInProvider(rig.idp, alice);
    const client = await connectWithOAuth(asked, provider, { fetch: recordingFetch(sent) });
    const token = sent.find((r) => r.url.endsWith('/oauth/token'));
    expect(new URLSearchParams(token!.body).get('resource')).toBe(`${asked}/mcp`);
    expect(decodeJwt(provider.saved!.access_token).aud).toBe(`${rig.url}/mcp`);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((result.content as [{ text: string }])[0].text)).toMatchObject({ authType: 'oauth' });
    await client.close();
  });

  it('still refuses another port, scheme or host as the resource', async () => {
    const { challenge } = pkcePair();
    const port = Number(new URL(rig.url).port);
    const register = await fetch(`${rig.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' }) });
    const clientId = ((await register.json()) as { client_id: string }).client_id;
    for (const resource of [`http://localhost:${port + 1}/mcp`, `https://localhost:${port}/mcp`, `http://127.0.0.2:${port}/mcp`, `http://localhost.evil.example:${port}/mcp`]) {
      const response = await authorizeRequest(rig.url, { response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:1234/callback', state: 's', code_challenge: challenge, code_challenge_method: 'S256', resource });
      expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
    }
  });
});

describe('a deployment on a public host', () => {
  let api: RunningApi;
  const issuer = 'https://mcp.example.com';
  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml({ extra: oauthYaml(issuer, 'https://idp.example.com', { upstream: false }) })) });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('answers its configured resource whatever loopback Host the request names', async () => {
    for (const host of ['localhost', '127.0.0.1', `localhost:${new URL(api.url).port}`]) {
      const response = await api.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp', headers: { host } });
      expect(response.json()).toMatchObject({ resource: `${issuer}/mcp` });
    }
  });

  it('refuses a loopback spelling as the resource (invalid_target)', async () => {
    const register = await api.app.inject({ method: 'POST', url: '/oauth/register', payload: { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' } });
    const { challenge } = pkcePair();
    const query = new URLSearchParams({ response_type: 'code', client_id: register.json<{ client_id: string }>().client_id, redirect_uri: 'http://127.0.0.1:1234/callback', state: 's', code_challenge: challenge, code_challenge_method: 'S256', resource: 'http://localhost/mcp' });
    const response = await api.app.inject({ method: 'GET', url: `/oauth/authorize?${query.toString()}` });
    expect(new URL(response.headers.location as string).searchParams.get('error')).toBe('invalid_target');
  });
});
