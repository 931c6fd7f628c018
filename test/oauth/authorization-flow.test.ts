/**
 * Spec document 1, "Authorization code flow" state table and the OAuth error rows, over HTTP
 * against the real api and an upstream oidc-provider: each transition and each refusal, with the
 * status and body a client sees. Clock injected: the 10-minute state and the 1-hour token are
 * reached without waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens, memoryOAuthStore } from '../../shared/oauth/index.js';
import {
  alice,
  authorizeBySignIn,
  authorizeRequest,
  mcpInitializeStatus,
  pkcePair,
  signingKey,
  startMemoryRig,
  tokenRequest,
  type OAuthRig,
} from './fixtures.js';

const desk = { id: 'desk', secret: 'desk-secret-0123456789abcdef', redirect: 'http://127.0.0.1:41234/callback' };
const clientsYaml = `  clients:
    - id: ${desk.id}
      secret: ${desk.secret}
      redirect_uris: ["http://127.0.0.1/callback", "https://app.example.com/cb"]
`;

let now = Date.now();
const clock = () => now;
let rig: OAuthRig;

beforeAll(async () => {
  rig = await startMemoryRig({ clients: clientsYaml, clock });
});
afterAll(async () => {
  await rig?.stop();
});

function authorizeParams(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const { challenge } = pkcePair();
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: desk.id,
    redirect_uri: desk.redirect,
    state: 'client-state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
}

/** none → authorization pending → code issued, for the pre-registered client. */
async function codeFor(params: Record<string, string>): Promise<string> {
  const back = await authorizeBySignIn(rig, params);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.toString()}`);
  return code;
}

async function signedIn(): Promise<{ access_token: string; refresh_token: string }> {
  const { verifier, challenge } = pkcePair();
  const code = await codeFor(authorizeParams({ code_challenge: challenge }));
  const answer = await tokenRequest(rig.url, { grant_type: 'authorization_code', code, redirect_uri: desk.redirect, code_verifier: verifier }, desk);
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string };
}

const mcpStatus = (token: string) => mcpInitializeStatus(rig.url, token);

describe('discovery', () => {
  it('serves the authorization server metadata with exactly the spec fields and values', async () => {
    const response = await fetch(`${rig.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      issuer: rig.url,
      authorization_endpoint: `${rig.url}/oauth/authorize`,
      token_endpoint: `${rig.url}/oauth/token`,
      registration_endpoint: `${rig.url}/oauth/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256', 'plain'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    });
  });

  it('names our issuer in the protected resource metadata, which every 401 of /mcp points at', async () => {
    const unauthenticated = await mcpStatus('');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.challenge).toContain(`resource_metadata="${rig.url}/.well-known/oauth-protected-resource/mcp"`);
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const prm = (await (await fetch(`${rig.url}${path}`)).json()) as Record<string, unknown>;
      expect(prm).toMatchObject({ resource: `${rig.url}/mcp`, authorization_servers: [rig.url] });
    }
  });
});

describe('authorization code flow: transitions', () => {
  it('none → pending: a valid request stores the state and redirects upstream with our own PKCE and state', async () => {
    const params = authorizeParams();
    const response = await authorizeRequest(rig.url, params);
    expect(response.status).toBe(302);
    const upstream = new URL(response.headers.get('location')!);
    expect(upstream.origin).toBe(rig.idp.issuer);
    expect(upstream.searchParams.get('code_challenge_method')).toBe('S256');
    // Our own challenge and state go upstream, never the client's.
    expect(upstream.searchParams.get('code_challenge')).not.toBe(params.code_challenge);
    expect(upstream.searchParams.get('state')).not.toBe(params.state);
    expect(upstream.searchParams.get('redirect_uri')).toBe(`${rig.url}/oauth/callback`);
  });

  it('pending → code issued: the callback redirects to the client with our code, its state and our issuer', async () => {
    const back = await authorizeBySignIn(rig, authorizeParams({ state: 'round-trip' }));
    expect(back.origin + back.pathname).toBe(desk.redirect);
    expect(back.searchParams.get('state')).toBe('round-trip');
    expect(back.searchParams.get('iss')).toBe(rig.url);
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('code issued → tokens issued: a JWT valid 1 hour for the MCP resource, with the upstream user and roles', async () => {
    const tokens = await signedIn();
    const [, payload] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: rig.url, aud: `${rig.url}/mcp`, sub: 'alice', idp: rig.idp.issuer, client_id: desk.id, roles: ['analyst'], email: alice.email, fid: expect.any(String) });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect((await mcpStatus(tokens.access_token)).status).toBe(200);
  });

  it('tokens issued → tokens issued: each refresh answers a new refresh token (rotation)', async () => {
    const first = await signedIn();
    const second = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, desk);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const third = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: second.body.refresh_token as string }, desk);
    expect(third.status).toBe(200);
    expect((await mcpStatus(third.body.access_token as string)).status).toBe(200);
  });

  it('pending → expired: a callback after 10 minutes finds no state and the flow must restart', async () => {
    const atCallback = await authorizeBySignIn(rig, authorizeParams(), { stopAtCallback: true });
    now += 10 * 60_000;
    try {
      const response = await fetch(atCallback, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'authorization state not found' });
    } finally {
      now = Date.now();
    }
  });

  it('the access token expires after 1 hour', async () => {
    const tokens = await signedIn();
    now += 3600_000 + 31_000;
    try {
      const refused = await mcpStatus(tokens.access_token);
      expect(refused.status).toBe(401);
      expect(refused.challenge).toContain('error="invalid_token"');
    } finally {
      now = Date.now();
    }
  });
});

describe('authorization code flow: error rows', () => {
  it('an unmatched redirect URI is shown, never redirected to: "Invalid redirect_uri"', async () => {
    for (const redirect of ['https://evil.example/cb', 'http://127.0.0.1:41234/other', 'https://app.example.com/cb/../x', 'http://localhost.evil.example/callback']) {
      const response = await authorizeRequest(rig.url, authorizeParams({ redirect_uri: redirect }));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'Invalid redirect_uri' });
    }
    // The loopback port may vary; an exact https match works.
    expect((await authorizeRequest(rig.url, authorizeParams({ redirect_uri: 'http://127.0.0.1:9/callback' }))).status).toBe(302);
    expect((await authorizeRequest(rig.url, authorizeParams({ redirect_uri: 'https://app.example.com/cb' }))).status).toBe(302);
  });

  it.each([
    ['missing code_challenge', { code_challenge: undefined }, 'code_challenge is required (PKCE)'],
    ['missing code_challenge_method (plain by default)', { code_challenge_method: undefined }, 'code_challenge_method must be S256 (plain is not accepted)'],
    ['plain where S256 is required', { code_challenge_method: 'plain' }, 'code_challenge_method must be S256 (plain is not accepted)'],
    ['missing state', { state: undefined }, 'state is required'],
  ])('%s: refused back to the client with invalid_request', async (_name, overrides, description) => {
    const response = await authorizeRequest(rig.url, authorizeParams(overrides));
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(desk.redirect);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toBe(description);
  });

  it('a resource other than our MCP endpoint: invalid_target; its spelling variants are accepted', async () => {
    const other = await authorizeRequest(rig.url, authorizeParams({ resource: 'https://other.example/mcp' }));
    expect(new URL(other.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
    for (const resource of [`${rig.url}/mcp`, `${rig.url}/mcp/`, rig.url, `${rig.url}/`, `${rig.url.toUpperCase().replace('HTTP', 'http')}/mcp`]) {
      const accepted = await authorizeRequest(rig.url, authorizeParams({ resource }));
      expect(new URL(accepted.headers.get('location')!).origin).toBe(rig.idp.issuer);
    }
  });

  it('a replayed code: invalid_grant, and the tokens its first use issued are revoked', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(authorizeParams({ code_challenge: challenge }));
    const form = { grant_type: 'authorization_code', code, redirect_uri: desk.redirect, code_verifier: verifier };
    const first = await tokenRequest(rig.url, form, desk);
    expect(first.status).toBe(200);
    const replay = await tokenRequest(rig.url, form, desk);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: 'authorization code was already used' });
    const refresh = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string }, desk);
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('a wrong code_verifier: invalid_grant', async () => {
    const { challenge } = pkcePair();
    const code = await codeFor(authorizeParams({ code_challenge: challenge }));
    const answer = await tokenRequest(rig.url, { grant_type: 'authorization_code', code, redirect_uri: desk.redirect, code_verifier: pkcePair().verifier }, desk);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'invalid_grant', error_description: 'code_verifier does not match the code challenge' });
  });

  it('a rotated refresh token presented again revokes its whole family (RFC 9700)', async () => {
    const first = await signedIn();
    const second = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, desk);
    expect(second.status).toBe(200);
    const reuse = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, desk);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // The newest token of the family is dead too.
    const newest = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: second.body.refresh_token as string }, desk);
    expect(newest.status).toBe(400);
    expect(newest.body.error).toBe('invalid_grant');
  });

  it('client authentication: basic and post accepted; a wrong secret is invalid_client (401 with a Basic challenge)', async () => {
    const first = await signedIn();
    const post = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: desk.id, client_secret: desk.secret });
    expect(post.status).toBe(200);
    const wrong = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: post.body.refresh_token as string }, { id: desk.id, secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(wrong.headers.get('cache-control')).toBe('no-store');
    const publicAttempt = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: post.body.refresh_token as string, client_id: desk.id });
    expect(publicAttempt.status).toBe(401);
    // The refused attempts did not burn the token.
    expect((await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: post.body.refresh_token as string }, desk)).status).toBe(200);
  });

  it('token requests: unsupported grant types, missing parameters and non-form bodies are refused', async () => {
    expect((await tokenRequest(rig.url, { grant_type: 'password', username: 'a', password: 'b' }, desk)).body.error).toBe('unsupported_grant_type');
    expect((await tokenRequest(rig.url, { grant_type: 'authorization_code' }, desk)).body.error).toBe('invalid_request');
    const json = await fetch(`${rig.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('tokens that are not ours for this resource are refused: another audience, a tampered signature, another key', async () => {
    const { access_token: good } = await signedIn();
    const [h, p, s] = good.split('.');
    // Minted into the live family of a real sign-in, so that only what is under test is wrong.
    const { fid } = JSON.parse(Buffer.from(p!, 'base64url').toString()) as { fid: string };
    const family = { familyId: fid, familyEndsAt: now + 86_400_000 };
    const key = new Uint8Array(Buffer.from(signingKey, 'base64'));
    const identity = { issuer: rig.idp.issuer, sub: 'alice', roles: ['analyst'] };
    const families = memoryOAuthStore();
    const foreign = await new AccessTokens({ issuer: rig.url, key, upstreamIssuer: rig.idp.issuer, families }).mint({ identity, clientId: desk.id, resource: 'https://other.example/mcp', ...family });
    expect((await mcpStatus(foreign.token)).status).toBe(401);
    const otherKey = await new AccessTokens({ issuer: rig.url, key: new Uint8Array(32).fill(7), upstreamIssuer: rig.idp.issuer, families }).mint({ identity, clientId: desk.id, resource: `${rig.url}/mcp`, ...family });
    expect((await mcpStatus(otherKey.token)).status).toBe(401);
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), roles: ['admin'] })).toString('base64url')}.${s}`;
    expect((await mcpStatus(tampered)).status).toBe(401);
  });
});

describe('upstream failures', () => {
  it('a wrong upstream secret: the callback sends the client token_exchange_failed', async () => {
    const broken = await startMemoryRig({ clients: clientsYaml, upstreamSecret: 'wrong-upstream-secret-000000000' });
    try {
      const back = await authorizeBySignIn(broken, authorizeParams());
      expect(back.origin + back.pathname).toBe(desk.redirect);
      expect(back.searchParams.get('error')).toBe('token_exchange_failed');
      expect(back.searchParams.get('state')).toBe('client-state-1');
      expect(broken.idp.tokenRequests.refused).toBeGreaterThan(0);
    } finally {
      await broken.stop();
    }
  });

  it('no upstream configured: "upstream IdP not configured"', async () => {
    const bare = await startMemoryRig({ clients: clientsYaml, upstream: false });
    try {
      const response = await authorizeRequest(bare.url, authorizeParams());
      const back = new URL(response.headers.get('location')!);
      expect(back.searchParams.get('error')).toBe('server_error');
      expect(back.searchParams.get('error_description')).toBe('upstream IdP not configured');
    } finally {
      await bare.stop();
    }
  });
});

describe('malformed, oversized and replayed requests', () => {
  it('an oversized parameter or one given twice is refused before anything is stored', async () => {
    const long = await authorizeRequest(rig.url, authorizeParams({ state: 'x'.repeat(3000) }));
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ error: 'invalid_request', error_description: 'state is too long' });
    const twice = await fetch(`${rig.url}/oauth/authorize?${new URLSearchParams(authorizeParams()).toString()}&client_id=${desk.id}`, { redirect: 'manual' });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: string }).error).toBe('invalid_request');
    const doubled = await fetch(`${rig.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&grant_type=authorization_code&client_id=desk',
    });
    expect(doubled.status).toBe(400);
    expect(((await doubled.json()) as { error_description: string }).error_description).toBe('grant_type given more than once');
  });

  it('a token request body over 16 KiB is refused with an OAuth error', async () => {
    const response = await fetch(`${rig.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${'a'.repeat(20_000)}`,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('the upstream callback replayed: the second visit finds no state and issues no second code', async () => {
    const atCallback = await authorizeBySignIn(rig, authorizeParams(), { stopAtCallback: true });
    const first = await fetch(atCallback, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(new URL(first.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    const replay = await fetch(atCallback, { redirect: 'manual' });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: 'invalid_request', error_description: 'authorization state not found' });
  });
});
