/**
 * The "Thumbnail" state table (spec document 2) as the resource answer shows it, derived from the
 * row of `resource_thumbnails` (migrations/0023) and the resource's head version:
 *
 * | answer  | when                                                                                 |
 * |---------|--------------------------------------------------------------------------------------|
 * | icon    | the file's family is never drawn, or it is larger than its bound (no row needed)     |
 * | none    | drawable, no draw started yet (the write's job is on its way)                        |
 * | drawing | a draw of the head is under way and no older tile is kept (new file, recapture)      |
 * | drawn   | the stored tile is of the head version                                                |
 * | failed  | the draw of the head failed: reason and variant; not retried until Try again or a new file |
 * | stale   | the stored tile is of an older version: it keeps showing until the head's tile lands |
 */
import { thumbnailPlan, type ThumbnailVariant } from './rules.js';

export type ThumbnailStateName = 'icon' | 'none' | 'drawing' | 'drawn' | 'failed' | 'stale';

export interface ThumbnailRow {
  resource_id: string;
  state: 'drawing' | 'drawn' | 'failed';
  version: number;
  recaptures: number;
  failed_reason: string | null;
  failed_variant: ThumbnailVariant | null;
  tile_version: number | null;
  tile_source_at: Date | null;
  tile_drawn_at: Date | null;
  tile_format: 'png' | 'webp' | null;
  tile_variants: ThumbnailVariant[];
  tile_objects: string[];
  updated_at: Date;
}

/** The thumbnail part of a resource answer. */
export interface ThumbnailView {
  state: ThumbnailStateName;
  /** Variants the tile route serves now (the old ones while stale). */
  variants: ThumbnailVariant[];
  /** The file version the served tile was drawn from, and that version's moment. */
  drawn_from?: { version: number; at: string };
  drawn_at?: string;
  /** state failed: why, and which variant. */
  failure?: { reason: string; variant: ThumbnailVariant };
  /** state icon: the family is never drawn, or the file is over its bound. */
  icon_reason?: 'family' | 'too_large';
}

export interface ThumbnailSubject {
  contentType: string;
  fileName: string;
  size: number;
  headVersion: number;
}

export function thumbnailState(file: ThumbnailSubject, row: ThumbnailRow | undefined): ThumbnailView {
  const plan = thumbnailPlan(file);
  if (!plan.drawn) return { state: 'icon', variants: [], icon_reason: plan.reason };
  if (!row) return { state: 'none', variants: [] };
  const tile =
    row.tile_version !== null && row.tile_source_at && row.tile_drawn_at
      ? { variants: row.tile_variants, drawn_from: { version: row.tile_version, at: row.tile_source_at.toISOString() }, drawn_at: row.tile_drawn_at.toISOString() }
      : { variants: [] as ThumbnailVariant[] };
  const ofHead = row.version === file.headVersion;
  if (ofHead && row.state === 'failed') return { state: 'failed', ...tile, failure: { reason: row.failed_reason ?? '', variant: row.failed_variant ?? 'image' } };
  if (row.tile_version === file.headVersion) return { state: 'drawn', ...tile };
  if (row.tile_version !== null) return { state: 'stale', ...tile };
  // A failure or drawing of an older version with no tile kept: the head's draw is due (failed → drawing, "retried").
  return { state: 'drawing', ...tile };
}

/** Recapture / Try again is refused while a draw is under way (spec: "not while drawing"). */
export function drawUnderWay(view: ThumbnailView): boolean {
  return view.state === 'drawing' || view.state === 'stale' || view.state === 'none';
}
