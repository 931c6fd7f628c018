/**
 * docs/security.md, "The built-in OAuth server": a replayed code revokes the tokens its first use
 * issued, and a reused refresh token revokes its whole family — access tokens included, at once
 * and on every replica (an access token is a signed JWT; each use asks the store whether its
 * sign-in is still live). Over HTTP, with memory storage and with two replicas on one database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, connectWithOAuth, mcpInitializeStatus, SignInProvider, startMemoryRig, startReplicaRig, tokenRequest, type OAuthRig } from '../oauth/fixtures.js';

describe.each([
  ['memory storage, one instance', startMemoryRig],
  ['database storage, two replicas', startReplicaRig],
] as const)('OAuth access-token revocation (%s)', (_name, start) => {
  let rig: OAuthRig;
  beforeAll(async () => {
    rig = await start();
  });
  afterAll(async () => {
    await rig?.stop();
  });

  /** The status of an MCP request with `token` at every replica directly. */
  const statuses = (token: string) => Promise.all(rig.apis.map(async (api) => (await mcpInitializeStatus(api.url, token)).status));

  /** Signs in as the SDK does; answers the code it redeemed, its verifier and the tokens it got. */
  async function signIn() {
    const provider = new SignInProvider(rig.idp, alice);
    const client = await connectWithOAuth(rig.url, provider);
    await client.close();
    return { provider, clientId: provider.client!.client_id, tokens: provider.saved! };
  }

  it('a replayed code: the access token its first redemption issued is refused from then on', async () => {
    const { provider, clientId, tokens } = await signIn();
    expect(await statuses(tokens.access_token)).toEqual(rig.apis.map(() => 200));
    const replay = await tokenRequest(rig.url, {
      grant_type: 'authorization_code',
      code: provider.code!,
      code_verifier: provider.verifier,
      redirect_uri: provider.redirectUrl,
      client_id: clientId,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await statuses(tokens.access_token)).toEqual(rig.apis.map(() => 401));
    const challenge = (await mcpInitializeStatus(rig.url, tokens.access_token)).challenge;
    expect(challenge).toContain('error="invalid_token"');
  });

  it('a reused refresh token: every access token of the sign-in is refused from then on', async () => {
    const { clientId, tokens } = await signIn();
    const refreshed = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
    expect(refreshed.status).toBe(200);
    const second = refreshed.body.access_token as string;
    expect(await statuses(second)).toEqual(rig.apis.map(() => 200));
    const reuse = await tokenRequest(rig.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
    expect(reuse.status).toBe(400);
    for (const token of [tokens.access_token, second]) expect(await statuses(token)).toEqual(rig.apis.map(() => 401));
  });

  it('another sign-in of the same person keeps working: revocation is per sign-in', async () => {
    const kept = await signIn();
    const { provider, clientId } = await signIn();
    await tokenRequest(rig.url, { grant_type: 'authorization_code', code: provider.code!, code_verifier: provider.verifier, redirect_uri: provider.redirectUrl, client_id: clientId });
    expect(await statuses(kept.tokens.access_token)).toEqual(rig.apis.map(() => 200));
  });
});
