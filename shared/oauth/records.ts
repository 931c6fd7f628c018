/**
 * What the built-in OAuth server keeps between requests (spec document 1, "OAuth server records",
 * "Authorization code flow"), and the store that keeps it: in memory for one instance, in the
 * platform database when `database.dsn` is set so that any replica continues a flow another began.
 *
 * Secrets are never stored: codes, refresh tokens and generated client secrets are kept as
 * SHA-256 digests (hex) of the value handed out. Times are milliseconds since the epoch.
 */

/** Who the upstream identity provider said the user is, as carried into our tokens. */
export interface UpstreamIdentity {
  /** The upstream issuer (`oauth.upstream.issuer`). */
  issuer: string;
  /** The upstream `sub`. */
  sub: string;
  name?: string;
  email?: string;
  /** From the upstream token's role claim (`auth.oidc.role_claim_path` / `role_prefix`). */
  roles: string[];
}

/**
 * An authorization in progress ("authorization pending"): stored by GET /oauth/authorize before
 * the redirect upstream, taken (once) by GET /oauth/callback. Keyed by the `state` we sent upstream.
 */
export interface PendingAuthorization {
  /** The `state` value sent to the upstream provider (random, unguessable). */
  id: string;
  clientId: string;
  redirectUri: string;
  /** The client's own `state`, returned to it with the code. */
  clientState: string;
  /** The client's S256 PKCE challenge. */
  codeChallenge: string;
  scope?: string;
  /** The MCP resource the token will be for (RFC 8707). */
  resource: string;
  /** Our own PKCE verifier toward the upstream provider. */
  upstreamVerifier: string;
  /** OIDC nonce sent upstream, checked in the ID token. */
  nonce: string;
  expiresAt: number;
}

/** A code we issued to a client ("code issued"); single-use. */
export interface IssuedCode {
  /** SHA-256 (hex) of the code value. */
  digest: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope?: string;
  resource: string;
  identity: UpstreamIdentity;
  expiresAt: number;
}

/** One refresh token of a family: every refresh rotates it; the family is one sign-in. */
export interface RefreshGrant {
  /** SHA-256 (hex) of the refresh token value. */
  digest: string;
  familyId: string;
  clientId: string;
  scope?: string;
  resource: string;
  identity: UpstreamIdentity;
  /** The family's end: a refresh never extends it (the user signs in upstream again). */
  expiresAt: number;
}

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A client registered through Dynamic Client Registration (RFC 7591). */
export interface RegisteredClient {
  id: string;
  /** SHA-256 (hex) of the generated secret; absent for public clients (`none`). */
  secretDigest?: string;
  name?: string;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  createdAt: number;
  /** Last time a token was issued to it; unused registrations expire sooner (housekeeping). */
  lastUsedAt?: number;
}

export type CodeRedemption =
  | { result: 'redeemed'; code: IssuedCode }
  /** The code was redeemed before: the family its first redemption started must be revoked. */
  | { result: 'replayed'; familyId?: string }
  | { result: 'unknown' };

export type RefreshRotation =
  /** `grant` is the one rotated away, as stored (the caller already holds `next`). */
  | { result: 'rotated'; grant: RefreshGrant }
  /** A token already rotated away was presented again (RFC 9700 §4.14.2): its family is now revoked. */
  | { result: 'reused'; familyId: string }
  | { result: 'unknown' };

/** How long records are kept past their use, for housekeeping. */
export interface RetentionPolicy {
  /** DCR clients never used are removed this long after registration. */
  unusedClientMs: number;
  /** DCR clients are removed this long after their last use. */
  idleClientMs: number;
}

export interface OAuthStore {
  savePendingAuthorization(pending: PendingAuthorization): Promise<void>;
  /** Removes and returns it; undefined when absent or expired (`now` >= expiresAt). Single-use under concurrency. */
  takePendingAuthorization(id: string, now: number): Promise<PendingAuthorization | undefined>;

  saveCode(code: IssuedCode): Promise<void>;
  /**
   * Redeems a code once: the first call for an unexpired code returns it and records `familyId`
   * as the refresh family it starts; any later call returns `replayed` with that family id
   * (while the record is kept, i.e. until housekeeping removes it after expiry). Expired or
   * unknown: `unknown`. Atomic: of two concurrent calls exactly one redeems.
   */
  redeemCode(digest: string, familyId: string, now: number): Promise<CodeRedemption>;

  saveRefreshGrant(grant: RefreshGrant): Promise<void>;
  /**
   * The grant of a refresh token whose family is neither revoked nor over (`now` < expiresAt),
   * whether or not it was rotated already: the caller checks the client and builds `next` from it,
   * and rotateRefreshGrant is what tells a reuse from a rotation. Undefined otherwise.
   */
  findRefreshGrant(digest: string, now: number): Promise<RefreshGrant | undefined>;
  /**
   * Rotates a refresh token: marks `digest` used and saves `next` (same family) in one atomic step.
   * A token already rotated revokes its whole family (every token of it becomes unknown) and
   * answers `reused`; a revoked, expired or unknown token answers `unknown`. Of two concurrent
   * rotations of the same token exactly one succeeds; the other sees `reused`.
   * `next` carries the new digest; its other fields are copied from the old grant by the caller.
   */
  rotateRefreshGrant(digest: string, next: RefreshGrant, now: number): Promise<RefreshRotation>;
  /** Revokes every token of the family (a replayed code, a reused refresh token). */
  revokeFamily(familyId: string): Promise<void>;
  /**
   * Whether the family's access tokens may still be used: it is known, not revoked and not over
   * (`now` < its end). Asked on every request an access token authenticates and never cached, so
   * a revocation holds at once on every replica; an unknown (e.g. evicted) family is not active.
   */
  familyActive(familyId: string, now: number): Promise<boolean>;

  registerClient(client: RegisteredClient): Promise<void>;
  findClient(id: string): Promise<RegisteredClient | undefined>;
  /** Records that a token was issued to the client. */
  touchClient(id: string, now: number): Promise<void>;

  /** Removes expired states, codes, refresh families and stale DCR clients; returns how many records went. */
  purgeExpired(now: number, retention: RetentionPolicy): Promise<number>;
}
