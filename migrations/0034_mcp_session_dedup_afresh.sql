-- mcp_session_dedup_mark (0025) without a race in its "a session idle for session_timeout starts
-- afresh" step. That step checked for a recent entry in one statement and deleted the session's
-- entries in the next; each statement of a volatile plpgsql function takes a fresh snapshot, so a
-- concurrent mark's entry committed between the two was deleted, and this mark recorded the key
-- again: two marks "first" (seen in enrichment-dedup-database.test.ts under load). The delete is
-- now one statement that also removes only entries idle that long: a fresh entry, committed when,
-- is never removed, and the session's entries all go only when none is fresh, as before.
CREATE OR REPLACE FUNCTION mcp_session_dedup_mark(
  p_session text, p_key text, p_now_ms double precision, p_reference text,
  p_entry_ttl_ms double precision, p_session_timeout_ms double precision, p_max_entries integer
) RETURNS TABLE (sent_ms double precision, sent_reference text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_now timestamptz := to_timestamp(p_now_ms / 1000);
  v_expired timestamptz := v_now - make_interval(secs => p_entry_ttl_ms / 1000);
BEGIN
  -- A session idle for session_timeout starts afresh: one statement, and only entries idle that long.
  DELETE FROM mcp_session_dedup d
   WHERE d.session_id = p_session
     AND d.used_at <= v_now - make_interval(secs => p_session_timeout_ms / 1000)
     AND NOT EXISTS (SELECT 1 FROM mcp_session_dedup f WHERE f.session_id = p_session
                        AND f.used_at > v_now - make_interval(secs => p_session_timeout_ms / 1000));

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
