-- Streamable HTTP resumability for database sessions (sessions.store: database): the events of a
-- stream whose connection dropped before it finished, so that a client resuming with
-- Last-Event-ID on any replica gets exactly what it missed. Streams that finish while connected
-- never reach these tables. Rows go with their session, and are pruned by the api replicas
-- server.streamable.replay_ttl after they were written.
CREATE TABLE mcp_streams (
  session_id  text NOT NULL REFERENCES mcp_sessions (id) ON DELETE CASCADE,
  stream_id   text NOT NULL,
  -- True once the stream's last event (the final response) is stored: a replay then ends the connection.
  finished    boolean NOT NULL DEFAULT false,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, stream_id)
);
CREATE INDEX mcp_streams_updated_at ON mcp_streams (updated_at);

CREATE TABLE mcp_stream_events (
  session_id  text NOT NULL,
  stream_id   text NOT NULL,
  seq         integer NOT NULL,
  message     jsonb NOT NULL,
  PRIMARY KEY (session_id, stream_id, seq),
  FOREIGN KEY (session_id, stream_id) REFERENCES mcp_streams (session_id, stream_id) ON DELETE CASCADE
);
