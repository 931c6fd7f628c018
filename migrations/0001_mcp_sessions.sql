-- MCP sessions kept in the platform database (sessions.store: database) so any api replica serves them.
CREATE TABLE mcp_sessions (
  id                  text PRIMARY KEY,
  subject             text NOT NULL,
  protocol_version    text NOT NULL,
  client_info         jsonb NOT NULL DEFAULT '{}'::jsonb,
  client_capabilities jsonb NOT NULL DEFAULT '{}'::jsonb,
  state               jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at          timestamptz NOT NULL DEFAULT now(),
  last_seen_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_sessions_created_at ON mcp_sessions (created_at);
CREATE INDEX mcp_sessions_last_seen_at ON mcp_sessions (last_seen_at);
