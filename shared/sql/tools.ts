/**
 * The sql_* tools (spec toolkits.md 1.2, with our names): sql_query, sql_execute, sql_explain,
 * sql_browse, sql_describe_table, sql_list_connections. Failures are tool results with isError and
 * the engine's own message behind a prefix (`Query failed: …`, `Connection error: …`,
 * `Query rejected: …`), plus `structuredContent.error = {code, category, message, retryable}`.
 */
import { z } from 'zod';
import { defineTool, jsonResult, type CallToolResult, type ToolCallContext, type ToolDefinition } from '../mcp-tools/index.js';
import { describeConnection, resolveConnection, type SqlConnection } from './connections.js';
import { buildOutput, QueryOutputWriter, renderOutput, unwrapJson, type OutputFacts, type OutputFormat } from './format.js';
import { requirePermitted, requireRead, requireSingleStatement } from './readonly.js';
import { deadlineSignal, effectiveLimit, effectiveTimeoutMs, runWithLimit } from './run.js';
import { SqlCancelledError, SqlConnectionError, SqlEngineError, SqlTimeoutError, type Classification, type ExplainType } from './types.js';

export interface SqlToolsContext {
  connections: ReadonlyMap<string, SqlConnection>;
  defaultConnection: string | undefined;
  /** Descriptions by tool name (per-instance `descriptions`), replacing the built-in text. */
  descriptions: Readonly<Record<string, string>>;
  now?: () => number;
}

// ---------------------------------------------------------------------------
// Errors

type ErrorCode = 'query_failed' | 'execution_failed' | 'explain_failed' | 'connection_error' | 'query_rejected' | 'timeout' | 'cancelled';

function errorResult(code: ErrorCode, text: string, retryable = false): CallToolResult {
  const category = code === 'query_rejected' ? 'rejected' : code === 'connection_error' ? 'connection' : code === 'timeout' || code === 'cancelled' ? code : 'engine';
  return {
    content: [{ type: 'text', text }],
    structuredContent: { error: { code, category, message: text, retryable } },
    isError: true,
  };
}

/** Maps what an engine threw to the tool error an agent reads; `prefix` names the failed step. */
function failure(error: unknown, prefix: 'Query failed' | 'Execution failed' | 'Explain failed'): CallToolResult {
  const code: ErrorCode = prefix === 'Query failed' ? 'query_failed' : prefix === 'Execution failed' ? 'execution_failed' : 'explain_failed';
  if (error instanceof SqlTimeoutError) return errorResult('timeout', `${prefix}: ${error.message}`, true);
  if (error instanceof SqlCancelledError) return errorResult('cancelled', `${prefix}: ${error.message}`);
  if (error instanceof SqlConnectionError) return errorResult('connection_error', `Connection error: ${error.message}`, true);
  if (error instanceof SqlEngineError) return errorResult(code, `${prefix}: ${error.message}`);
  return errorResult(code, `${prefix}: ${error instanceof Error ? error.message : String(error)}`);
}

const rejected = (message: string) => errorResult('query_rejected', `Query rejected: ${message}`);

/**
 * The input's classification under the call's deadline (so the timeout covers it too), or the
 * failure to answer; a refusal of the engine (engine-wide state, its own files) comes first.
 */
async function classifyWithin(
  conn: SqlConnection,
  sql: string,
  deadline: AbortSignal,
  prefix: 'Query failed' | 'Execution failed' | 'Explain failed',
): Promise<Classification | CallToolResult> {
  let classification: Classification;
  try {
    classification = await conn.engine.classify(sql, deadline);
  } catch (error) {
    return failure(deadline.aborted ? deadline.reason : error, prefix);
  }
  const permitted = requirePermitted(classification);
  return permitted.ok ? classification : rejected(permitted.message);
}

const isResult = (v: Classification | CallToolResult): v is CallToolResult => 'content' in v;

// ---------------------------------------------------------------------------
// Inputs

const connectionArg = z.string().optional().describe('Connection name; empty means the default connection. sql_list_connections lists them.');
const runInput = (sqlDescription: string) =>
  z.object({
    sql: z.string().min(1).describe(sqlDescription),
    limit: z.number().int().optional().describe('Maximum rows to return (default 1000, at most 10000; larger values are clamped)'),
    timeout_seconds: z.number().int().optional().describe('Query timeout in seconds (default: the connection timeout, 120; at most 300)'),
    format: z.enum(['json', 'csv', 'markdown']).optional().describe('Output format of the text result (default json)'),
    unwrap_json: z
      .boolean()
      .optional()
      .describe('When the result is one row with one text/JSON column holding a JSON object or array, return it parsed (default true)'),
    connection: connectionArg,
  });
type RunArgs = z.output<ReturnType<typeof runInput>>;

// ---------------------------------------------------------------------------

export function sqlTools(context: SqlToolsContext): ToolDefinition[] {
  const describe = (name: string, builtIn: string) => context.descriptions[name] ?? builtIn;
  const connection = (requested: string | undefined) => resolveConnection(context.connections, context.defaultConnection, requested);

  /** Shared by sql_query and sql_execute: runs one statement and shapes the result. */
  async function run(args: RunArgs, ctx: ToolCallContext, mode: 'query' | 'execute'): Promise<CallToolResult> {
    const prefix = mode === 'query' ? 'Query failed' : 'Execution failed';
    let conn: SqlConnection;
    try {
      conn = connection(args.connection);
    } catch (error) {
      return failure(error, prefix);
    }
    const cfg = conn.config;
    const limit = effectiveLimit(args.limit, cfg.default_limit, cfg.max_limit);
    const timeoutMs = effectiveTimeoutMs(args.timeout_seconds, cfg.timeout);
    const deadline = deadlineSignal(timeoutMs, ctx.signal);
    try {
      const classification = await classifyWithin(conn, args.sql, deadline.signal, prefix);
      if (isResult(classification)) return classification;
      if (mode === 'query') {
        const read = requireRead(classification, 'in sql_query');
        if (!read.ok) return rejected(`${read.message}; use sql_execute for statements that change data`);
      } else if (cfg.read_only) {
        const read = requireRead(classification, `on read-only connection "${conn.name}"`);
        if (!read.ok) return rejected(read.message);
      }
      const single = requireSingleStatement(classification);
      if (!single.ok) return rejected(single.message);

      const format: OutputFormat = args.format ?? 'json';
      const result = await runWithLimit(conn.engine, args.sql, {
        limit,
        timeoutMs,
        maxBytes: cfg.max_result_bytes,
        signal: deadline.signal,
        // sql_query is a read wherever it runs; sql_execute only on a read-only connection.
        readOnly: mode === 'query' || cfg.read_only,
        ...(context.now ? { now: context.now } : {}),
        // The json answer is written page by page, while the engine makes the next one.
        collect: (columns) => (format === 'json' ? new QueryOutputWriter(columns) : undefined),
      });
      const facts: OutputFacts = {
        truncated: result.truncated,
        ...(result.truncatedReason ? { truncatedReason: result.truncatedReason } : {}),
        limit,
        durationMs: result.durationMs,
        ...(result.updateCount !== undefined ? { updateCount: result.updateCount } : {}),
      };
      const unwrap = args.unwrap_json ?? true;
      if (result.collected) {
        const { output, json, quoted } = result.collected.finish(facts);
        const unwrapped = unwrap ? unwrapJson(output) : output;
        return unwrapped === output ? jsonResult(output, { text: json, quoted }) : jsonResult(unwrapped);
      }
      let output = buildOutput({ ...facts, columns: result.columns, rows: result.rows });
      if (unwrap) output = unwrapJson(output);
      return { content: [{ type: 'text', text: renderOutput(output, format) }], structuredContent: output };
    } catch (error) {
      return failure(error, prefix);
    } finally {
      deadline.dispose();
    }
  }

  const sqlQuery = defineTool({
    name: 'sql_query',
    toolkit: 'sql',
    title: 'Run a read-only SQL query',
    description: describe(
      'sql_query',
      'Run a read-only SQL statement (SELECT, WITH … SELECT, SHOW, DESCRIBE, EXPLAIN) and return rows with typed columns. ' +
        'Rows are limited (default 1000, at most 10000); stats.truncated says whether more rows existed. ' +
        'Statements that change data are refused here: use sql_execute.',
    ),
    input: runInput('One read-only SQL statement'),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    handler: (args, ctx) => run(args, ctx, 'query'),
  });

  const sqlExecute = defineTool({
    name: 'sql_execute',
    toolkit: 'sql',
    title: 'Execute a SQL statement',
    description: describe(
      'sql_execute',
      'Execute one SQL statement of any kind, including INSERT, UPDATE, DELETE, MERGE, CREATE, DROP and ALTER. ' +
        'For reads use sql_query. Refused on read-only connections.',
    ),
    input: runInput('One SQL statement (DDL or DML allowed unless the connection is read-only)'),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    handler: (args, ctx) => run(args, ctx, 'execute'),
  });

  const sqlExplain = defineTool({
    name: 'sql_explain',
    toolkit: 'sql',
    title: 'Explain a SQL statement',
    description: describe(
      'sql_explain',
      'Show the execution plan of a SQL statement without running it. type: logical (default), distributed, io (with row estimates) or validate.',
    ),
    input: z.object({
      sql: z.string().min(1).describe('The statement to explain'),
      type: z.enum(['logical', 'distributed', 'io', 'validate']).optional().describe('Plan type (default logical)'),
      connection: connectionArg,
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async handler(args, ctx) {
      let conn: SqlConnection;
      try {
        conn = connection(args.connection);
      } catch (error) {
        return failure(error, 'Explain failed');
      }
      const type: ExplainType = args.type ?? 'logical';
      const deadline = deadlineSignal(conn.config.timeout, ctx.signal);
      try {
        const classification = await classifyWithin(conn, args.sql, deadline.signal, 'Explain failed');
        if (isResult(classification)) return classification;
        // The plan is of the inner statement, so the connection's read-only rule applies to it.
        if (conn.config.read_only) {
          const read = requireRead(classification, `on read-only connection "${conn.name}"`);
          if (!read.ok) return rejected(read.message);
        }
        const single = requireSingleStatement(classification);
        if (!single.ok) return rejected(single.message);
        const { plan } = await conn.engine.explain(args.sql, type, deadline.signal);
        const upper = type.toUpperCase();
        const result = jsonResult({ plan, type: upper });
        result.content = [{ type: 'text', text: `## Query plan (${upper})\n\n\`\`\`\n${plan}\n\`\`\`` }];
        return result;
      } catch (error) {
        return failure(deadline.signal.aborted ? deadline.signal.reason : error, 'Explain failed');
      } finally {
        deadline.dispose();
      }
    },
  });

  const sqlBrowse = defineTool({
    name: 'sql_browse',
    toolkit: 'sql',
    title: 'Browse catalogs, schemas and tables',
    description: describe(
      'sql_browse',
      'List catalogs (no arguments), the schemas of a catalog, or the tables of a schema. pattern filters tables by a case-insensitive substring.',
    ),
    input: z.object({
      catalog: z.string().optional().describe('Catalog to list schemas of'),
      schema: z.string().optional().describe('Schema to list tables of (requires catalog)'),
      pattern: z.string().optional().describe('Case-insensitive substring filter on table names (requires catalog and schema)'),
      connection: connectionArg,
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async handler(args, ctx) {
      const catalog = args.catalog?.trim() || undefined;
      const schema = args.schema?.trim() || undefined;
      const pattern = args.pattern?.replaceAll('%', '').trim() || undefined;
      if (schema && !catalog) return errorResult('query_rejected', 'catalog parameter is required when schema is given');
      if (pattern && !(catalog && schema)) return errorResult('query_rejected', 'catalog and schema parameters are required when pattern is given');
      let conn: SqlConnection;
      try {
        conn = connection(args.connection);
      } catch (error) {
        return failure(error, 'Query failed');
      }
      const deadline = deadlineSignal(conn.config.timeout, ctx.signal);
      try {
        const level = schema ? 'tables' : catalog ? 'schemas' : 'catalogs';
        let items =
          level === 'catalogs'
            ? await conn.engine.listCatalogs(deadline.signal)
            : level === 'schemas'
              ? await conn.engine.listSchemas(catalog!, deadline.signal)
              : await conn.engine.listTables(catalog!, schema!, deadline.signal);
        if (pattern) items = items.filter((i) => i.toLowerCase().includes(pattern.toLowerCase()));
        const value = { level, ...(catalog ? { catalog } : {}), ...(schema ? { schema } : {}), items, count: items.length, ...(pattern ? { pattern } : {}) };
        const result = jsonResult(value);
        const where = schema ? ` in ${catalog}.${schema}` : catalog ? ` in ${catalog}` : '';
        result.content = [{ type: 'text', text: `${items.map((i) => `- \`${i}\``).join('\n')}${items.length ? '\n\n' : ''}${items.length} ${level}${where}` }];
        return result;
      } catch (error) {
        return failure(deadline.signal.aborted ? deadline.signal.reason : error, 'Query failed');
      } finally {
        deadline.dispose();
      }
    },
  });

  const sqlDescribeTable = defineTool({
    name: 'sql_describe_table',
    toolkit: 'sql',
    title: 'Describe a table',
    description: describe(
      'sql_describe_table',
      'Columns of one table (name, type, nullable, comment), optionally with a sample of 5 rows.',
    ),
    input: z.object({
      catalog: z.string().min(1).describe('Catalog of the table'),
      schema: z.string().min(1).describe('Schema of the table'),
      table: z.string().min(1).describe('Table name'),
      include_sample: z.boolean().optional().describe('Also return up to 5 rows (default false)'),
      connection: connectionArg,
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async handler(args, ctx) {
      let conn: SqlConnection;
      try {
        conn = connection(args.connection);
      } catch (error) {
        return failure(error, 'Query failed');
      }
      const ref = { catalog: args.catalog, schema: args.schema, table: args.table };
      const deadline = deadlineSignal(conn.config.timeout, ctx.signal);
      let columns;
      try {
        columns = await conn.engine.describeTable(ref, deadline.signal);
      } catch (error) {
        return failure(deadline.signal.aborted ? deadline.signal.reason : error, 'Query failed');
      } finally {
        deadline.dispose();
      }
      let sample: Array<Record<string, unknown>> | undefined;
      if (args.include_sample) {
        const name = [ref.catalog, ref.schema, ref.table].map((p) => `"${p.replaceAll('"', '""')}"`).join('.');
        try {
          const r = await runWithLimit(conn.engine, `SELECT * FROM ${name}`, {
            limit: 5,
            timeoutMs: conn.config.timeout,
            maxBytes: conn.config.max_result_bytes,
            signal: ctx.signal,
            readOnly: true,
          });
          sample = buildOutput({ columns: r.columns, rows: r.rows, truncated: r.truncated, limit: 5, durationMs: r.durationMs }).rows;
        } catch (error) {
          // A failing sample is left out; the columns are still the answer.
          ctx.log.debug({ err: error }, 'sample rows unavailable');
        }
      }
      const value = { ...ref, columns, column_count: columns.length, ...(sample ? { sample } : {}) };
      const result = jsonResult(value);
      const cell = (v: unknown) => (v === undefined || v === '' ? '-' : String(v).replaceAll('|', '\\|'));
      const lines = [
        `## ${ref.catalog}.${ref.schema}.${ref.table}`,
        '',
        '| Name | Type | Nullable | Comment |',
        '| --- | --- | --- | --- |',
        ...columns.map((c) => `| ${cell(c.name)} | ${cell(c.type)} | ${c.nullable === undefined ? '-' : c.nullable ? 'YES' : 'NO'} | ${cell(c.comment)} |`),
      ];
      if (sample) lines.push('', `Sample (${sample.length} rows):`, '```json', JSON.stringify(sample), '```');
      result.content = [{ type: 'text', text: lines.join('\n') }];
      return result;
    },
  });

  const sqlListConnections = defineTool({
    name: 'sql_list_connections',
    toolkit: 'sql',
    title: 'List SQL connections',
    description: describe(
      'sql_list_connections',
      'List the SQL connections this platform offers (name, engine, default catalog and schema, read-only flag) and which one is the default.',
    ),
    input: z.object({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler() {
      const connections = [...context.connections.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((c) => describeConnection(c, c.name === context.defaultConnection));
      return jsonResult({ connections, count: connections.length });
    },
  });

  return [sqlQuery, sqlExecute, sqlExplain, sqlBrowse, sqlDescribeTable, sqlListConnections];
}
