/** Entry point of the workflow bundle: every workflow the platform worker runs is exported here. */
export { housekeeping } from './housekeeping.js';
export type { HousekeepingInput, HousekeepingResult, HousekeepingTaskResult } from './housekeeping.js';
export {
  compactWindow,
  compactWindowStart,
  compactWorkflowId,
  removalWorkflowId,
  retentionWorkflowId,
  retryCompactionSignal,
  sourceRemovalStart,
  webhookRetention,
  webhookRetentionSweep,
  webhookSourceRemoval,
  webhookSweep,
  webhookSourceAttribute,
  webhookWindowAttribute,
} from './webhooks.js';
export type {
  CompactorSettings,
  CompactWindowInput,
  WebhookRetentionInput,
  WebhookRetentionSweepInput,
  WebhookSourceRemovalInput,
  WebhookSweepInput,
  WebhookSweepResult,
} from './webhooks.js';
export { reconcileScriptSchedules, runScript, scriptNameAttribute } from './scripts.js';
export type { ReconcileScriptSchedulesInput, RunScriptInput, ScriptRunSettings } from './scripts.js';
export { indexResource, indexSweep, indexWorkflowId, reindexSignal } from './search.js';
export type { IndexResourceInput, IndexSweepInput } from './search.js';
export { drawThumbnail, thumbnailActivityQueue } from './thumbnails.js';
export type { DrawThumbnailInput, DrawThumbnailResult } from './thumbnails.js';
export { extractArchive, extractWorkflowId } from './archives.js';
export type { ExtractArchiveInput } from './archives.js';
export { renameFolder, renameWorkflowId } from './folders.js';
export type { RenameFolderInput } from './folders.js';
export { registerTable, reconcileSignal, tableActivityQueue } from './tables.js';
export type { RegisterTableInput } from './tables.js';
