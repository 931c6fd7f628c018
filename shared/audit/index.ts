// Audit log of MCP tool calls: the `audit_log` table (migrations/0003_audit_log.sql), its batched
// asynchronous writer, the tools/call middleware, parameter redaction, and retention.
export { auditsToolCalls, createAuditLog, noopAuditLog } from './log.js';
export type { AuditLog, Clock, CreateAuditLogOptions, DropReason, QueueFullPolicy } from './log.js';
export { auditMiddleware, auditRefusals } from './middleware.js';
export { auditRow, parametersJson, resultText, toolCallEntry, MAX_PARAMETERS_BYTES } from './entry.js';
export type { AuditEntry, AuditOutcome, AuditRow } from './entry.js';
export { contentDigest, isSecretKey, keyWords, redactParameters, REDACTED, MAX_STRING_CHARS } from './redact.js';
export type { ContentDigest } from './redact.js';
export { insertAuditRows, purgeAuditLog } from './store.js';
export type { PurgeAuditLogOptions, PurgeAuditLogResult } from './store.js';
export { AUDIT_CSV_COLUMNS, AUDIT_CSV_HEADER, AUDIT_OUTCOMES, AuditCursorError, auditCsvLine, auditRows, csvField, queryAudit } from './query.js';
export type { AuditFilters, AuditQueryOutcome, AuditRecordView } from './query.js';
