-- Opening a database MCP session in one round trip (it was five: BEGIN, lock, count, insert,
-- COMMIT). Same rule as before (api/mcp/sessions.ts admitSession): a subject holding fewer than
-- p_max live sessions gets one more. The per-subject advisory lock serialises openings on every
-- replica; each statement of a volatile plpgsql function takes a fresh snapshot, so the count
-- made after the lock sees every session committed before it. Returns NULL when the session was
-- recorded; when refused, the subject's live sessions' expiries in milliseconds from now (the
-- caller derives Retry-After from the soonest).
CREATE FUNCTION mcp_session_open(
  p_id text, p_subject text, p_protocol_version text, p_client_info jsonb, p_capabilities jsonb,
  p_ttl_ms double precision, p_idle_ms double precision, p_max integer
) RETURNS double precision[]
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  expiries double precision[];
BEGIN
  -- Class key 0x6d637073 (ASCII "mcps"): the locks that serialise session openings.
  PERFORM pg_advisory_xact_lock(1835233395, hashtext(p_subject));
  SELECT coalesce(array_agg(extract(epoch FROM least(
           created_at + make_interval(secs => p_ttl_ms / 1000),
           last_seen_at + make_interval(secs => p_idle_ms / 1000)) - now()) * 1000), '{}')
    INTO expiries
    FROM mcp_sessions
   WHERE subject = p_subject
     AND created_at > now() - make_interval(secs => p_ttl_ms / 1000)
     AND last_seen_at > now() - make_interval(secs => p_idle_ms / 1000);
  IF cardinality(expiries) >= p_max THEN
    RETURN expiries;
  END IF;
  INSERT INTO mcp_sessions (id, subject, protocol_version, client_info, client_capabilities)
  VALUES (p_id, p_subject, p_protocol_version, p_client_info, p_capabilities);
  RETURN NULL;
END
$$;
