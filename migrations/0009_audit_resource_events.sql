-- Resource events (content reads by door, image-tile reads, moves) are audit rows, and usage is
-- counted from them (spec document 2, "Events", "Usage"), so retention bounds both (docs/audit.md).
-- `resource_id` names the managed resource such a row is about; tool-call rows leave it null.
ALTER TABLE audit_log ADD COLUMN resource_id text;

-- Reads written before this migration named their resource only in parameters.reference.
UPDATE audit_log SET resource_id = substr(parameters->>'reference', length('mcp:resource:') + 1)
 WHERE tool IN ('resources/read', 'search_fetch', 'portal_download', 'portal_preview')
   AND parameters->>'reference' LIKE 'mcp:resource:%';

-- The usage query: one resource's reads in a time window, newest first; `tool` (the door) rides
-- along so counting by door needs no heap visit. Partial: tool-call rows (most of the table) stay out.
CREATE INDEX audit_log_resource_occurred_at ON audit_log (resource_id, occurred_at DESC) INCLUDE (tool)
 WHERE resource_id IS NOT NULL;

-- The side table that held reads goes. Reads it holds that the audit log lacks (audit on, tool-call
-- logging off) move over, with a UUIDv7-shaped id made from the read time like the writer's ids.
INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, parameters, duration_ms, outcome, resource_id)
SELECT (lpad(to_hex(floor(extract(epoch FROM r.read_at) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3)
        || '8' || substr(md5(random()::text), 1, 15))::uuid,
       r.read_at, r.reader, 'unknown',
       CASE r.door WHEN 'resources_read' THEN 'resources/read' ELSE r.door END,
       jsonb_build_object('reference', 'mcp:resource:' || r.resource_id), 0, 'ok', r.resource_id
  FROM resource_reads r
 WHERE NOT EXISTS (
   SELECT 1 FROM audit_log a
    WHERE a.resource_id = r.resource_id AND a.occurred_at = r.read_at
      AND a.tool = CASE r.door WHEN 'resources_read' THEN 'resources/read' ELSE r.door END);

DROP TABLE resource_reads;
