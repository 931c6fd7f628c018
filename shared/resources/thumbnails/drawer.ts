/**
 * The steps of the `drawThumbnail` workflow (workflows/thumbnails.ts), as I/O over the database
 * and the resources bucket; activities/thumbnails.ts calls them.
 *
 * - begin: the version still the head and drawable? Then `drawing` (a tile of an older version is
 *   kept: the answer says stale). A version no longer the head is skipped: its successor's job draws.
 * - draw: reads the version's bytes (bounded), draws every variant and stores them under keys fixed
 *   by resource, version, recapture and variant (`{id}/thumbnails/v{n}[-r{k}]-{variant}.png`), so a
 *   retried draw writes the same objects. A file that cannot be drawn answers a failure (never thrown:
 *   the activity is not retried for it); storage and database errors throw (retried, a few times).
 * - finish: records drawn (removing the older tile's objects after the commit) or failed, under the
 *   resource's row lock: a resource deleted meanwhile gets nothing recorded and its new objects removed;
 *   a newer tile already recorded is never replaced by an older one.
 */
import type { Db } from '../../db/index.js';
import { withTransaction } from '../../db/index.js';
import type { Logger } from '../../logging/index.js';
import type { PlatformConfig } from '../../config/index.js';
import { ensurePlatformBucket, readAll, type ObjstoreConnection, type ObjstoreConnections } from '../../objstore/index.js';
import { resourceConnectionName } from '../context.js';
import { formatLibrary } from '../library.js';
import { rowLibrary, type ResourceRow, type VersionRow } from '../rows.js';
import { drawTile, ThumbnailDrawError } from './draw.js';
import { isDocumentFamily, SMALL_BOUND_BYTES, thumbnailPlan, type DrawableFamily, type ThumbnailVariant } from './rules.js';
import type { ThumbnailRow } from './state.js';

export interface ThumbnailDrawerDeps {
  db: Db;
  /** The resources bucket's connection and name (the service's own, resources/context.ts). */
  objects(): ObjstoreConnection;
  bucket(): Promise<string>;
  log: Pick<Logger, 'warn'>;
  clock?: () => Date;
}

export interface DrawTarget {
  resourceId: string;
  version: number;
  /** Which Recapture of the version (0: its first draw): a recapture never writes over the tile it discarded. */
  recapture: number;
}

export type BeginOutcome = { draw: true; family: DrawableFamily } | { draw: false; why: 'gone' | 'superseded' | 'icon' };

export type DrawOutcome =
  | { ok: true; format: 'png'; variants: ThumbnailVariant[]; objects: string[] }
  | { ok: false; reason: string; variant: ThumbnailVariant };

export type FinishOutcome = 'drawn' | 'failed' | 'gone' | 'superseded';

/** Documents are drawn from their first bytes only: a page shows a few dozen lines (or eleven records). */
const DOCUMENT_PREFIX_BYTES = SMALL_BOUND_BYTES;

/** A tile object's key: beside the resource's version objects (`{id}/…`), fixed per version, recapture and variant. */
export function tileObjectKey(target: DrawTarget, variant: ThumbnailVariant): string {
  return `${target.resourceId}/thumbnails/v${target.version}${target.recapture > 0 ? `-r${target.recapture}` : ''}-${variant}.png`;
}

export function createThumbnailDrawer(deps: ThumbnailDrawerDeps) {
  const { db, log } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function removeKeys(keys: readonly string[]): Promise<void> {
    const bucket = await deps.bucket();
    for (const key of keys) {
      try {
        await deps.objects().store.deleteObject(bucket, key);
      } catch (err) {
        log.warn({ err: { message: (err as Error).message }, key }, 'could not delete a thumbnail object');
      }
    }
  }

  async function begin(target: DrawTarget): Promise<BeginOutcome> {
    return withTransaction(db, async (client) => {
      const found = await client.query<ResourceRow>(`SELECT * FROM resources WHERE id = $1 FOR UPDATE`, [target.resourceId]);
      const row = found.rows[0];
      if (!row) return { draw: false, why: 'gone' } as const;
      if (row.head_version !== target.version) return { draw: false, why: 'superseded' } as const;
      const plan = thumbnailPlan({ contentType: row.content_type, fileName: row.file_name, size: Number(row.size) });
      if (!plan.drawn) return { draw: false, why: 'icon' } as const;
      await client.query(
        `INSERT INTO resource_thumbnails (resource_id, state, version, updated_at) VALUES ($1, 'drawing', $2, $3)
         ON CONFLICT (resource_id) DO UPDATE SET state = 'drawing', version = EXCLUDED.version, failed_reason = NULL, failed_variant = NULL,
           recaptures = CASE WHEN resource_thumbnails.version = EXCLUDED.version THEN resource_thumbnails.recaptures ELSE 0 END,
           updated_at = EXCLUDED.updated_at`,
        [target.resourceId, target.version, clock()],
      );
      return { draw: true, family: plan.family } as const;
    });
  }

  async function draw(target: DrawTarget & { family: DrawableFamily }): Promise<DrawOutcome> {
    const found = await db.query<VersionRow & Pick<ResourceRow, 'library_kind' | 'library_key'>>(
      `SELECT v.*, r.library_kind, r.library_key FROM resource_versions v JOIN resources r ON r.id = v.resource_id WHERE v.resource_id = $1 AND v.version = $2`,
      [target.resourceId, target.version],
    );
    const version = found.rows[0];
    // Pruned or deleted since begin: nothing to draw; finish finds out which.
    if (!version) return { ok: false, reason: 'the file version is no longer stored', variant: isDocumentFamily(target.family) ? 'light' : 'image' };
    const limit = isDocumentFamily(target.family) ? DOCUMENT_PREFIX_BYTES : Number(version.size);
    const got = await deps.objects().store.getObject(version.object_bucket, version.object_key);
    const { bytes } = await readAll(got.body, limit);
    got.body.destroy();
    let drawn;
    try {
      // A library's PDFs wait in its own turn: one library's backlog does not hold up another's.
      drawn = await drawTile(target.family, bytes, `library:${formatLibrary(rowLibrary(version))}`);
    } catch (err) {
      if (err instanceof ThumbnailDrawError) return { ok: false, reason: err.message, variant: err.variant };
      throw err;
    }
    const bucket = await deps.bucket();
    const objects: string[] = [];
    for (const d of drawn) {
      const key = tileObjectKey(target, d.variant);
      await deps.objects().store.putObject(bucket, key, d.bytes, { contentType: 'image/png' });
      objects.push(key);
    }
    return { ok: true, format: 'png', variants: drawn.map((d) => d.variant), objects };
  }

  async function finish(target: DrawTarget & { outcome: DrawOutcome }): Promise<FinishOutcome> {
    const { outcome } = target;
    let removeAfter: string[] = [];
    const result = await withTransaction(db, async (client): Promise<FinishOutcome> => {
      const resource = await client.query<{ id: string }>(`SELECT id FROM resources WHERE id = $1 FOR UPDATE`, [target.resourceId]);
      if (resource.rowCount === 0) {
        removeAfter = outcome.ok ? outcome.objects : [];
        return 'gone';
      }
      const current = (await client.query<ThumbnailRow>(`SELECT * FROM resource_thumbnails WHERE resource_id = $1`, [target.resourceId])).rows[0];
      // A newer draw already began or landed: this older one records nothing (its objects go, unless they are the tile's).
      if (current && (current.version > target.version || (current.version === target.version && current.recaptures > target.recapture))) {
        removeAfter = outcome.ok ? outcome.objects.filter((k) => !current.tile_objects.includes(k)) : [];
        return 'superseded';
      }
      const now = clock();
      if (!outcome.ok) {
        await client.query(
          `INSERT INTO resource_thumbnails (resource_id, state, version, failed_reason, failed_variant, updated_at) VALUES ($1, 'failed', $2, $3, $4, $5)
           ON CONFLICT (resource_id) DO UPDATE SET state = 'failed', version = EXCLUDED.version, failed_reason = EXCLUDED.failed_reason,
             failed_variant = EXCLUDED.failed_variant, updated_at = EXCLUDED.updated_at`,
          [target.resourceId, target.version, outcome.reason, outcome.variant, now],
        );
        return 'failed';
      }
      const source = await client.query<{ created_at: Date }>(`SELECT created_at FROM resource_versions WHERE resource_id = $1 AND version = $2`, [
        target.resourceId,
        target.version,
      ]);
      const sourceAt = source.rows[0]?.created_at ?? now;
      removeAfter = (current?.tile_objects ?? []).filter((k) => !outcome.objects.includes(k));
      await client.query(
        `INSERT INTO resource_thumbnails (resource_id, state, version, tile_version, tile_source_at, tile_drawn_at, tile_format, tile_variants, tile_objects, updated_at)
         VALUES ($1, 'drawn', $2, $2, $3, $4, $5, $6, $7, $4)
         ON CONFLICT (resource_id) DO UPDATE SET state = 'drawn', version = EXCLUDED.version, failed_reason = NULL, failed_variant = NULL,
           tile_version = EXCLUDED.tile_version, tile_source_at = EXCLUDED.tile_source_at, tile_drawn_at = EXCLUDED.tile_drawn_at,
           tile_format = EXCLUDED.tile_format, tile_variants = EXCLUDED.tile_variants, tile_objects = EXCLUDED.tile_objects, updated_at = EXCLUDED.updated_at`,
        [target.resourceId, target.version, sourceAt, now, outcome.format, outcome.variants, outcome.objects],
      );
      return 'drawn';
    });
    if (removeAfter.length > 0) await removeKeys(removeAfter);
    return result;
  }

  return { begin, draw, finish, removeKeys };
}

export type ThumbnailDrawer = ReturnType<typeof createThumbnailDrawer>;

/** The drawer of a worker process: the resources bucket on the connection resource bytes live on. */
export function thumbnailDrawerFor(deps: { config: PlatformConfig; db: Db; objstore: ObjstoreConnections; log: Pick<Logger, 'warn'>; clock?: () => Date }): ThumbnailDrawer {
  let connection: ObjstoreConnection | undefined;
  let bucketReady: Promise<string> | undefined;
  const objects = () => (connection ??= deps.objstore.get(resourceConnectionName(deps.config)));
  const bucket = () =>
    (bucketReady ??= ensurePlatformBucket(objects(), 'resources').catch((err: unknown) => {
      bucketReady = undefined;
      throw err;
    }));
  return createThumbnailDrawer({ db: deps.db, objects, bucket, log: deps.log, ...(deps.clock ? { clock: deps.clock } : {}) });
}
