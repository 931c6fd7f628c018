/**
 * SQL results get catalog context (toolkits.md 5.2, 5.3): the tables a statement reads (the engine's
 * own reference extraction), or the explicit table of sql_describe_table; the first is the primary
 * table. Its context, its columns (filtered to those the statement names on the SQL path, after
 * lineage inheritance for columns lacking metadata) and the other tables' summaries make one block,
 * which session de-duplication may replace when it is attached (deduplicateContext). The tuning
 * rules' warnings ride on the same lookups.
 */
import type { TableRef } from '../sql/index.js';
import { qualifyTables, type SqlConnection } from '../sql/index.js';
import { deprecationWarning, qualityNote, sqlContextBlock, type Block } from './blocks.js';
import { columnsForBlock, hasContent, referencedIdentifiers } from './columns.js';
import type { SemanticProvider } from './semantic-provider.js';
import type { ColumnContext, QualifiedTable, TableContext } from './types.js';
import { qualifiedName } from './urn.js';
import { LookupCache } from './cache.js';
import { applyDedup, type SentTable, type SessionDedup } from './dedup/index.js';
import { sanitizeColumn } from './sanitize.js';

export interface SqlFamilySettings {
  /** `injection.trino_semantic_enrichment`. */
  context: boolean;
  /** `injection.column_context_filtering`. */
  columnFiltering: boolean;
  /** `tuning.rules.warn_on_deprecated`. */
  warnOnDeprecated: boolean;
  /** `tuning.rules.quality_threshold`. */
  qualityThreshold: number;
}

/** Lineage inheritance for the primary table's columns (shared/enrichment/lineage); stops when `signal` aborts. */
export type InheritColumns = (table: { urn: string; name: string }, columns: ColumnContext[], signal: AbortSignal) => Promise<ColumnContext[]>;

export interface SqlFamilyDeps {
  settings: SqlFamilySettings;
  semantic: SemanticProvider;
  inherit?: InheritColumns;
}

export interface SqlCall {
  connection: SqlConnection;
  args: Record<string, unknown>;
  signal: AbortSignal;
}

interface NamedTable {
  /** As the statement or arguments wrote it: with the connection, the session de-duplication key. */
  written: string;
  table: QualifiedTable;
}

/**
 * The tables a statement names depend on its text and the engine's parser alone, so they are kept
 * per connection and text (bounded): a repeated query does not ask the engine process again.
 */
const referenced = new WeakMap<SqlConnection, LookupCache<TableRef[]>>();
const REFERENCE_ENTRIES = 500;
const REFERENCE_TTL_MS = 60 * 60_000;

function referencedTables(connection: SqlConnection, sql: string): Promise<TableRef[]> {
  let cache = referenced.get(connection);
  if (!cache) referenced.set(connection, (cache = new LookupCache<TableRef[]>({ ttlMs: REFERENCE_TTL_MS, maxEntries: REFERENCE_ENTRIES })));
  return cache.get(sql, () => connection.engine.referencedTables(sql));
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The tables of the call in order of appearance, each once, with every part filled from the connection's defaults. */
async function tablesOf(call: SqlCall): Promise<{ tables: NamedTable[]; sql?: string }> {
  const { args, connection } = call;
  const sql = str(args.sql);
  let refs: TableRef[];
  if (sql) refs = await referencedTables(connection, sql);
  else {
    const table = str(args.table) ?? str(args.table_name);
    if (!table) return { tables: [] };
    refs = [{ ...(str(args.catalog) ? { catalog: str(args.catalog)! } : {}), ...(str(args.schema) ? { schema: str(args.schema)! } : {}), table }];
  }
  const seen = new Set<string>();
  const tables: NamedTable[] = [];
  for (const ref of refs) {
    const [table] = qualifyTables([ref], connection.engine.defaults);
    const key = table && qualifiedName(table).toLowerCase();
    if (!table || seen.has(key!)) continue;
    seen.add(key!);
    tables.push({ written: [ref.catalog, ref.schema, ref.table].filter(Boolean).join('.'), table });
  }
  return { tables, ...(sql ? { sql } : {}) };
}

export interface FamilyBlocks {
  blocks: Block[];
  /**
   * What the catalog context block (`blocks[0]`) sends, table by table, for session
   * de-duplication when it is attached: the primary table `full` (or `filtered` when column
   * filtering left columns out), each resolved join partner `brief` (its `additional_tables` entry).
   */
  sends?: SentTable[];
}

export async function sqlFamilyBlocks(deps: SqlFamilyDeps, call: SqlCall): Promise<FamilyBlocks> {
  const { settings, semantic } = deps;
  if (!settings.context && !settings.warnOnDeprecated) return { blocks: [] };
  const { tables, sql } = await tablesOf(call);
  const [primary, ...others] = tables;
  if (!primary) return { blocks: [] };
  const primaryCtx = await semantic.tableContext(primary.table, call.signal);
  // The primary table unknown (or its lookup failed): nothing is added, whatever the others are.
  if (!primaryCtx) return { blocks: [] };
  const otherCtx = await Promise.all(
    others.map(async (o) => ({ written: o.written, ctx: await semantic.tableContext(o.table, call.signal).catch(() => undefined) })),
  );
  const resolved = [{ written: primary.written, ctx: primaryCtx }, ...otherCtx.filter((o): o is { written: string; ctx: TableContext } => o.ctx !== undefined)];
  const blocks: Block[] = [];
  let sends: SentTable[] | undefined;
  if (settings.context) {
    let columns = primaryCtx.columns;
    if (deps.inherit) columns = (await deps.inherit({ urn: primaryCtx.urn, name: qualifiedName(primary.table) }, columns, call.signal)).map(sanitizeColumn);
    const referenced = sql && settings.columnFiltering ? referencedIdentifiers(sql, call.connection.engine.kind) : undefined;
    const shown = columnsForBlock(columns, referenced);
    blocks.push(sqlContextBlock({ primary: { ...primaryCtx, columns }, columns: shown, additional: resolved.slice(1) }));
    const connection = call.connection.name;
    const primaryExtent = referenced && shown.length < columns.filter(hasContent).length ? 'filtered' : 'full';
    sends = [
      { connection, table: primary.written, extent: primaryExtent },
      ...resolved.slice(1).map((o): SentTable => ({ connection, table: o.written, extent: 'brief' })),
    ];
  }
  if (settings.warnOnDeprecated) {
    const warning = deprecationWarning(resolved);
    if (warning) blocks.push(warning);
  }
  const note = qualityNote(resolved, settings.qualityThreshold);
  if (note) blocks.push(note);
  return { blocks, ...(sends ? { sends } : {}) };
}

/**
 * Session de-duplication (toolkits.md 5.4) of the context block, as part of attaching it: the
 * middleware calls this once the enrichment deadline is behind it and appends what it returns
 * straight away, so a table counts as sent only when its block went out. The call is a repeat only
 * when every table of the block was sent before at (at least) the extent this block sends it:
 * then the mode's block replaces the context block. Warnings and notes are never replaced.
 */
export async function deduplicateContext(out: FamilyBlocks, dedup: SessionDedup, sessionId: string, now: number): Promise<Block[]> {
  const [context, ...rest] = out.blocks;
  if (!out.sends || !context) return out.blocks;
  return [applyDedup(context, await dedup.markSent(sessionId, out.sends, now), dedup.mode), ...rest];
}
