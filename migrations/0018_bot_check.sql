-- The bot check of public endpoints (issue 17; docs/botcheck.md): platform settings sections (the
-- first is `bot_check`), the stored-secret store the hosted providers read their secret from, and
-- the answers the bot check accepted, so none is accepted twice on any replica.

-- One row per settings section an administrator wrote (shared/settings/): the whole section as the
-- section's schema validated it. A section never written has no row and reads as its defaults.
CREATE TABLE platform_settings (
  section     text PRIMARY KEY CHECK (section ~ '^[a-z][a-z0-9_]*$'),
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL,
  updated_by  text NOT NULL
);

-- Named secrets (shared/secrets/): the value sealed with AES-256-GCM under the `stored-secrets`
-- purpose key, its associated data naming the row (`stored-secret:<name>`), so a ciphertext copied
-- to another row does not open. A platform connection reads a secret only when allow_connections
-- names it and personas is empty; the value is never returned by any route.
CREATE TABLE stored_secrets (
  name               text PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9_.-]*$' AND length(name) <= 128),
  ciphertext         bytea NOT NULL,
  allow_connections  text[] NOT NULL,
  personas           text[] NOT NULL,
  created_at         timestamptz NOT NULL,
  created_by         text NOT NULL,
  updated_at         timestamptz NOT NULL,
  updated_by         text NOT NULL
);

-- Every accepted bot-check answer (shared/botcheck/used-answers.ts): the SHA-256 of the
-- proof-of-work challenge it answered, or of the hosted provider's token. The primary key is what
-- makes an answer usable once: the INSERT … ON CONFLICT DO NOTHING of a second use, on any
-- replica, inserts nothing and is refused. Rows are kept past expires_at (the challenge's or the
-- token's end) by a grace for clocks to differ, then housekeeping purges them (purgeBotCheckAnswers).
CREATE TABLE bot_check_answers (
  digest       bytea PRIMARY KEY CHECK (length(digest) = 32),
  kind         text NOT NULL CHECK (kind IN ('pow', 'hosted_a', 'hosted_b')),
  endpoint     text NOT NULL,
  accepted_at  timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);
-- "Answers accepted for this endpoint in the last minute" (the difficulty rule), on every challenge.
CREATE INDEX bot_check_answers_recent ON bot_check_answers (endpoint, accepted_at);
CREATE INDEX bot_check_answers_expiry ON bot_check_answers (expires_at);
