/**
 * SQL toolkit: the sql_* tools over two engines (Trino over its HTTP client protocol; DuckDB
 * embedded in a supervised engine process), row limits, byte budgets and timeouts, read-only
 * classification and DuckDB's call policy, and the cost / PII elicitation triggers of sql_query
 * (for the shared/elicitation framework). See docs/sql.md.
 */
export type {
  Classification,
  ColumnInfo,
  ColumnMeta,
  EngineKind,
  ExplainResult,
  ExplainType,
  QueryCursor,
  Row,
  SqlEngine,
  StartOptions,
  StatementVerdict,
  TableRef,
} from './types.js';
export { SqlCancelledError, SqlConnectionError, SqlEngineError, SqlTimeoutError } from './types.js';
export { DuckDbEngine, type DuckDbEngineOptions } from './duckdb-engine.js';
export { TrinoEngine, trinoServerUrl, type TrinoEngineOptions } from './trino-engine.js';
export {
  DEFAULT_MAX_RESULT_BYTES,
  deadlineSignal,
  effectiveLimit,
  effectiveTimeoutMs,
  jsonSize,
  raceSignal,
  runWithLimit,
  MAX_TIMEOUT_MS,
  type RunResult,
  type TruncatedReason,
} from './run.js';
export { classifyTrino, requirePermitted, requireRead, requireSingleStatement, type ReadOnlyDecision } from './readonly.js';
export {
  isSensitiveTag,
  noPiiTags,
  qualifyTables,
  sqlElicitationTriggers,
  type ElicitationSettings,
  type PiiTagProvider,
  type TaggedColumn,
} from './elicitation.js';
export { createSqlEngine, defaultConnectionName, resolveConnection, type NamedConnection, type SqlConnection } from './connections.js';
export { sqlTools, type SqlToolsContext } from './tools.js';
export {
  createSqlToolkit,
  embeddedSqlInstance,
  sqlDescriptionOverrides,
  EMBEDDED_SQL_CONNECTION,
  type SqlToolkit,
  type SqlToolkitDeps,
} from './toolkit.js';
export { ensureSampleData, SAMPLE_SCHEMA } from './sample-data.js';
export { csvCell, uniqueColumnNames } from './format.js';
export { tokenize, identifier, SqlLexError, type Dialect, type Token } from './lexer.js';
export type { ParquetFile } from './duckdb-protocol.js';
