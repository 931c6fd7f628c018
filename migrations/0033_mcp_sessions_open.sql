-- Opening many database MCP sessions in one round trip (a replica batches the initializes that
-- arrive while its previous batch is in flight; api/mcp/database-sessions.ts). Same rule as
-- mcp_session_open (0007), kept for replicas of the previous release during an upgrade: a subject
-- holding fewer than p_max live sessions gets one more, in the order given, so sessions of one
-- subject in one batch count against each other. Every subject of the batch is locked first, in
-- the order of its lock key, so batches sharing subjects on any replicas cannot deadlock (a lone
-- mcp_session_open holds one lock and waits for none while holding it). Returns one row per
-- session: refused is NULL when it was recorded, else the subject's live sessions' expiries in
-- milliseconds from now (the caller derives Retry-After from the soonest).
CREATE FUNCTION mcp_sessions_open(
  p_ids text[], p_subjects text[], p_protocol_versions text[], p_client_infos jsonb[], p_capabilities jsonb[],
  p_ttl_ms double precision, p_idle_ms double precision, p_max integer
) RETURNS TABLE (session_id text, refused double precision[])
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lock_key integer;
  expiries double precision[];
BEGIN
  -- Class key 0x6d637073 (ASCII "mcps"): the locks that serialise session openings.
  FOR lock_key IN SELECT DISTINCT hashtext(s) FROM unnest(p_subjects) AS s ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(1835233395, lock_key);
  END LOOP;
  FOR i IN 1 .. coalesce(cardinality(p_ids), 0) LOOP
    SELECT coalesce(array_agg(extract(epoch FROM least(
             m.created_at + make_interval(secs => p_ttl_ms / 1000),
             m.last_seen_at + make_interval(secs => p_idle_ms / 1000)) - now()) * 1000), '{}')
      INTO expiries
      FROM mcp_sessions m
     WHERE m.subject = p_subjects[i]
       AND m.created_at > now() - make_interval(secs => p_ttl_ms / 1000)
       AND m.last_seen_at > now() - make_interval(secs => p_idle_ms / 1000);
    session_id := p_ids[i];
    IF cardinality(expiries) >= p_max THEN
      refused := expiries;
    ELSE
      INSERT INTO mcp_sessions (id, subject, protocol_version, client_info, client_capabilities)
      VALUES (p_ids[i], p_subjects[i], p_protocol_versions[i], p_client_infos[i], p_capabilities[i]);
      refused := NULL;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;
