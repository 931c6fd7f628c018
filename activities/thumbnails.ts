/**
 * The activities of `drawThumbnail` (workflows/thumbnails.ts), thin over the drawer
 * (shared/resources/thumbnails/drawer.ts). They run on `{temporal.task_queue}-thumbnails`, polled
 * only by workers given the object store (drawing is CPU-heavy and needs the resource bytes).
 */
import type { PlatformConfig } from '../shared/config/index.js';
import type { Db } from '../shared/db/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { ObjstoreConnections } from '../shared/objstore/index.js';
import { retryWhenPdfBusy } from './pdf-busy.js';
import { thumbnailDrawerFor, type BeginOutcome, type DrawableFamily, type DrawOutcome, type DrawTarget, type FinishOutcome } from '../shared/resources/index.js';

export interface ThumbnailActivityDeps {
  config: PlatformConfig;
  db: Db;
  objstore: ObjstoreConnections;
  log: Pick<Logger, 'warn'>;
}

export interface ThumbnailActivities {
  beginThumbnail(target: DrawTarget): Promise<BeginOutcome>;
  drawThumbnailTile(target: DrawTarget & { family: DrawableFamily }): Promise<DrawOutcome>;
  finishThumbnail(target: DrawTarget & { outcome: DrawOutcome }): Promise<FinishOutcome>;
}

export function createThumbnailActivities(deps: ThumbnailActivityDeps): ThumbnailActivities {
  const drawer = thumbnailDrawerFor(deps);
  return {
    beginThumbnail: (target) => drawer.begin(target),
    drawThumbnailTile: (target) => retryWhenPdfBusy(() => drawer.draw(target)),
    finishThumbnail: (target) => drawer.finish(target),
  };
}
