-- A replica's database MCP session work in one round trip: the sessions it opens, reads and ends
-- while its previous step is in flight go to the database together (api/mcp/database-sessions.ts).
-- Same rules as one at a time:
--   * open (mcp_session_open, 0007, kept for replicas of the previous release during an upgrade):
--     a subject holding fewer than p_max live sessions gets one more, in the order given, so
--     sessions of one subject in one step count against each other. Returns refused NULL when
--     recorded, else the subject's live sessions' expiries in milliseconds from now.
--   * read: the live session with that id and subject; its last-seen stamp is rewritten only once
--     it is p_touch_ms old. Returns its expiry in milliseconds from now.
--   * end: the session with that id and subject is deleted; the ids that existed are announced on
--     p_channel in one NOTIFY (its payload must stay under 8000 bytes: the caller sizes the step).
-- Ends go first, so a session read in the same step as its end is not found.
--
-- Locks are taken in one order on every replica, so steps cannot deadlock: first the advisory lock
-- of each opening subject (by lock key), then the rows this step writes (by id). A lone
-- mcp_session_open holds one advisory lock and no row lock.
--
-- The step commits without waiting for its WAL to reach the disk (synchronous_commit off for this
-- transaction only): opens hold their subjects' locks until commit, and a WAL flush in each would
-- serialise every open of a subject behind the disk. A database crash may lose the last ~200 ms
-- (wal_writer_delay) of opens and ends: a lost open costs its client a 404 and a new initialize, as
-- any lost session does; a lost end leaves a row that expires idle.
CREATE FUNCTION mcp_sessions_step(
  p_open_ids text[], p_open_subjects text[], p_open_versions text[], p_open_client_infos jsonb[], p_open_capabilities jsonb[],
  p_read_ids text[], p_read_subjects text[],
  p_end_ids text[], p_end_subjects text[],
  p_ttl_ms double precision, p_idle_ms double precision, p_touch_ms double precision, p_max integer, p_channel text
) RETURNS TABLE (kind text, session_id text, session_subject text, session_version text, expires_in_ms double precision, refused double precision[])
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lock_key integer;
  expiries double precision[];
  ended_ids text[];
  ended_subjects text[];
  counted_subjects text[] := '{}';
  live_counts integer[] := '{}';
  k integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  -- Class key 0x6d637073 (ASCII "mcps"): the locks that serialise session openings.
  FOR lock_key IN SELECT DISTINCT hashtext(s) FROM unnest(p_open_subjects) AS s ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(1835233395, lock_key);
  END LOOP;
  IF cardinality(p_end_ids) > 0 OR cardinality(p_read_ids) > 0 THEN
    PERFORM 1 FROM mcp_sessions m
      WHERE m.id = ANY (p_end_ids)
         OR (m.id = ANY (p_read_ids) AND m.last_seen_at < now() - make_interval(secs => p_touch_ms / 1000))
      ORDER BY m.id
      FOR UPDATE;
  END IF;

  IF cardinality(p_end_ids) > 0 THEN
    WITH ended AS (
      DELETE FROM mcp_sessions m USING unnest(p_end_ids, p_end_subjects) AS e (id, subject)
       WHERE m.id = e.id AND m.subject = e.subject
      RETURNING m.id, m.subject
    )
    SELECT array_agg(ended.id), array_agg(ended.subject) INTO ended_ids, ended_subjects FROM ended;
    IF ended_ids IS NOT NULL THEN
      PERFORM pg_notify(p_channel, array_to_string(ended_ids, ','));
      RETURN QUERY SELECT 'end'::text, e.id, e.subject, NULL::text, NULL::double precision, NULL::double precision[]
        FROM unnest(ended_ids, ended_subjects) AS e (id, subject);
    END IF;
  END IF;

  IF cardinality(p_read_ids) > 0 THEN
    RETURN QUERY
    WITH live AS (
      SELECT DISTINCT m.id, m.subject, m.protocol_version, m.created_at, m.last_seen_at
        FROM mcp_sessions m JOIN unnest(p_read_ids, p_read_subjects) AS r (id, subject) ON m.id = r.id AND m.subject = r.subject
       WHERE m.created_at > now() - make_interval(secs => p_ttl_ms / 1000)
         AND m.last_seen_at > now() - make_interval(secs => p_idle_ms / 1000)
    ), touched AS (
      UPDATE mcp_sessions m SET last_seen_at = now() FROM live
       WHERE m.id = live.id AND live.last_seen_at < now() - make_interval(secs => p_touch_ms / 1000)
    )
    SELECT 'read'::text, live.id, live.subject, live.protocol_version,
           extract(epoch FROM least(live.created_at + make_interval(secs => p_ttl_ms / 1000),
                                    live.last_seen_at + make_interval(secs => p_idle_ms / 1000)) - now())::double precision * 1000,
           NULL::double precision[]
      FROM live;
  END IF;

  -- A subject's live sessions are counted once a step; its later opens add those the step admitted,
  -- and are counted again only at the cap (a refusal carries the expiries as they are then).
  FOR i IN 1 .. coalesce(cardinality(p_open_ids), 0) LOOP
    k := array_position(counted_subjects, p_open_subjects[i]);
    IF k IS NULL OR live_counts[k] >= p_max THEN
      SELECT coalesce(array_agg(extract(epoch FROM least(
               m.created_at + make_interval(secs => p_ttl_ms / 1000),
               m.last_seen_at + make_interval(secs => p_idle_ms / 1000)) - now()) * 1000), '{}')
        INTO expiries
        FROM mcp_sessions m
       WHERE m.subject = p_open_subjects[i]
         AND m.created_at > now() - make_interval(secs => p_ttl_ms / 1000)
         AND m.last_seen_at > now() - make_interval(secs => p_idle_ms / 1000);
      IF k IS NULL THEN
        counted_subjects := counted_subjects || p_open_subjects[i];
        live_counts := live_counts || cardinality(expiries);
        k := cardinality(counted_subjects);
      ELSE
        live_counts[k] := cardinality(expiries);
      END IF;
    END IF;
    kind := 'open';
    session_id := p_open_ids[i];
    session_subject := p_open_subjects[i];
    session_version := p_open_versions[i];
    expires_in_ms := NULL;
    IF live_counts[k] >= p_max THEN
      refused := expiries;
    ELSE
      INSERT INTO mcp_sessions (id, subject, protocol_version, client_info, client_capabilities)
      VALUES (p_open_ids[i], p_open_subjects[i], p_open_versions[i], p_open_client_infos[i], p_open_capabilities[i]);
      live_counts[k] := live_counts[k] + 1;
      refused := NULL;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;
