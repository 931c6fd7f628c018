/**
 * The OAuth server's test rig: an upstream identity provider people sign in at (oidc-provider),
 * the platform with `oauth.enabled` in front of it — one api with memory storage, or two replicas
 * on one database behind a balancer — and an MCP client as the official SDK drives it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startLoginProvider, type LoginProvider, type TestUser } from '../support/login-provider.js';
import { startBalancer, type Balancer } from '../support/balancer.js';
import { startDatabaseReplicas, type DatabaseReplicas } from '../support/replicas.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';
import { z } from 'zod';
import { defineTool, jsonResult } from '../../shared/mcp-tools/index.js';

/** Answers with the caller the request authenticated as. */
export const whoami = defineTool({
  name: 'whoami',
  toolkit: 'test',
  description: 'Returns the authenticated caller',
  input: z.object({}),
  handler: async (_args, ctx) => jsonResult({ ...ctx.caller }),
});

/** Roles come from the upstream token's role claim (auth.oidc.role_claim_path). */
export const roleClaim = ['oidc:', '  role_claim_path: realm_access.roles'];

export const alice: TestUser = { username: 'alice', password: 'wonderland', name: 'Alice Liddell', email: 'alice@example.com', roles: ['analyst'] };
export const upstreamClient = { clientId: 'platform', clientSecret: 'upstream-secret-0123456789abcdef' };
export const signingKey = randomBytes(32).toString('base64');

/** The `oauth:` and `auth.oidc` role settings of a platform whose public URL is `issuer`. */
export function oauthYaml(
  issuer: string,
  idp: string,
  opts: { dcr?: boolean; patterns?: string[]; clients?: string; upstreamSecret?: string; upstream?: boolean; registrationsPerMinute?: number } = {},
): string {
  const patterns = (opts.patterns ?? ['http://127\\.0\\.0\\.1(:\\d+)?/callback']).map((p) => `      - '${p}'`).join('\n');
  const upstream = opts.upstream === false
    ? ''
    : `  upstream:
    issuer: ${idp}
    client_id: ${upstreamClient.clientId}
    client_secret: ${opts.upstreamSecret ?? upstreamClient.clientSecret}
    redirect_uri: ${issuer}/oauth/callback
`;
  return `oauth:
  enabled: true
  issuer: ${issuer}
  signing_key: ${signingKey}
  dcr:
    enabled: ${opts.dcr ?? true}
    registrations_per_minute: ${opts.registrationsPerMinute ?? 30}
    allowed_redirect_patterns:
${patterns}
${opts.clients ?? ''}${upstream}`;
}

export interface OAuthRig {
  idp: LoginProvider;
  /** The platform's public URL (= oauth.issuer). */
  url: string;
  apis: RunningApi[];
  replicas?: DatabaseReplicas;
  balancer?: Balancer;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One api, memory storage, listening on 127.0.0.1 on the port its issuer names (`http://<issuerHost>:<port>`, default 127.0.0.1). */
export async function startMemoryRig(opts: Parameters<typeof oauthYaml>[2] & { clock?: () => number; issuerHost?: string } = {}): Promise<OAuthRig> {
  const idp = await startLoginProvider();
  idp.addUser(alice);
  const port = await freePort();
  const url = `http://${opts.issuerHost ?? '127.0.0.1'}:${port}`;
  await idp.addClient({ ...upstreamClient, redirectUris: [`${url}/oauth/callback`] });
  const yaml = apiConfigYaml({ auth: roleClaim, extra: oauthYaml(url, idp.issuer, opts) }).replace('address: "127.0.0.1:0"', `address: "127.0.0.1:${port}"`);
  const api = await startTestApi({ config: testConfig(yaml), tools: [whoami], ...(opts.clock ? { clock: opts.clock } : {}) });
  return {
    idp,
    url,
    apis: [api],
    async stop() {
      await api.stop();
      await idp.close();
    },
  };
}

/**
 * Two replicas on one database behind a balancer: the upstream callback always lands on replica 1,
 * everything else on replica 0, so every flow crosses replicas.
 */
export async function startReplicaRig(): Promise<OAuthRig> {
  const idp = await startLoginProvider();
  idp.addUser(alice);
  const balancer = await startBalancer((path) => (path === '/oauth/callback' ? 1 : 0));
  await idp.addClient({ ...upstreamClient, redirectUris: [`${balancer.url}/oauth/callback`] });
  const replicas = await startDatabaseReplicas({ auth: roleClaim, tools: [whoami], extra: oauthYaml(balancer.url, idp.issuer) });
  balancer.setTargets([replicas.replicas[0].url, replicas.replicas[1].url]);
  return {
    idp,
    url: balancer.url,
    apis: replicas.replicas,
    replicas,
    balancer,
    async stop() {
      await replicas.stop();
      await balancer.close();
      await idp.close();
    },
  };
}

/** What the test's own SDK client registers: a public client on a loopback callback. */
export const sdkTestClient: OAuthClientMetadata = {
  client_name: 'SDK test client',
  redirect_uris: ['http://127.0.0.1:33418/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};

/**
 * An OAuthClientProvider as a desktop MCP client implements it, except that "opening the browser"
 * signs the user in at the test provider and catches the redirect to the client's redirect URI.
 * `metadata` is what the client registers (DCR); its first redirect URI is the one it uses.
 */
export class SignInProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** The code the last sign-in brought back to the redirect URI. */
  code: string | undefined;
  /** The full redirect the last sign-in ended with (code or error). */
  lastRedirect: URL | undefined;

  constructor(
    private readonly idp: LoginProvider,
    private readonly user: TestUser,
    private readonly metadata: OAuthClientMetadata = sdkTestClient,
  ) {}

  get redirectUrl(): string {
    return this.metadata.redirect_uris[0]!;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.metadata;
  }

  /** Desktop clients send a state and check it on return (the server requires one). */
  state() {
    return randomBytes(16).toString('hex');
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  async redirectToAuthorization(url: URL) {
    const back = await this.idp.signIn(url.toString(), this.user, { stopAt: (u) => u.href.startsWith(this.redirectUrl) });
    this.lastRedirect = back;
    this.code = back.searchParams.get('code') ?? undefined;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }
}

/** One request the client sent, as the server received it (for asserting a client's request shape). */
export interface SentRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A fetch that records what passes through it. */
export function recordingFetch(sent: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? await request.clone().text() : undefined;
    sent.push({ url: request.url, method: request.method, headers: request.headers, body });
    return fetch(request);
  };
}

/**
 * Connects the SDK client unaided: 401 → discovery → registration → sign-in → token → connected.
 * `fetch` sees every request the client makes (discovery, registration, token, MCP).
 */
export async function connectWithOAuth(url: string, provider: SignInProvider, opts: { fetch?: typeof fetch } = {}): Promise<Client> {
  const transportOptions = { authProvider: provider, ...(opts.fetch ? { fetch: opts.fetch } : {}) };
  const first = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), transportOptions);
  const client = new Client({ name: 'oauth-test', version: '1' });
  await client.connect(first).then(
    () => {
      throw new Error('connected without authorization');
    },
    (error: unknown) => {
      if (!(error instanceof UnauthorizedError)) throw error;
    },
  );
  if (!provider.code) throw new Error(`sign-in brought back no code: ${provider.lastRedirect?.toString() ?? 'no redirect'}`);
  await first.finishAuth(provider.code);
  const connected = new Client({ name: 'oauth-test', version: '1' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), transportOptions));
  return connected;
}

/** A PKCE pair as a client makes it. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** GET /oauth/authorize with these parameters, without following the redirect. */
export async function authorizeRequest(url: string, params: Record<string, string>): Promise<Response> {
  return fetch(`${url}/oauth/authorize?${new URLSearchParams(params).toString()}`, { redirect: 'manual' });
}

/**
 * A whole authorization as a client runs it by hand: authorize, sign in upstream, come back. Stops
 * at the redirect to `redirectUri` (code or error) — or, with `stopAtCallback`, at the upstream's
 * redirect to our callback, without following it.
 */
export async function authorizeBySignIn(
  rig: OAuthRig,
  params: Record<string, string>,
  opts: { user?: TestUser; stopAtCallback?: boolean } = {},
): Promise<URL> {
  const start = `${rig.url}/oauth/authorize?${new URLSearchParams(params).toString()}`;
  const redirectUri = params.redirect_uri!;
  return rig.idp.signIn(start, opts.user ?? alice, {
    stopAt: (u) => (opts.stopAtCallback ? u.pathname === '/oauth/callback' : u.href.startsWith(redirectUri)),
  });
}

/** POST /oauth/token with a form body and optional Basic credentials. */
export async function tokenRequest(url: string, form: Record<string, string>, basic?: { id: string; secret: string }): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(basic ? { authorization: `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString('base64')}` } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

/** The status (and challenge) of an MCP initialize at `url` with this bearer token. */
export async function mcpInitializeStatus(url: string, token: string): Promise<{ status: number; challenge: string | null }> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get('www-authenticate') };
}

/**
 * `oauth.dcr.allowed_redirect_patterns` exactly as docs/oauth.md recommends them (its first YAML
 * block): the client tests run against the documented configuration, so the page cannot drift
 * from what lets the clients in.
 */
export async function recommendedRedirectPatterns(): Promise<string[]> {
  const page = await readFile(new URL('../../docs/oauth.md', import.meta.url), 'utf8');
  const block = /```yaml\n([\s\S]*?)```/.exec(page)?.[1];
  const patterns = (parseYaml(block ?? '') as { oauth?: { dcr?: { allowed_redirect_patterns?: unknown } } } | null)?.oauth?.dcr?.allowed_redirect_patterns;
  if (!Array.isArray(patterns) || patterns.length === 0) throw new Error('docs/oauth.md: no oauth.dcr.allowed_redirect_patterns in its first YAML block');
  return patterns as string[];
}
