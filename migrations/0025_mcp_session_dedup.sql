-- Session de-duplication of enrichment blocks (injection.session_dedup) for database sessions
-- (sessions.store: database): the tables whose catalog context a session has been sent, so that
-- every api replica serving the session repeats it the same way. Rows go with their session.
CREATE TABLE mcp_session_dedup (
  session_id text NOT NULL REFERENCES mcp_sessions (id) ON DELETE CASCADE,
  table_key  text NOT NULL,
  -- When the full block went out; it counts as sent until entry_ttl after this.
  sent_at    timestamptz NOT NULL,
  -- The session's last mark of this table (session_timeout is measured from the latest of these).
  used_at    timestamptz NOT NULL,
  -- The caller's pointer to the call that carried the full block (e.g. mcp:call:<id>), if any.
  reference  text,
  PRIMARY KEY (session_id, table_key)
);

-- Marking a table in one round trip (mcp_session_dedup_mark). Each statement of a volatile
-- plpgsql function takes a fresh snapshot, and INSERT ... ON CONFLICT / UPDATE ... WHERE wait for
-- a concurrent writer of the same row and re-check, so of concurrent marks of one key on any
-- replicas exactly one records (is "first"). Returns the live entry's sent_at in epoch
-- milliseconds and its reference, or no row when this call recorded one (or the session is gone).
CREATE FUNCTION mcp_session_dedup_mark(
  p_session text, p_key text, p_now_ms double precision, p_reference text,
  p_entry_ttl_ms double precision, p_session_timeout_ms double precision, p_max_entries integer
) RETURNS TABLE (sent_ms double precision, sent_reference text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_now timestamptz := to_timestamp(p_now_ms / 1000);
  v_expired timestamptz := v_now - make_interval(secs => p_entry_ttl_ms / 1000);
BEGIN
  -- A session idle for session_timeout starts afresh.
  IF NOT EXISTS (SELECT 1 FROM mcp_session_dedup d WHERE d.session_id = p_session
                    AND d.used_at > v_now - make_interval(secs => p_session_timeout_ms / 1000)) THEN
    DELETE FROM mcp_session_dedup d WHERE d.session_id = p_session;
  END IF;

  -- Live: the table was sent within entry_ttl. The mark counts as the session's activity.
  RETURN QUERY
    UPDATE mcp_session_dedup d SET used_at = greatest(d.used_at, v_now)
     WHERE d.session_id = p_session AND d.table_key = p_key AND d.sent_at > v_expired
    RETURNING (extract(epoch FROM d.sent_at) * 1000)::double precision, d.reference;
  IF FOUND THEN
    RETURN;
  END IF;

  -- Not sent, or sent too long ago: record it now, unless a concurrent mark just did.
  INSERT INTO mcp_session_dedup AS d (session_id, table_key, sent_at, used_at, reference)
  SELECT p_session, p_key, v_now, v_now, p_reference
   WHERE EXISTS (SELECT 1 FROM mcp_sessions s WHERE s.id = p_session)
  ON CONFLICT (session_id, table_key) DO UPDATE
     SET sent_at = EXCLUDED.sent_at, used_at = EXCLUDED.used_at, reference = EXCLUDED.reference
   WHERE d.sent_at <= v_expired;
  IF NOT FOUND THEN
    -- The session is gone (nothing to record), or a concurrent mark recorded the key first.
    RETURN QUERY
      SELECT (extract(epoch FROM d.sent_at) * 1000)::double precision, d.reference
        FROM mcp_session_dedup d WHERE d.session_id = p_session AND d.table_key = p_key;
    RETURN;
  END IF;

  -- Bounded per session: expired entries and those past the p_max_entries most recent go.
  DELETE FROM mcp_session_dedup d
   WHERE d.session_id = p_session
     AND (d.sent_at <= v_expired
          OR d.table_key IN (SELECT k.table_key FROM mcp_session_dedup k WHERE k.session_id = p_session
                              ORDER BY k.sent_at DESC, k.table_key OFFSET p_max_entries));
END
$$;
