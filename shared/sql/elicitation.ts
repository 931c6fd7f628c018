/**
 * Elicitation triggers of sql_query and sql_export (spec document 1, "tools, elicitation, icons"; toolkits.md 6.3),
 * for the elicitation framework (shared/elicitation: the surface runs triggers as a middleware when
 * `elicitation.enabled`, asks through ctx.elicit, is a no-op for clients without elicitation, and
 * returns an informational result instead of running when the user declines):
 *   - cost: the engine's EXPLAIN estimate exceeds `elicitation.cost_estimation.row_threshold`;
 *   - PII: the query reads tables with columns the catalog tags as PII or sensitive.
 * Cost is asked before PII. A trigger that cannot decide (unknown connection, a statement that
 * sql_query will refuse anyway, a failed EXPLAIN or tag lookup) asks nothing. Before any EXPLAIN the
 * statement is classified: only one read-only statement is ever explained, so `EXPLAIN <sql>` can
 * neither run a write (EXPLAIN ANALYZE) nor a second statement.
 */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationTrigger } from '../elicitation/index.js';
import type { ToolInvocation } from '../mcp-tools/index.js';
import { requirePermitted, requireRead, requireSingleStatement } from './readonly.js';
import { deadlineSignal } from './run.js';
import type { SqlConnection } from './connections.js';
import type { TableRef } from './types.js';

export interface ElicitationSettings {
  enabled: boolean;
  cost_estimation: { enabled: boolean; row_threshold: number };
  pii_consent: { enabled: boolean };
}

/** A column of a table with the catalog's tags on it. */
export interface TaggedColumn {
  table: Required<TableRef>;
  column: string;
  tags: string[];
}

/**
 * Where column tags come from: in production the semantic provider (`semantic.provider: catalog`,
 * shared/enrichment `catalogPiiTags`: the catalog's tags of the tables' columns); without one, none.
 * `connection` is the SQL connection the tables belong to (for catalog URN mapping).
 */
export interface PiiTagProvider {
  columnTags(tables: ReadonlyArray<Required<TableRef>>, opts: { connection: string; signal: AbortSignal }): Promise<TaggedColumn[]>;
}

export const noPiiTags: PiiTagProvider = {
  async columnTags() {
    return [];
  },
};

const sensitiveWords = new Set(['pii', 'sensitive', 'confidential', 'restricted', 'phi', 'pci']);

/**
 * Whether a tag marks a column as PII or sensitive: one of its words (split at anything that is not
 * a letter or digit, so `urn:li:tag:PII`, `pii-email`, `Sensitive` count, `graphic` does not) is
 * pii, sensitive, confidential, restricted, phi or pci.
 */
export function isSensitiveTag(tag: string): boolean {
  return tag
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((w) => sensitiveWords.has(w));
}

/** Tables with every part filled from the connection's defaults; tables that stay partial are dropped. */
export function qualifyTables(tables: readonly TableRef[], defaults: { catalog?: string; schema?: string }): Array<Required<TableRef>> {
  const out = new Map<string, Required<TableRef>>();
  for (const t of tables) {
    const catalog = t.catalog ?? defaults.catalog;
    const schema = t.schema ?? defaults.schema;
    if (!catalog || !schema) continue;
    out.set(`${catalog}.${schema}.${t.table}`.toLowerCase(), { catalog, schema, table: t.table });
  }
  return [...out.values()];
}

const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

export function costMessage(estimate: number, threshold: number): string {
  return (
    `This query will scan approximately ${thousands(estimate)} rows, above the confirmation threshold of ` +
    `${thousands(threshold)} rows. Do you want to run it?`
  );
}

export function piiMessage(columns: readonly TaggedColumn[]): string {
  const names = columns.map((c) => `${c.table.catalog}.${c.table.schema}.${c.table.table}.${c.column}`);
  const shown = names.slice(0, 10).join(', ') + (names.length > 10 ? `, and ${names.length - 10} more` : '');
  return `This query reads tables with ${columns.length} column(s) tagged as PII or sensitive (${shown}). Do you allow this access?`;
}

/** The yes/no form every trigger sends; an accept without `confirm: false` is a yes. */
export function confirmForm(message: string): ElicitRequestFormParams {
  return {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Run the query', default: true } } },
  };
}

/**
 * The tools whose `sql` reads a connection's tables for the caller: sql_query, and sql_export (the
 * same read, its whole result written to a file) — asking only before sql_query would let an
 * export read what the user was not asked about.
 */
const READING_TOOLS = new Set(['sql_query', 'sql_export']);

/** The connection and SQL of a reading call that may run (one read-only statement), else undefined. */
async function runnableQuery(
  invocation: ToolInvocation,
  connection: (name?: string) => SqlConnection,
): Promise<{ conn: SqlConnection; sql: string } | undefined> {
  const { tool, args } = invocation;
  if (!READING_TOOLS.has(tool.name) || typeof args.sql !== 'string' || args.sql.trim() === '') return undefined;
  let conn: SqlConnection;
  let deadline: ReturnType<typeof deadlineSignal> | undefined;
  try {
    conn = connection(typeof args.connection === 'string' ? args.connection : undefined);
    deadline = deadlineSignal(conn.config.timeout, invocation.ctx.signal);
    const classification = await conn.engine.classify(args.sql, deadline.signal);
    const runnable = [requirePermitted(classification), requireRead(classification, `in ${tool.name}`), requireSingleStatement(classification)];
    if (runnable.some((d) => !d.ok)) return undefined;
  } catch {
    return undefined; // the tool itself reports it
  } finally {
    deadline?.dispose();
  }
  return { conn, sql: args.sql };
}

/**
 * The cost and PII triggers for the SQL toolkit's connections. Each trigger checks its own switch
 * in `settings` (the framework checks `elicitation.enabled`).
 */
export function sqlElicitationTriggers(opts: {
  connection: (name?: string) => SqlConnection;
  settings: ElicitationSettings;
  piiTags?: PiiTagProvider;
}): ElicitationTrigger[] {
  const { settings } = opts;
  const piiTags = opts.piiTags ?? noPiiTags;

  const cost: ElicitationTrigger = async (invocation) => {
    if (!settings.enabled || !settings.cost_estimation.enabled) return undefined;
    const query = await runnableQuery(invocation, opts.connection);
    if (!query) return undefined;
    const deadline = deadlineSignal(query.conn.config.timeout, invocation.ctx.signal);
    let estimate: number | undefined;
    try {
      estimate = await query.conn.engine.estimateRows(query.sql, deadline.signal);
    } catch (error) {
      invocation.ctx.log.debug({ err: error }, 'row estimate unavailable; not asking about cost');
      return undefined;
    } finally {
      deadline.dispose();
    }
    const threshold = settings.cost_estimation.row_threshold;
    return estimate !== undefined && estimate > threshold ? confirmForm(costMessage(estimate, threshold)) : undefined;
  };

  const pii: ElicitationTrigger = async (invocation) => {
    if (!settings.enabled || !settings.pii_consent.enabled) return undefined;
    const query = await runnableQuery(invocation, opts.connection);
    if (!query) return undefined;
    const deadline = deadlineSignal(query.conn.config.timeout, invocation.ctx.signal);
    try {
      const tables = qualifyTables(await query.conn.engine.referencedTables(query.sql), query.conn.engine.defaults);
      if (!tables.length) return undefined;
      const columns = await piiTags.columnTags(tables, { connection: query.conn.name, signal: deadline.signal });
      const tagged = columns.filter((c) => c.tags.some(isSensitiveTag));
      return tagged.length ? confirmForm(piiMessage(tagged)) : undefined;
    } catch (error) {
      invocation.ctx.log.warn({ err: error }, 'PII tag lookup failed; not asking about PII');
      return undefined;
    } finally {
      deadline.dispose();
    }
  };

  return [cost, pii];
}
