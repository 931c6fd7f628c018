/**
 * Dynamic Client Registration (RFC 7591) as spec document 1 has it: only with `oauth.dcr.enabled`,
 * each redirect URI matching an `allowed_redirect_patterns` regex (whole URI), a secret issued
 * unless the client registers as public (`none`), and the registered client able to complete a flow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { authorizeBySignIn, authorizeRequest, pkcePair, startMemoryRig, tokenRequest, type OAuthRig } from './fixtures.js';

async function register(url: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/oauth/register`, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('with DCR enabled', () => {
  let rig: OAuthRig;
  beforeAll(async () => {
    rig = await startMemoryRig({ patterns: ['http://127\\.0\\.0\\.1(:\\d+)?/callback', 'https://claude\\.ai/api/mcp/auth_callback'] });
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('registers a confidential client: 201 with id, secret and the echoed metadata; the secret authenticates it', async () => {
    const answer = await register(rig.url, { client_name: 'Hosted connector', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'client_secret_post' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      client_name: 'Hosted connector',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      token_endpoint_auth_method: 'client_secret_post',
      client_secret_expires_at: 0,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(answer.body.client_id).toMatch(/^dcr_/);
    expect(answer.body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A confidential client must authenticate: its id alone is not enough.
    const bare = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: 'x', client_id: answer.body.client_id as string });
    expect(bare.status).toBe(401);
    const authenticated = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: 'x', client_id: answer.body.client_id as string, client_secret: answer.body.client_secret as string });
    expect(authenticated.body.error).toBe('invalid_grant');
  });

  it('registers a public client (token_endpoint_auth_method none) without a secret, which completes a flow by PKCE alone', async () => {
    const answer = await register(rig.url, { client_name: 'Desktop', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' });
    expect(answer.status).toBe(201);
    expect(answer.body.client_secret).toBeUndefined();
    const { verifier, challenge } = pkcePair();
    const redirect = 'http://127.0.0.1:50123/callback';
    const back = await authorizeBySignIn(rig, { response_type: 'code', client_id: answer.body.client_id as string, redirect_uri: redirect, state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
    const tokens = await tokenRequest(rig.url, { grant_type: 'authorization_code', client_id: answer.body.client_id as string, code: back.searchParams.get('code')!, redirect_uri: redirect, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    // A public client sending a made-up secret is not who it says.
    const withSecret = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: answer.body.client_id as string, client_secret: 'guess' });
    expect(withSecret.status).toBe(401);
  });

  it('refuses a redirect URI matching no pattern (whole-URI match, not a substring)', async () => {
    for (const uri of ['https://evil.example/cb', 'https://claude.ai/api/mcp/auth_callback.evil.example', 'http://127.0.0.1:8080/callback?x=1', 'https://evil.example/?https://claude.ai/api/mcp/auth_callback']) {
      const answer = await register(rig.url, { redirect_uris: [uri] });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_redirect_uri');
      expect(answer.body.error_description).toContain('Invalid redirect_uri');
    }
  });

  it.each([
    ['no redirect_uris', { client_name: 'x' }, 'invalid_redirect_uri'],
    ['a fragment', { redirect_uris: ['http://127.0.0.1/callback#frag'] }, 'invalid_redirect_uri'],
    ['an unknown auth method', { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    ['an unsupported grant type', { redirect_uris: ['http://127.0.0.1/callback'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    ['a control character in the name', { redirect_uris: ['http://127.0.0.1/callback'], client_name: 'a\u202eb' }, 'invalid_client_metadata'],
    ['too many redirect URIs', { redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${1000 + i}/callback`) }, 'invalid_redirect_uri'],
    ['not an object', [1, 2], 'invalid_client_metadata'],
  ])('refuses %s', async (_name, body, error) => {
    const answer = await register(rig.url, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(error);
  });

  it('refuses malformed JSON and non-JSON bodies with an OAuth error', async () => {
    expect(await register(rig.url, '{not json')).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(await register(rig.url, 'redirect_uris=x', 'application/x-www-form-urlencoded')).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
  });

  it('a registered client cannot use a redirect URI it did not register', async () => {
    const answer = await register(rig.url, { redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] });
    const response = await authorizeRequest(rig.url, { response_type: 'code', client_id: answer.body.client_id as string, redirect_uri: 'http://127.0.0.1/callback', state: 's', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'Invalid redirect_uri' });
  });
});

describe('with DCR disabled', () => {
  let rig: OAuthRig;
  beforeAll(async () => {
    rig = await startMemoryRig({ dcr: false });
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('POST /oauth/register is 404 and the metadata names no registration endpoint', async () => {
    const response = await fetch(`${rig.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'] }) });
    expect(response.status).toBe(404);
    const metadata = (await (await fetch(`${rig.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.registration_endpoint).toBeUndefined();
  });
});

describe('with the OAuth server disabled (the default)', () => {
  it('none of its endpoints exist', async () => {
    const api = await startTestApi({ config: testConfig(apiConfigYaml()) });
    try {
      for (const [method, path] of [['GET', '/.well-known/oauth-authorization-server'], ['GET', '/oauth/authorize'], ['GET', '/oauth/callback'], ['POST', '/oauth/token'], ['POST', '/oauth/register']] as const) {
        expect((await fetch(`${api.url}${path}`, { method })).status).toBe(404);
      }
    } finally {
      await api.stop();
    }
  });
});

describe('registration flood', () => {
  it('past oauth.dcr.registrations_per_minute from one address: 429 temporarily_unavailable, nothing stored', async () => {
    const rig = await startMemoryRig({ registrationsPerMinute: 3 });
    try {
      const body = { redirect_uris: ['http://127.0.0.1/callback'] };
      for (let i = 0; i < 3; i++) expect((await register(rig.url, body)).status).toBe(201);
      const refused = await register(rig.url, body);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('temporarily_unavailable');
    } finally {
      await rig.stop();
    }
  });
});
