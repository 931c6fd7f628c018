/**
 * What the export tools share: their dependencies, and the result every one of them answers —
 * the write's outcome, the resource (with `reference`), `table_changes` (tables that follow the
 * file moved to the new version), and the tool's own facts.
 */
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { jsonResult, type CallToolResult } from '../mcp-tools/index.js';
import { tablesAfterWrite, type CreateResult, type ResourceActor, type ResourceService, type TableChange } from '../resources/index.js';
import type { SqlToolkit } from '../sql/index.js';

export interface ExportToolsDeps {
  config: PlatformConfig;
  /** The SQL connections sql_export runs on (no connection: no sql_export). */
  sql: Pick<SqlToolkit, 'connection' | 'connections'>;
  resources: ResourceService;
  /** The resource actor of a tool call (the agent session writing). */
  actorOf(caller: CallerContext, sessionId?: string): ResourceActor;
  /**
   * Moves the tables registered over the file with follow on to the version just written, and
   * says which moved (table registration). Without it no table follows: `table_changes` is [].
   */
  followTables?: (resourceId: string, version: number) => Promise<TableChange[]>;
}

/** The tool result of a finished export. */
export async function exportOutcome(deps: ExportToolsDeps, created: CreateResult, facts: Record<string, unknown>): Promise<CallToolResult> {
  const moved = await tablesAfterWrite(deps.followTables, created);
  return jsonResult({ outcome: created.outcome, resource: created.resource, table_changes: moved, ...facts });
}
