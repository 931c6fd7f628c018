-- Deleting a webhook source (spec document 3: "Deleting a source stops its schedules and removes
-- its table, partitions, resources and segments through the same recorded steps"). The admin
-- DELETE marks the source in one statement; from then on it receives nothing, the sweep and
-- retention skip it, and the `webhookSourceRemoval` workflow removes its windows (each step
-- recorded on the window), its tables and leftover segments, then deletes the row (its windows,
-- counts and rejections cascade). The mark is the durable hand-off: the sweep starts a removal
-- for every marked source whose workflow is not running.
ALTER TABLE webhook_sources ADD COLUMN removing_since timestamptz;

CREATE INDEX webhook_sources_removing ON webhook_sources (removing_since) WHERE removing_since IS NOT NULL;
