/** A resource's history and use: its versions, reads by door, what refers to it, who wrote it. */
import { auditActive } from '../config/index.js';
import type { ResourceContext } from './context.js';
import { toVersionView, toWriterView, type VersionRow, type WriterRow } from './rows.js';
import type { ReadDoor, ReferenceCounts, ResourceActor, ResourceService, UsageView, VersionView, WriterView } from './types.js';

export function createResourceHistory(context: ResourceContext): Pick<ResourceService, 'versions' | 'usage' | 'usedBy' | 'writers'> {
  const { config, db, clock, visibleRow, countReferences } = context;

  async function versions(actor: ResourceActor, id: string): Promise<VersionView[]> {
    await visibleRow(actor, id);
    const res = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 ORDER BY version DESC`, [id]);
    return res.rows.map(toVersionView);
  }

  async function usage(actor: ResourceActor, id: string): Promise<UsageView> {
    await visibleRow(actor, id);
    const zero = (): Record<ReadDoor, number> => ({ resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 });
    const view: UsageView = { last_read_at: null, last_30_days: zero(), last_90_days: zero() };
    // Usage is derived from the read trail, which exists only while audit runs (spec).
    if (!auditActive(config)) return view;
    const now = clock().getTime();
    const day = 86_400_000;
    const res = await db.query<{ door: ReadDoor; n30: number; n90: number; last: Date | null }>(
      `SELECT door,
              count(*) FILTER (WHERE read_at > $2)::int AS n30,
              count(*) FILTER (WHERE read_at > $3)::int AS n90,
              max(read_at) AS last
       FROM resource_reads WHERE resource_id = $1 GROUP BY door`,
      [id, new Date(now - 30 * day), new Date(now - 90 * day)],
    );
    let last: Date | null = null;
    for (const r of res.rows) {
      view.last_30_days[r.door] = r.n30;
      view.last_90_days[r.door] = r.n90;
      if (r.last && r.door !== 'portal_preview' && (!last || r.last > last)) last = r.last;
    }
    view.last_read_at = last ? last.toISOString() : null;
    return view;
  }

  async function usedBy(actor: ResourceActor, id: string): Promise<ReferenceCounts> {
    await visibleRow(actor, id);
    return countReferences(id);
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
