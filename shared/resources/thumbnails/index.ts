/**
 * Thumbnails of managed resources (docs/resources.md, "Thumbnails"): the drawing rules (rules.ts),
 * the state table (state.ts), drawing a tile (page.ts, draw.ts), the workflow's steps (drawer.ts)
 * and the service's operations (service.ts).
 */
export { thumbnailPlan, thumbnailFamily, boundBytes, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT, type DrawableFamily, type ThumbnailPlan, type ThumbnailVariant } from './rules.js';
export { thumbnailState, type ThumbnailStateName, type ThumbnailView } from './state.js';
export { drawTile, ThumbnailDrawError, MAX_INPUT_PIXELS } from './draw.js';
export {
  createThumbnailDrawer,
  thumbnailDrawerFor,
  tileObjectKey,
  type BeginOutcome,
  type DrawOutcome,
  type DrawTarget,
  type FinishOutcome,
  type ThumbnailDrawer,
} from './drawer.js';
export type { ResourceThumbnails, ThumbnailTile } from './service.js';
