/**
 * Two real OpenID Connect issuers for tests, both serving discovery and a JWKS over HTTP on a
 * random loopback port:
 *
 * - `startTestIssuer()`: a small issuer on node:http that signs with jose keys the test controls.
 *   It mints tokens with any claims, header and key (including keys it has not published yet),
 *   which the fail-closed matrix needs and a conforming provider refuses to do.
 * - `startOidcProvider()`: the `oidc-provider` package (a certified OpenID provider) issuing JWT
 *   access tokens through its real token endpoint (client_credentials grant), for interoperability.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SignJWT, base64url, exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';

type SigningAlg = 'RS256' | 'PS256' | 'ES256' | 'EdDSA';

export interface TestKey {
  kid: string;
  alg: SigningAlg;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface TestIssuer {
  /** The issuer identifier (no trailing slash), also the discovery base. */
  url: string;
  /** The key tokens are signed with unless a row asks for another. */
  current: TestKey;
  /** Fetch counters: how often a client asked for discovery and for the JWKS. */
  hits: { discovery: number; jwks: number };
  /** A fresh key pair, not published. */
  newKey(alg?: SigningAlg): Promise<TestKey>;
  /** Adds the key to the JWKS (keeps the others): the issuer's half of a rotation. */
  publish(key: TestKey): void;
  /** Removes a key from the JWKS. */
  withdraw(kid: string): void;
  /** Signs exactly these claims (nothing added) with `key` (default `current`); `header` is merged into the protected header. */
  sign(claims: JWTPayload, opts?: { key?: TestKey; header?: Record<string, unknown> }): Promise<string>;
  /** A token with `alg: none` and an empty signature. */
  unsigned(claims: JWTPayload): string;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}

export async function newTestKey(alg: SigningAlg = 'RS256'): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const kid = randomUUID();
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const published = new Map<string, JWK>();
  const hits = { discovery: 0, jwks: 0 };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return send(405, { error: 'method not allowed' });
    if (req.url === '/.well-known/openid-configuration') {
      hits.discovery++;
      return send(200, {
        issuer: url,
        jwks_uri: `${url}/jwks`,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      });
    }
    if (req.url === '/jwks') {
      hits.jwks++;
      return send(200, { keys: [...published.values()] });
    }
    return send(404, { error: 'not found' });
  });
  const url = await listen(server);
  const current = await newTestKey();
  published.set(current.kid, current.publicJwk);

  return {
    url,
    current,
    hits,
    newKey: newTestKey,
    publish: (key) => void published.set(key.kid, key.publicJwk),
    withdraw: (kid) => void published.delete(kid),
    async sign(claims, opts = {}) {
      const key = opts.key ?? current;
      return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...opts.header }).sign(key.privateKey);
    },
    unsigned(claims) {
      const part = (v: unknown) => base64url.encode(JSON.stringify(v));
      return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
    },
    close: () => closeServer(server),
  };
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  /** An access token (a JWT, `typ: at+jwt`) from the provider's token endpoint. */
  accessToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * `oidc-provider` with one confidential client allowed the client_credentials grant; access
 * tokens are JWTs for audience `clientId`, signed RS256, with `claims` added to each.
 * (Such tokens carry `sub` = the client id, as RFC 9068 prescribes for client credentials.)
 */
export async function startOidcProvider(opts: { clientId?: string; claims?: Record<string, unknown> } = {}): Promise<TestOidcProvider> {
  const clientId = opts.clientId ?? 'platform';
  const clientSecret = randomUUID();
  // Loaded on demand: the package prints a runtime notice on import that other tests need not see.
  const { default: Provider } = await import('oidc-provider');
  const server = http.createServer();
  const issuer = await listen(server);
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
    jwks: { keys: [privateJwk] },
    ttl: { ClientCredentials: 3600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'urn:platform:mcp',
        getResourceServerInfo: () => ({ scope: 'mcp', audience: clientId, accessTokenFormat: 'jwt', accessTokenTTL: 3600 }),
        useGrantedResource: () => true,
      },
    },
    extraTokenClaims: () => opts.claims ?? {},
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    async accessToken() {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp' }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (!response.ok || !body.access_token) throw new Error(`token endpoint: HTTP ${response.status} ${body.error ?? ''}`);
      return body.access_token;
    },
    close: () => closeServer(server),
  };
}
