/** A resource's history and use: its versions, reads by door (audit-trail.ts), what refers to it, who wrote it. */
import { usageFromAuditTrail } from './audit-trail.js';
import type { ResourceContext } from './context.js';
import { toVersionView, toWriterView, type VersionRow, type WriterRow } from './rows.js';
import type { ResourceActor, ResourceService, UsageView, UsedBy, VersionView, WriterView } from './types.js';

export function createResourceHistory(context: ResourceContext): Pick<ResourceService, 'versions' | 'usage' | 'usedBy' | 'writers'> {
  const { config, db, clock, visibleRow, countReferences, referencingAssets } = context;

  async function versions(actor: ResourceActor, id: string): Promise<VersionView[]> {
    await visibleRow(actor, id);
    const res = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 ORDER BY version DESC`, [id]);
    return res.rows.map(toVersionView);
  }

  async function usage(actor: ResourceActor, id: string): Promise<UsageView> {
    const row = await visibleRow(actor, id);
    return usageFromAuditTrail(db, config, { id: row.id, createdAt: row.created_at }, clock());
  }

  /** The counts of what points at the file; the referencing assets the caller may open by name, the others counted only. */
  async function usedBy(actor: ResourceActor, id: string): Promise<UsedBy> {
    await visibleRow(actor, id);
    const [counts, assets] = await Promise.all([countReferences(id), referencingAssets(id, actor)]);
    return { ...counts, referencing_assets: assets.named, assets_not_shown: assets.hidden, public_link: assets.public_link };
  }

  async function writers(actor: ResourceActor, id: string): Promise<WriterView[]> {
    await visibleRow(actor, id);
    const res = await db.query<WriterRow>(
      `SELECT writer_kind, writer_id, display, created, last_written_at FROM resource_writers WHERE resource_id = $1
       ORDER BY last_written_at DESC, writer_kind, writer_id`,
      [id],
    );
    return res.rows.map(toWriterView);
  }

  return { versions, usage, usedBy, writers };
}
