/**
 * sql_export (spec document 2, "Agent tools", export paragraph): one read query on a `sql`
 * connection streamed into a resource as CSV, NDJSON or Parquet. The query passes the same rules
 * as sql_query (the engine's refusals, one statement, a read; DuckDB runs it in a READ ONLY
 * transaction), then its rows stream into storage page by page: nothing holds the whole result.
 *
 * Parquet: on DuckDB the engine process writes it with COPY into its export directory (stopped
 * past the resource size limit, so a file there holds at most that much), and the file streams
 * from there into storage and is removed; on Trino the rows are written row group by row group as
 * the pages arrive (parquet-rows.ts), the footer last.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, toolError, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { exportIntoResource, exportResourceInput, exportTargetOf, resourceRefusal, type UpstreamAnswer } from '../resources/index.js';
import {
  deadlineSignal,
  DuckDbEngine,
  effectiveTimeoutMs,
  requirePermitted,
  requireRead,
  requireSingleStatement,
  SqlCancelledError,
  SqlConnectionError,
  SqlEngineError,
  SqlTimeoutError,
  type SqlConnection,
} from '../sql/index.js';
import { parquetStream } from './parquet-rows.js';
import { ROW_FORMATS, rowStream, type RowCount } from './sql-rows.js';
import { exportOutcome, type ExportToolsDeps } from './results.js';

const PARQUET_TYPE = 'application/vnd.apache.parquet';

const input = z.object({
  sql: z.string().min(1).describe('One read-only SQL statement (SELECT, WITH … SELECT)'),
  format: z.enum(['csv', 'ndjson', 'parquet']).default('csv').describe('csv (default, with a header row), ndjson (one JSON object per row) or parquet'),
  connection: z.string().optional().describe('Connection name; empty means the default connection. sql_list_connections lists them.'),
  timeout_seconds: z.number().int().optional().describe('Timeout of the whole export in seconds (default: the connection timeout; at most 300)'),
  resource: exportResourceInput.describe('Where the file is: the first export creates it, later ones record its next version'),
});

/** What the engine's failure says to the agent; `where` (the file) keeps its last version. */
function sqlFailure(error: unknown, where?: string): CallToolResult {
  const kept = where ? `; nothing was exported, and ${where} keeps its last version` : '';
  if (error instanceof SqlConnectionError) return toolError(`Connection error: ${error.message}${kept}`);
  if (error instanceof SqlTimeoutError || error instanceof SqlCancelledError || error instanceof SqlEngineError) return toolError(`Export failed: ${error.message}${kept}`);
  return toolError(`Export failed: ${error instanceof Error ? error.message : String(error)}${kept}`);
}

export function sqlExportTool(deps: ExportToolsDeps): ToolDefinition {
  return defineTool({
    name: 'sql_export',
    toolkit: 'sql',
    title: 'Export a query result into a resource',
    description:
      'Runs one read-only SQL query and streams its full result (no row limit) into the resource at resource.library/path/filename as CSV, NDJSON or Parquet. ' +
      'The first export creates the file, each later one to the same path records its next version; a failing query stores nothing and the file keeps its last version. ' +
      'The result carries resource.reference and table_changes (tables following the file).',
    input,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async handler(args, ctx) {
      let conn: SqlConnection;
      try {
        conn = deps.sql.connection(args.connection);
      } catch (error) {
        return sqlFailure(error);
      }
      const deadline = deadlineSignal(effectiveTimeoutMs(args.timeout_seconds, conn.config.timeout), ctx.signal);
      let parquet: string | undefined;
      let where: string | undefined;
      try {
        const actor = deps.actorOf(ctx.caller, ctx.sessionId);
        const target = exportTargetOf(args.resource, actor);
        where = `${target.path ? `${target.path}/` : ''}${target.file_name}`;
        const classification = await conn.engine.classify(args.sql, deadline.signal);
        const rule = [requirePermitted(classification), requireRead(classification, 'in sql_export'), requireSingleStatement(classification)].find((r) => !r.ok);
        if (rule && !rule.ok) return toolError(`Query rejected: ${rule.message}; sql_export runs reads only`);
        const name = `connection "${conn.name}"`;
        const count: RowCount = { rows: 0 };
        let upstream: UpstreamAnswer;
        if (args.format === 'parquet' && conn.engine instanceof DuckDbEngine) {
          const written = await conn.engine.exportParquet(args.sql, deps.config.resources.managed.max_upload_bytes, deadline.signal);
          parquet = written.file;
          count.rows = written.rows;
          upstream = { status: 200, contentType: PARQUET_TYPE, body: createReadStream(written.file), name };
        } else {
          const cursor = await conn.engine.start(args.sql, { signal: deadline.signal, readOnly: true, complete: true, maxRows: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER });
          upstream =
            args.format === 'parquet'
              ? { status: 200, contentType: PARQUET_TYPE, body: parquetStream(cursor, count), name }
              : { status: 200, contentType: ROW_FORMATS[args.format].contentType, body: rowStream(cursor, args.format, count), name };
        }
        const created = await exportIntoResource(deps.resources, actor, { change_summary: `export of a query on ${name}`, ...target }, upstream, 'export');
        return await exportOutcome(deps, created, { format: args.format, rows: count.rows, connection: conn.name });
      } catch (error) {
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        return sqlFailure(deadline.signal.aborted ? deadline.signal.reason : error, where);
      } finally {
        deadline.dispose();
        if (parquet) await rm(parquet, { force: true });
      }
    },
  });
}
