/**
 * The thumbnail operations of the resources service (docs/resources.md, "Thumbnails"): a
 * resource's thumbnail state (state.ts), its tile image (audited under the `portal_preview`
 * surface, never stamping last read), and Recapture / Try again.
 *
 * Recapture goes through the outbox, in one transaction with the state it sets: `drawing`, both
 * variants' records discarded (their objects removed after the commit), and the job
 * `thumb:{id}:v{n}:r{k}` — a new deterministic id per recapture, since the version's own id has
 * already run. A crash after the commit loses nothing (the sweeper starts it), and two recaptures
 * racing cannot both pass the "not while drawing" check (the resource's row lock orders them).
 */
import type { Readable } from 'node:stream';
import { withTransaction } from '../../db/index.js';
import { isObjstoreError } from '../../objstore/index.js';
import { auditToolOfDoor, recordResourceEvent } from '../audit-trail.js';
import { notFound, type ResourceContext } from '../context.js';
import { recordJobs } from '../jobs/index.js';
import { rowLibrary, rowUri, type ResourceRow } from '../rows.js';
import { ResourceError, type ResourceActor } from '../types.js';
import { createThumbnailDrawer } from './drawer.js';
import type { ThumbnailVariant } from './rules.js';
import { drawUnderWay, thumbnailState, type ThumbnailRow, type ThumbnailView } from './state.js';

export interface ThumbnailTile {
  body: Readable;
  contentType: 'image/png';
  /** The file version it was drawn from, and when it was drawn (cache validators). */
  version: number;
  drawnAt: Date;
}

export interface ResourceThumbnails {
  /** The thumbnail state of a resource the actor may read by id. */
  state(actor: ResourceActor, id: string): Promise<ThumbnailView>;
  /** The tile's image (`light`/`dark` for documents, `image` for the rest); audited, last read untouched. */
  open(actor: ResourceActor, id: string, variant: ThumbnailVariant): Promise<ThumbnailTile>;
  /** Discards both variants and draws the head again; refused (conflict) while a draw is under way. */
  recapture(actor: ResourceActor, id: string): Promise<ThumbnailView>;
}

export function createResourceThumbnails(context: ResourceContext): ResourceThumbnails {
  const { config, db, clock, objects, bucket, visibleRow, check, checkVisible, rowById, dispatchJobs, log } = context;
  const drawer = createThumbnailDrawer({ db, objects, bucket, log, clock });

  async function rowOf(q: Pick<typeof db, 'query'>, id: string, lock = false): Promise<ThumbnailRow | undefined> {
    return (await q.query<ThumbnailRow>(`SELECT * FROM resource_thumbnails WHERE resource_id = $1${lock ? ' FOR UPDATE' : ''}`, [id])).rows[0];
  }

  function view(resource: ResourceRow, row: ThumbnailRow | undefined): ThumbnailView {
    return thumbnailState({ contentType: resource.content_type, fileName: resource.file_name, size: Number(resource.size), headVersion: resource.head_version }, row);
  }

  async function state(actor: ResourceActor, id: string): Promise<ThumbnailView> {
    const resource = await visibleRow(actor, id);
    return view(resource, await rowOf(db, id));
  }

  async function open(actor: ResourceActor, id: string, variant: ThumbnailVariant): Promise<ThumbnailTile> {
    const resource = await visibleRow(actor, id);
    const row = await rowOf(db, id);
    const index = row?.tile_variants.indexOf(variant) ?? -1;
    if (!row || index < 0 || row.tile_version === null || !row.tile_drawn_at) throw notFound(`${variant} thumbnail`);
    let body: Readable;
    try {
      body = (await objects().store.getObject(await bucket(), row.tile_objects[index]!)).body;
    } catch (err) {
      // Replaced by a newer tile (or deleted) between the row read and the object read.
      if (isObjstoreError(err, 'NoSuchKey')) throw notFound(`${variant} thumbnail`);
      throw err;
    }
    try {
      // The portal_preview surface: audited, and (unlike every content door) no last-read stamp.
      await recordResourceEvent(
        db,
        config,
        actor,
        { resourceId: id, tool: auditToolOfDoor.portal_preview, parameters: { reference: `mcp:resource:${id}`, uri: rowUri(resource), version: row.tile_version, variant } },
        clock(),
      );
    } catch (err) {
      body.destroy();
      throw err;
    }
    return { body, contentType: 'image/png', version: row.tile_version, drawnAt: row.tile_drawn_at };
  }

  async function recapture(actor: ResourceActor, id: string): Promise<ThumbnailView> {
    const outcome = await withTransaction(db, async (client) => {
      const resource = await rowById(client, id, true);
      if (!resource) throw notFound();
      checkVisible(actor, resource);
      check(actor, 'recapture', rowLibrary(resource), resource.uploader);
      const row = await rowOf(client, id, true);
      const before = view(resource, row);
      if (before.state === 'icon') throw new ResourceError('invalid', `"${resource.file_name}" is not drawn as a thumbnail: its type keeps a content-type icon${before.icon_reason === 'too_large' ? ' (it is larger than its bound)' : ''}`);
      if (drawUnderWay(before)) throw new ResourceError('conflict', `the thumbnail of "${resource.file_name}" is being drawn; try again once it is drawn or failed`);
      const recaptures = (row && row.version === resource.head_version ? row.recaptures : 0) + 1;
      const updated = await client.query<ThumbnailRow>(
        `UPDATE resource_thumbnails SET state = 'drawing', version = $2, recaptures = $3, failed_reason = NULL, failed_variant = NULL,
           tile_version = NULL, tile_source_at = NULL, tile_drawn_at = NULL, tile_format = NULL, tile_variants = '{}', tile_objects = '{}', updated_at = $4
         WHERE resource_id = $1 RETURNING *`,
        [id, resource.head_version, recaptures, clock()],
      );
      const workflowIds = await recordJobs(client, [{ kind: 'thumbnail', resourceId: id, params: { version: resource.head_version, recapture: recaptures } }], clock());
      return { discarded: row?.tile_objects ?? [], workflowIds, view: view(resource, updated.rows[0]) };
    });
    dispatchJobs(outcome.workflowIds);
    await drawer.removeKeys(outcome.discarded);
    return outcome.view;
  }

  return { state, open, recapture };
}
