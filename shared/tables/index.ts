/**
 * Table registration (spec document 2, "Table registration"; docs/resources.md): managed CSV, TSV
 * and NDJSON files as tables in a SQL connection's scratch catalog, checked before registering,
 * corrected on request, pinned or following new versions. The `manage_table` tool, the delete
 * rule's counter, the upload and follow hooks for the surfaces that write new versions, and the
 * registerTable workflow's step.
 */
export type { TableDeps } from './deps.js';
export { registeredTables, stopCorrecting } from './records.js';
export { tableHooks } from './hooks.js';
export { followNewVersion, afterUpload, reconcileTables, refusedNews, tableWorkflowId, type ReconcileMode, type ReconcileOptions, type TableNews } from './follow.js';
export { registerTable, unregisterTable, listTables, tableReferences, type RegisterInput, type RegisterResult, type TableView, type ListInput, type UnregisterInput } from './register.js';
export { tablePanel, tableConnections, registerFromPanel, type TablePanel, type PanelTable, type PanelTableStatus, type PanelConnection, type PortalRegisterInput, type PortalRegisterResult } from './panel.js';
export { manageTableTool, type ManageTableToolOptions } from './tool.js';
export { isFileRefusal, TableError, tableFormat, defaultTableName, tablePrefix, prefixedTableName, refusalMessage, type ScanReport, type TableErrorCode, type TableFormat } from './rules.js';
export { scanTable, correctedStream } from './scan.js';
