-- API keys created by the platform itself (the embedded admin key). Only a SHA-256 digest is kept.
CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  name        text NOT NULL UNIQUE,
  key_sha256  bytea NOT NULL UNIQUE,
  roles       text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);
