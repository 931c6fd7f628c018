// Inbound webhooks (spec document 3): sources with their sealed secrets, the receiver, the tables, and rejected requests.
export {
  MAX_SOURCE_NAME_LENGTH,
  SOURCE_NAME_PATTERN,
  webhookSourceCreateSchema,
  webhookSourceUpdateSchema,
  webhookSourceViewSchema,
  type WebhookAuthSettings,
  type WebhookAuthView,
  type WebhookSourceConfig,
  type WebhookSourceView,
} from './source-config.js';
export {
  WebhookSourceError,
  WebhookSources,
  secretsAt,
  webhookSecretBox,
  type ReceivingSource,
  type SecretCandidate,
  type WebhookSourceErrorCode,
  type WebhookSourcesOptions,
  type WebhookTables,
} from './sources.js';
export { WebhookReceiver, type ActiveSource, type HookAnswer, type HookRequest, type WebhookReceiverDeps } from './receiver.js';
export { WEBHOOK_OUTCOMES, webhookMetrics, type WebhookMetrics, type WebhookOutcome } from './metrics.js';
export { WebhookTableCatalog } from './table.js';
export {
  compactWindow,
  compactedFileAddress,
  compactorActor,
  storeCompactedFile,
  writeCompactedFile,
  type CompactedFile,
  type CompactionDeps,
  type CompactionResult,
  type CompactionTarget,
  type StoredWindowFile,
} from './compaction.js';
export { WebhookWindows, type WindowLanding } from './windows.js';
export { KEPT_REJECTIONS, WEBHOOK_REJECTION_OUTCOMES, WebhookRejections, type WebhookRejection, type WebhookRejectionOutcome } from './rejections.js';
export { webhookTableName, windowLengths, type WindowLength } from './layout.js';
