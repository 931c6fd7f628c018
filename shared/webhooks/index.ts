// Inbound webhooks (spec document 3): sources with their sealed secrets, the receiver, the tables, windows and their
// compaction state, request counts, and rejected requests.
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
  type RemovingSource,
  type SecretCandidate,
  type WebhookSourceErrorCode,
  type WebhookSourcesOptions,
  type WebhookTables,
} from './sources.js';
export { KeyedTokenBuckets, TokenBucket, capacityOf, type RateDecision, type RateLimit } from './rate-limit.js';
export { WebhookReceiver, type ActiveSource, type HookAnswer, type HookRequest, type WebhookReceiverDeps } from './receiver.js';
export { WEBHOOK_OUTCOMES, webhookMetrics, type WebhookMetrics, type WebhookOutcome } from './metrics.js';
export { WebhookTableCatalog } from './table.js';
export {
  MAX_FAILURE_REASON_CHARS,
  REMOVAL_STEPS,
  WebhookWindows,
  type DueWindow,
  type ExpiredWindow,
  type RawExpiredWindow,
  type RemovalStep,
  type RetriedWindow,
  type RetryResult,
  type WindowLanding,
} from './windows.js';
export { MAX_RETRY_DELAY_MS, parseWindowName, retryDelayMs, windowEndMs, windowEndedAfterGrace, windowName, windowOwed, type WindowKey } from './window-rules.js';
export { OWED_WINDOWS_LISTED, readWindowFigures, type WindowFigures } from './window-figures.js';
export { WebhookRequestCounts, type OutcomeCounts, type WebhookRequestCountsOptions } from './request-counts.js';
export {
  compactWindow,
  compactedFileAddress,
  compactedWindowTables,
  compactorActor,
  storeCompactedFile,
  writeCompactedFile,
  type CompactedFile,
  type CompactionDeps,
  type CompactionResult,
  type CompactionTarget,
  type StoredWindowFile,
} from './compaction.js';
export { applyRetention, removeWindow, type RetentionDeps, type RetentionResult, type RetentionSource, type WindowRemovalDeps } from './retention.js';
export { removeSource, type SourceRemovalDeps, type SourceRemovalResult } from './removal.js';
export type { WebhookJobs, JobStart } from './jobs.js';
export { KEPT_REJECTIONS, WEBHOOK_REJECTION_OUTCOMES, WebhookRejections, type WebhookRejection, type WebhookRejectionOutcome } from './rejections.js';
export { webhookTableName, windowLengths, type WindowLength } from './layout.js';
