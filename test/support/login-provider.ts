/**
 * An upstream identity provider people sign in at, for the OAuth server and browser-session tests:
 * `oidc-provider` (a certified OpenID provider) with the authorization code flow, PKCE, RP-initiated
 * logout and a plain HTML login page of our own (username + password; no consent screen — grants
 * are given on login). Clients are added after start, once the platform's callback URL is known.
 *
 * `signIn(url, user)` plays a browser without one: it follows redirects from `url`, keeps cookies
 * per host, submits the login form, and stops at the first redirect to a URL that `stopAt` accepts
 * (default: any URL not on the provider), returning it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';

export interface TestUser {
  username: string;
  password: string;
  name?: string;
  email?: string;
  /** Put in the ID token under `realm_access.roles` (the Keycloak shape). */
  roles?: string[];
}

export interface LoginProvider {
  issuer: string;
  /** Registers a confidential client allowed the authorization code flow with these redirect URIs. */
  addClient(client: { clientId: string; clientSecret: string; redirectUris: string[]; postLogoutRedirectUris?: string[] }): Promise<void>;
  /** Adds or replaces a user who can sign in. */
  addUser(user: TestUser): void;
  /** Codes the provider's token endpoint answered, by outcome (for asserting that an exchange happened). */
  tokenRequests: { ok: number; refused: number };
  /** How many consent pages signIn answered so far. */
  consentPages(): number;
  /**
   * Also answers the platform's OAuth consent page on the way (`consent`, default approve) — as a
   * person clicking "Allow" would.
   */
  signIn(url: string, user: Pick<TestUser, 'username' | 'password'>, opts?: { stopAt?: (url: URL) => boolean; cookies?: CookieJar; consent?: 'approve' | 'deny' }): Promise<URL>;
  close(): Promise<void>;
}

/** Cookies per host, as a browser keeps them (names and values only; enough for these flows). */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  store(url: URL, setCookie: string[]): void {
    const jar = this.byHost.get(url.host) ?? new Map<string, string>();
    for (const line of setCookie) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
    this.byHost.set(url.host, jar);
  }

  header(url: URL): string | undefined {
    const jar = this.byHost.get(url.host);
    return jar && jar.size > 0 ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  get(url: URL, name: string): string | undefined {
    return this.byHost.get(url.host)?.get(name);
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const unescapeHtml = (s: string) => s.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c))).replace(/&amp;/g, '&');

function loginPage(uid: string, error?: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body>
<h1>Sign in to the test identity provider</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Username <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startLoginProvider(): Promise<LoginProvider> {
  const { default: Provider } = await import('oidc-provider');
  const users = new Map<string, TestUser>();
  const tokenRequests = { ok: 0, refused: 0 };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    jwks: { keys: [signingKey] },
    features: { devInteractions: { enabled: false } },
    ttl: { Session: 3600, Grant: 3600, Interaction: 600, AccessToken: 3600, IdToken: 3600, AuthorizationCode: 60 },
    pkce: { required: () => true },
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], profile: ['name', 'realm_access'], email: ['email'] },
    // Every sign-in is granted what the client asked for: the tests have no consent step.
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session?.accountId;
      const client = ctx.oidc.client;
      if (!accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? 'openid'));
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, id) {
      const user = users.get(id);
      if (!user) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          ...(user.name ? { name: user.name } : {}),
          ...(user.email ? { email: user.email } : {}),
          ...(user.roles ? { realm_access: { roles: user.roles } } : {}),
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  provider.on('grant.success', () => tokenRequests.ok++);
  provider.on('grant.error', () => tokenRequests.refused++);
  const callback = provider.callback();

  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? '');
    if (!match) return callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.uid !== match[1]) throw new Error('interaction mismatch');
        if (!match[2]) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid));
          return;
        }
        const form = await readForm(req);
        const user = users.get(form.get('username') ?? '');
        if (!user || user.password !== form.get('password')) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid, 'Wrong username or password'));
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: user.username } }, { mergeWithLastSubmission: false });
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`interaction failed: ${(error as Error).message}`);
      }
    })();
  });

  const onProvider = (url: URL) => url.origin === issuer;
  let consentPages = 0;

  return {
    issuer,
    tokenRequests,
    consentPages: () => consentPages,
    async addClient(client) {
      // Client.adapter is oidc-provider's store of dynamically known clients (not in its types).
      const clients = (provider.Client as unknown as { adapter: { upsert(id: string, payload: object): Promise<void> } }).adapter;
      await clients.upsert(client.clientId, {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
    },
    addUser(user) {
      users.set(user.username, user);
    },
    async signIn(start, user, opts = {}) {
      const cookies = opts.cookies ?? new CookieJar();
      const stopAt = opts.stopAt ?? ((url: URL) => !onProvider(url));
      let url = new URL(start);
      let method = 'GET';
      let body: string | undefined;
      for (let hop = 0; hop < 20; hop++) {
        const cookie = cookies.header(url);
        const response = await fetch(url, {
          method,
          redirect: 'manual',
          headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          ...(body ? { body } : {}),
        });
        cookies.store(url, response.headers.getSetCookie());
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          const next = new URL(location, url);
          if (stopAt(next)) return next;
          url = next;
          method = 'GET';
          body = undefined;
          continue;
        }
        const text = await response.text();
        const form = /<form method="post" action="([^"]+)"/.exec(text);
        if (response.status !== 200 || !form) throw new Error(`sign-in stopped at ${url.toString()}: HTTP ${response.status} ${text.slice(0, 300)}`);
        const action = new URL(unescapeHtml(form[1]!), url);
        if (onProvider(url)) {
          if (body) throw new Error(`sign-in refused at ${url.toString()}: ${/role="alert">([^<]*)/.exec(text)?.[1] ?? 'login form shown again'}`);
          body = new URLSearchParams({ username: user.username, password: user.password }).toString();
        } else {
          // The platform's consent page: post its hidden fields back with the decision.
          const fields = new URLSearchParams();
          for (const input of text.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields.append(unescapeHtml(input[1]!), unescapeHtml(input[2]!));
          fields.set('decision', opts.consent ?? 'approve');
          consentPages++;
          body = fields.toString();
        }
        url = action;
        method = 'POST';
      }
      throw new Error('sign-in: too many redirects');
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
