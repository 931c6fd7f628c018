/**
 * Assets as references to resources (spec document 2, "Asset reference" and Errors): the counter
 * the resource service asks before a delete (`manage_resource` delete is refused with the count
 * unless forced) and for Used by, which names the referencing assets the caller may open (owner,
 * platform administrators, the person a live private share names), counts the others without
 * naming them, and flags a live public share link. It reads the assets' tables only, so the
 * resource service can hold it without depending on the asset service (which depends on it).
 * A forced delete leaves the references: the asset then reports the file as missing.
 */
import type { Db } from '../db/index.js';
import type { ReferenceCounter, ReferencingAssets, ResourceActor } from '../resources/index.js';

export function assetReferences(db: Db, clock: () => Date = () => new Date()): ReferenceCounter {
  return {
    async count(resourceId) {
      const res = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM asset_references WHERE resource_id = $1`, [resourceId]);
      return { assets: res.rows[0]?.n ?? 0 };
    },
    async referencingAssets(resourceId: string, actor: ResourceActor): Promise<ReferencingAssets> {
      const live = (s: string) => `${s}.revoked_at IS NULL AND (${s}.expires_at IS NULL OR ${s}.expires_at > $2)`;
      const res = await db.query<{ id: string; name: string; public_link: boolean; openable: boolean }>(
        `SELECT a.id, a.name,
                EXISTS (SELECT 1 FROM asset_shares s WHERE s.asset_id = a.id AND ${live('s')}
                          AND s.shared_with_user_id IS NULL AND s.shared_with_email IS NULL) AS public_link,
                (a.owner = $3 OR $5 OR EXISTS (SELECT 1 FROM asset_shares s WHERE s.asset_id = a.id AND ${live('s')}
                          AND (s.shared_with_user_id = $3 OR ($4::text IS NOT NULL AND s.shared_with_email = $4)))) AS openable
           FROM asset_references r JOIN assets a ON a.id = r.asset_id
          WHERE r.resource_id = $1
          ORDER BY a.updated_at DESC, a.id DESC`,
        [resourceId, clock(), actor.subject, actor.email?.toLowerCase() ?? null, actor.platformAdmin],
      );
      const named = res.rows.filter((r) => r.openable).map((r) => ({ id: r.id, name: r.name, public_link: r.public_link }));
      return { named, hidden: res.rows.length - named.length, public_link: res.rows.some((r) => r.public_link) };
    },
  };
}
