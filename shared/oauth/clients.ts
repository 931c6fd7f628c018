/**
 * The clients the OAuth server knows: pre-registered ones from `oauth.clients` (secrets kept only
 * as bcrypt hashes, compared through bcrypt) and those registered through Dynamic Client
 * Registration (RFC 7591, `oauth.dcr.*`), kept in the store. A DCR secret is 32 random bytes,
 * kept as a SHA-256 digest: guessing it is hopeless, so bcrypt's slowness would buy nothing.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { OAuthError, oauthErrorTexts } from './errors.js';
import type { ClientAuthMethod, OAuthStore, RegisteredClient } from './records.js';
import { isWellFormedRedirectUri, redirectUriAllowedByPatterns } from './redirect-uris.js';

export interface KnownClient {
  id: string;
  redirectUris: readonly string[];
  /** Public clients (`none`) authenticate by PKCE alone. */
  authMethod: ClientAuthMethod;
  /** Registered through DCR: its redirect URIs must still match the configured patterns, and people consent to it. */
  dynamic: boolean;
  /** The name it registered with (DCR), shown on the consent page. */
  name?: string;
}

/** How a token request authenticated its client (RFC 6749 §2.3). */
export type ClientCredentials =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; secret: string }
  | { method: 'none'; clientId: string };

export interface ConfiguredClient {
  id: string;
  secret: string;
  redirect_uris: string[];
}

const bcryptCost = 10;
const maxRedirectUris = 10;
const maxUriLength = 2048;
const maxNameLength = 200;
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What POST /oauth/register answers (RFC 7591 §3.2.1; the spec's "Dynamic registration response" fields included). */
export interface RegistrationResponse {
  client_id: string;
  client_secret?: string;
  client_id_issued_at: number;
  client_secret_expires_at?: number;
  client_name?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: ClientAuthMethod;
}

function dynamicClient(registered: RegisteredClient): KnownClient {
  return {
    id: registered.id,
    redirectUris: registered.redirectUris,
    authMethod: registered.authMethod,
    dynamic: true,
    ...(registered.name !== undefined ? { name: registered.name } : {}),
  };
}

export class ClientRegistry {
  private constructor(
    private readonly configured: ReadonlyMap<string, { client: KnownClient; secretHash: string }>,
    private readonly store: OAuthStore,
    private readonly patterns: readonly RegExp[],
    private readonly clock: () => number,
  ) {}

  /** Hashes the configured secrets once, at startup; the plain secrets are not kept. */
  static async create(opts: { configured: readonly ConfiguredClient[]; store: OAuthStore; patterns: readonly RegExp[]; clock?: () => number }): Promise<ClientRegistry> {
    const entries = await Promise.all(
      opts.configured.map(async (c) => [
        c.id,
        {
          client: { id: c.id, redirectUris: [...c.redirect_uris], authMethod: 'client_secret_basic' as const, dynamic: false },
          secretHash: await bcrypt.hash(c.secret, bcryptCost),
        },
      ] as const),
    );
    return new ClientRegistry(new Map(entries), opts.store, opts.patterns, opts.clock ?? Date.now);
  }

  async find(id: string): Promise<KnownClient | undefined> {
    const configured = this.configured.get(id);
    if (configured) return configured.client;
    const registered = await this.store.findClient(id);
    return registered ? dynamicClient(registered) : undefined;
  }

  /** A DCR client's redirect URI must still match a configured pattern (patterns may have been narrowed since). */
  stillAllowed(client: KnownClient, redirectUri: string): boolean {
    return !client.dynamic || redirectUriAllowedByPatterns(redirectUri, this.patterns);
  }

  /** The client a token request speaks for, or `invalid_client` (RFC 6749 §5.2). */
  async authenticate(credentials: ClientCredentials): Promise<KnownClient> {
    const refused = new OAuthError('invalid_client', 'client authentication failed');
    const configured = this.configured.get(credentials.clientId);
    if (configured) {
      if (credentials.method === 'none') throw refused;
      if (!(await bcrypt.compare(credentials.secret, configured.secretHash))) throw refused;
      return configured.client;
    }
    const registered = await this.store.findClient(credentials.clientId);
    if (!registered) throw refused;
    const client = dynamicClient(registered);
    if (registered.authMethod === 'none') {
      // A public client has no secret; one that sends a secret anyway is not who it says.
      if (credentials.method !== 'none') throw refused;
      return client;
    }
    if (credentials.method === 'none' || !registered.secretDigest) throw refused;
    if (!digestsEqual(secretDigest(credentials.secret), registered.secretDigest)) throw refused;
    return client;
  }

  /** Dynamic Client Registration (RFC 7591): validates the metadata, stores the client, answers with its credentials. */
  async register(body: unknown): Promise<RegistrationResponse> {
    const metadata = parseRegistration(body, this.patterns);
    const id = `dcr_${randomBytes(16).toString('base64url')}`;
    const secret = metadata.authMethod === 'none' ? undefined : randomBytes(32).toString('base64url');
    const now = this.clock();
    const client: RegisteredClient = {
      id,
      ...(secret ? { secretDigest: secretDigest(secret) } : {}),
      ...(metadata.name !== undefined ? { name: metadata.name } : {}),
      redirectUris: metadata.redirectUris,
      authMethod: metadata.authMethod,
      createdAt: now,
    };
    await this.store.registerClient(client);
    return {
      client_id: id,
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: Math.floor(now / 1000),
      ...(metadata.name !== undefined ? { client_name: metadata.name } : {}),
      redirect_uris: metadata.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: metadata.authMethod,
    };
  }
}

const authMethods: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];

function metadataError(description: string): OAuthError {
  return new OAuthError('invalid_client_metadata', description);
}

/** RFC 7591 §2 metadata we act on; the rest (client_uri, logo_uri, contacts, …) is accepted and not kept. */
export function parseRegistration(body: unknown, patterns: readonly RegExp[]): { name?: string; redirectUris: string[]; authMethod: ClientAuthMethod } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw metadataError('the registration request must be a JSON object');
  const request = body as Record<string, unknown>;
  const uris = request.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array');
  if (uris.length > maxRedirectUris) throw new OAuthError('invalid_redirect_uri', `at most ${maxRedirectUris} redirect_uris`);
  for (const uri of uris) {
    if (typeof uri !== 'string' || uri.length > maxUriLength || !isWellFormedRedirectUri(uri)) {
      throw new OAuthError('invalid_redirect_uri', `${oauthErrorTexts.invalidRedirectUri}: each redirect URI must be an absolute URL without a fragment`);
    }
    if (!redirectUriAllowedByPatterns(uri, patterns)) {
      throw new OAuthError('invalid_redirect_uri', `${oauthErrorTexts.invalidRedirectUri}: ${uri} matches no allowed redirect pattern`);
    }
  }
  const name = request.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.length > maxNameLength || controlCharacters.test(name))) {
    throw metadataError(`client_name must be a string of at most ${maxNameLength} printable characters`);
  }
  const method = request.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof method !== 'string' || !authMethods.includes(method as ClientAuthMethod)) {
    throw metadataError(`token_endpoint_auth_method must be one of ${authMethods.join(', ')}`);
  }
  const grants = request.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))) {
    throw metadataError('grant_types may only name authorization_code and refresh_token');
  }
  const responses = request.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code'))) {
    throw metadataError('response_types may only name code');
  }
  return { ...(name !== undefined ? { name: name as string } : {}), redirectUris: [...(uris as string[])], authMethod: method as ClientAuthMethod };
}
