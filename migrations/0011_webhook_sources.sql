-- Inbound webhook sources (spec document 3, "Webhook source"; shared/webhooks/sources.ts) and the
-- last rejected requests of each (shared/webhooks/rejections.ts). Secrets are never stored in the
-- clear: each is sealed with AES-256-GCM (shared/crypto/secret-box.ts) under the key derived from
-- secrets.encryption_key, bound to its row by the associated data `webhook-source:<id>`.

CREATE TABLE webhook_sources (
  id                          text PRIMARY KEY,      -- UUIDv7
  -- Path segment /hooks/{name}; the table is webhook_{name} with each - as _.
  name                        text NOT NULL UNIQUE CHECK (name ~ '^[a-z][a-z0-9-]*$' AND length(name) <= 63),
  -- toolkits.sql instance whose scratch catalog holds the table. Never changes.
  connection                  text NOT NULL,
  enabled                     boolean NOT NULL DEFAULT true,
  -- config.persona of the spec, fixed at creation (admin.persona when unset).
  persona                     text NOT NULL,
  -- The auth settings with their defaults filled, without the secret.
  auth                        jsonb NOT NULL,
  -- config with every default filled (persona apart).
  config                      jsonb NOT NULL,
  secret_ciphertext           bytea,
  -- The secret a rotation replaced, accepted until previous_secret_expires_at.
  previous_secret_ciphertext  bytea,
  previous_secret_expires_at  timestamptz,
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL,
  -- Subject of the administrator who created it.
  created_by                  text NOT NULL,
  CHECK ((previous_secret_ciphertext IS NULL) = (previous_secret_expires_at IS NULL))
);

-- Rejected requests (time, outcome, reason; never the body). Each insert trims its source to the
-- last 50 in the same statement.
CREATE TABLE webhook_rejections (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_id  text NOT NULL REFERENCES webhook_sources (id) ON DELETE CASCADE,
  at         timestamptz NOT NULL,
  -- A webhook_requests_total outcome (unauthorized, too_large, rate_limited, invalid_body, …).
  outcome    text NOT NULL,
  reason     text NOT NULL
);
CREATE INDEX webhook_rejections_recent ON webhook_rejections (source_id, at DESC, id DESC);
