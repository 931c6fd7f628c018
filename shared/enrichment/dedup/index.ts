// Session de-duplication (injection.session_dedup.*): a table's catalog context goes out once per
// MCP session; repeats get a reference or a summary (docs/enrichment.md "Session de-duplication").
export { SessionDedup, createSessionDedup, markWaitMs, maxDedupKeyLength, maxDedupTablesPerCall, type DedupLog } from './session-dedup.js';
export { applyDedup, criticalTagWords, isCriticalTag, referenceBlock, summaryBlock } from './rules.js';
export { MemoryDedupStore, type MemoryDedupOptions } from './memory-store.js';
export { DatabaseDedupStore, type DatabaseDedupOptions } from './database-store.js';
export type { DedupLimits, DedupMark, DedupMode, DedupSettings, DedupStore, SentEntry, SentExtent, SentTable } from './types.js';
