-- The built-in OAuth server's records (shared/oauth/database-store.ts) when database.dsn is set, so
-- that any api replica continues a flow another began. Secrets are never stored: codes, refresh
-- tokens and generated client secrets are kept as SHA-256 digests (hex). The housekeeping job
-- (purgeOAuthRecords) removes what has expired; every table has the index that delete needs.

-- An authorization in progress: written by GET /oauth/authorize, taken once by GET /oauth/callback.
CREATE TABLE oauth_pending_authorizations (
  -- The `state` sent upstream.
  id                 text PRIMARY KEY,
  client_id          text NOT NULL,
  redirect_uri       text NOT NULL,
  -- The client's own `state`, returned to it with the code.
  client_state       text NOT NULL,
  code_challenge     text NOT NULL,
  scope              text,
  resource           text NOT NULL,
  -- Our PKCE verifier and OIDC nonce toward the upstream provider.
  upstream_verifier  text NOT NULL,
  nonce              text NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX oauth_pending_authorizations_expires_at ON oauth_pending_authorizations (expires_at);

-- Codes issued to clients. A redeemed code stays (used_at, family_id) until it expires, so that a
-- replay is recognised and the refresh family its redemption started can be revoked.
CREATE TABLE oauth_codes (
  digest          text PRIMARY KEY,
  client_id       text NOT NULL,
  redirect_uri    text NOT NULL,
  code_challenge  text NOT NULL,
  scope           text,
  resource        text NOT NULL,
  -- UpstreamIdentity: issuer, sub, name, email, roles.
  identity        jsonb NOT NULL,
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  family_id       text
);
CREATE INDEX oauth_codes_expires_at ON oauth_codes (expires_at);

-- Refresh families (one sign-in each), created when the code is redeemed. Every rotation and
-- revocation of a family holds its row lock, so they never interleave; a revoked family stays
-- revoked until its end, refusing tokens saved into it after the revocation.
CREATE TABLE oauth_refresh_families (
  family_id   text PRIMARY KEY,
  -- The latest end of its code and its tokens.
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX oauth_refresh_families_expires_at ON oauth_refresh_families (expires_at);
-- Housekeeping removes the tokens of revoked families before their end.
CREATE INDEX oauth_refresh_families_revoked ON oauth_refresh_families (family_id) WHERE revoked_at IS NOT NULL;

-- Refresh tokens. A rotated token stays (rotated_at) until the family's end: presenting it again is
-- a reuse, which revokes the family (RFC 9700 section 4.14.2).
CREATE TABLE oauth_refresh_grants (
  digest      text PRIMARY KEY,
  family_id   text NOT NULL REFERENCES oauth_refresh_families (family_id) ON DELETE CASCADE,
  client_id   text NOT NULL,
  scope       text,
  resource    text NOT NULL,
  identity    jsonb NOT NULL,
  -- The family's end: a refresh never extends it.
  expires_at  timestamptz NOT NULL,
  rotated_at  timestamptz
);
CREATE INDEX oauth_refresh_grants_family_id ON oauth_refresh_grants (family_id);
CREATE INDEX oauth_refresh_grants_expires_at ON oauth_refresh_grants (expires_at);

-- Clients registered through Dynamic Client Registration (RFC 7591). Pre-registered clients live
-- in the config (oauth.clients), not here.
CREATE TABLE oauth_registered_clients (
  id             text PRIMARY KEY,
  -- Absent for public clients (auth_method 'none').
  secret_digest  text,
  name           text,
  redirect_uris  text[] NOT NULL,
  -- none | client_secret_basic | client_secret_post
  auth_method    text NOT NULL,
  created_at     timestamptz NOT NULL,
  -- Last time a token was issued to it; NULL while never used.
  last_used_at   timestamptz
);
-- Housekeeping: never-used registrations go by created_at, used ones by last_used_at.
CREATE INDEX oauth_registered_clients_unused ON oauth_registered_clients (created_at) WHERE last_used_at IS NULL;
CREATE INDEX oauth_registered_clients_last_used_at ON oauth_registered_clients (last_used_at);
