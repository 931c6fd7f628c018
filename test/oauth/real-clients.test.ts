/**
 * Issue 35 item 4: with the configuration docs/oauth.md recommends (its redirect patterns are read
 * from the page), real MCP clients complete sign-in unaided. Each test drives the whole flow
 * against the real api — DCR with that client's own registration metadata → /oauth/authorize →
 * our consent page → sign-in at a local stand-in upstream IdP → our callback → redirect to the
 * client's redirect URI → token exchange with PKCE (and the client's own authentication method) →
 * an authenticated MCP initialize — through the official SDK's client auth
 * (`@modelcontextprotocol/sdk/client/auth.js`, which Claude Code and the Inspector build on),
 * given each client's observed registration shape. Where each shape comes from is cited per client.
 * The MCP Inspector 2.x CLI itself is run in inspector-cli.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  alice,
  connectWithOAuth,
  recommendedRedirectPatterns,
  recordingFetch,
  sdkTestClient,
  SignInProvider,
  startMemoryRig,
  type OAuthRig,
  type SentRequest,
} from './fixtures.js';

const grants = { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
/** A port as a native client picks one per run (any port must do: RFC 8252 §7.3). */
const loopbackPort = 49152 + Math.floor(Math.random() * 16000);

interface RealClient {
  name: string;
  /** Where the registration shape was observed. */
  source: string;
  metadata: OAuthClientMetadata;
}

const clients: RealClient[] = [
  {
    name: 'TypeScript SDK client',
    source: 'the SDK client this suite drives (sdk-flow.test.ts); public client on a loopback callback',
    metadata: sdkTestClient,
  },
  {
    name: 'Claude Code',
    // Public client on http://localhost:<random port>/callback: the authorize URL in
    // anthropics/claude-code#10439 (redirect_uri=http://localhost:56648/callback), the port rule in
    // anthropics/claude-code#42301, `none` per the spec's MCP notes §2.5 (observed DCR bodies).
    source: 'anthropics/claude-code#10439, #42301; MCP protocol notes §2.5',
    metadata: { client_name: 'Claude Code (platform)', redirect_uris: [`http://localhost:${loopbackPort}/callback`], ...grants, token_endpoint_auth_method: 'none' },
  },
  {
    name: 'Claude Desktop / claude.ai connector',
    // The hosted connector registers from Anthropic's backend with https://claude.ai/api/mcp/auth_callback
    // and asks for client_secret_post (anthropics/claude-ai-mcp#1043), then sends the secret in the
    // token request body (anthropics/claude-ai-mcp#667).
    source: 'anthropics/claude-ai-mcp#1043, #667, #313',
    metadata: { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], ...grants, token_endpoint_auth_method: 'client_secret_post' },
  },
  {
    name: 'MCP Inspector 2.x web UI',
    // modelcontextprotocol/inspector core/auth/providers.ts `clientMetadata` (v2.3+), redirect
    // `${window.location.origin}/oauth/callback` (core/auth/browser/providers.ts), origin localhost:6274.
    source: 'modelcontextprotocol/inspector core/auth/providers.ts, core/auth/browser/providers.ts',
    metadata: inspectorMetadata('http://localhost:6274/oauth/callback'),
  },
  {
    name: 'MCP Inspector 2.x CLI/TUI (default callback)',
    // Default runner callback http://127.0.0.1:6276/oauth/callback
    // (core/auth/node/runner-oauth-callback.ts DEFAULT_RUNNER_OAUTH_CALLBACK_URL); the CLI binary
    // itself is driven in inspector-cli.test.ts on a free port.
    source: 'modelcontextprotocol/inspector core/auth/node/runner-oauth-callback.ts',
    metadata: inspectorMetadata('http://127.0.0.1:6276/oauth/callback'),
  },
];

/** What the Inspector registers (core/auth/providers.ts): a native public client, scope "" included. */
function inspectorMetadata(redirect: string): OAuthClientMetadata {
  return {
    redirect_uris: [redirect],
    token_endpoint_auth_method: 'none',
    ...grants,
    client_name: 'MCP Inspector',
    client_uri: 'https://github.com/modelcontextprotocol/inspector',
    scope: '',
    application_type: 'native',
  } as OAuthClientMetadata;
}

function sentTo(sent: SentRequest[], path: string): SentRequest[] {
  return sent.filter((r) => new URL(r.url).pathname === path);
}

describe('real MCP clients with the configuration docs/oauth.md recommends', () => {
  let rig: OAuthRig;
  beforeAll(async () => {
    rig = await startMemoryRig({ patterns: await recommendedRedirectPatterns() });
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('lists none among the token endpoint authentication methods when public clients may register', async () => {
    const metadata = (await (await fetch(`${rig.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
  });

  it.each(clients)('$name signs in unaided and initializes /mcp ($source)', async ({ metadata }) => {
    const sent: SentRequest[] = [];
    const provider = new SignInProvider(rig.idp, alice, metadata);
    const client = await connectWithOAuth(rig.url, provider, { fetch: recordingFetch(sent) });

    // Registered with exactly this client's metadata, and accepted as it asked.
    const [registration] = sentTo(sent, '/oauth/register');
    expect(JSON.parse(registration!.body!)).toEqual(metadata);
    const method = metadata.token_endpoint_auth_method;
    expect(provider.client).toMatchObject({ redirect_uris: metadata.redirect_uris, token_endpoint_auth_method: method });
    expect('client_secret' in provider.client!).toBe(method !== 'none');
    // The code came back to the client's own redirect URI.
    expect(provider.lastRedirect?.href.startsWith(`${metadata.redirect_uris[0]}?`)).toBe(true);
    // The token request authenticated the way the client registered, and carried the PKCE verifier.
    const [exchange] = sentTo(sent, '/oauth/token');
    const form = new URLSearchParams(exchange!.body);
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code_verifier')).toBe(provider.verifier);
    expect(exchange!.headers.get('authorization')).toBeNull();
    expect(form.has('client_secret')).toBe(method === 'client_secret_post');

    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const caller = JSON.parse((result.content as [{ text: string }])[0].text) as Record<string, unknown>;
    expect(caller).toMatchObject({ subject: `oidc:${rig.idp.issuer}#alice`, authType: 'oauth' });
    await client.close();
  });
});
