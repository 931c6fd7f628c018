/**
 * The JSON blocks enrichment appends (toolkits.md 5.2, 5.5–5.7) and the tuning-rule notes
 * (document 1 `tuning.rules.*`), as pure builders. Each returns one object: one text content block.
 */
import { isPiiColumn, isSensitiveColumn } from './columns.js';
import type { Availability, ColumnContext, DatasetHit, StorageInfo, TableContext } from './types.js';

export type Block = Record<string, unknown>;

function columnEntry(c: ColumnContext): Record<string, unknown> {
  return {
    description: c.description ?? '',
    glossary_terms: c.glossary_terms,
    tags: c.tags,
    is_pii: isPiiColumn(c),
    is_sensitive: isSensitiveColumn(c),
    ...(c.inherited_from ? { inherited_from: c.inherited_from } : {}),
  };
}

/** The `semantic_context` object of one table (5.2). */
export function semanticContext(ctx: TableContext): Record<string, unknown> {
  return {
    urn: ctx.urn,
    description: ctx.description,
    owners: ctx.owners,
    tags: ctx.tags,
    domain: ctx.domain,
    quality_score: ctx.quality_score,
    deprecation: ctx.deprecation,
    ...(ctx.glossary_terms.length ? { glossary_terms: ctx.glossary_terms } : {}),
    ...(ctx.custom_properties && Object.keys(ctx.custom_properties).length ? { custom_properties: ctx.custom_properties } : {}),
  };
}

/** `additional_tables` entry of a non-primary table (5.2). */
function additionalTable(written: string, ctx: TableContext): Record<string, unknown> {
  return {
    table: written,
    description: ctx.description,
    urn: ctx.urn,
    ...(ctx.deprecation?.deprecated ? { deprecation: ctx.deprecation } : {}),
    ...(ctx.tags.length ? { tags: ctx.tags } : {}),
    ...(ctx.owners.length ? { owners: ctx.owners } : {}),
  };
}

/**
 * The SQL family's block (5.2): the primary table's context, its columns (already filtered by the
 * caller: 5.3 applies to the SQL path only), the upstream datasets inherited from, and the other tables.
 * `column_context_note` replaces `column_context` when the table has columns but none with content.
 */
export function sqlContextBlock(opts: {
  primary: TableContext;
  columns: readonly ColumnContext[];
  additional?: ReadonlyArray<{ written: string; ctx: TableContext }>;
}): Block {
  const { primary, columns } = opts;
  const inheritance = [...new Set(columns.flatMap((c) => Object.values(c.inherited_from ?? {}).flatMap((list) => list.map((p) => p.urn))))];
  const block: Block = { semantic_context: semanticContext(primary) };
  if (columns.length) block.column_context = Object.fromEntries(columns.map((c) => [c.name, columnEntry(c)]));
  else if (primary.columns.length) block.column_context_note = 'No column-level metadata available';
  if (inheritance.length) block.inheritance_sources = inheritance;
  if (opts.additional?.length) block.additional_tables = opts.additional.map((a) => additionalTable(a.written, a.ctx));
  return block;
}

/** `query_context` (5.5): availability per dataset URN. */
export const queryContextBlock = (byUrn: ReadonlyMap<string, Availability>): Block => ({ query_context: Object.fromEntries(byUrn) });

/** `storage_context` (5.7): storage per `s3` dataset URN. */
export const storageContextBlock = (byUrn: ReadonlyMap<string, StorageInfo>): Block => ({ storage_context: Object.fromEntries(byUrn) });

/** The object-store family's `semantic_context` (5.6): datasets the catalog holds at the listed location. */
export function objstoreContextBlock(location: string, matches: ReadonlyArray<{ hit: DatasetHit; ctx: TableContext }>): Block {
  return {
    semantic_context: {
      matching_datasets: matches.map(({ hit, ctx }) => ({
        urn: ctx.urn,
        name: hit.name,
        description: ctx.description,
        ...(ctx.owners.length ? { owners: ctx.owners } : {}),
        ...(ctx.tags.length ? { tags: ctx.tags } : {}),
        ...(ctx.domain ? { domain: ctx.domain.name } : {}),
        ...(ctx.deprecation?.deprecated ? { deprecation: ctx.deprecation } : {}),
        ...(ctx.quality_score !== null ? { quality_score: ctx.quality_score } : {}),
      })),
      note: `Catalog datasets stored at ${location}.`,
    },
  };
}

/** `tuning.rules.warn_on_deprecated`: a deprecated table's result says so, with the catalog's note. */
export function deprecationWarning(tables: ReadonlyArray<{ written: string; ctx: TableContext }>): Block | undefined {
  const deprecated = tables.filter((t) => t.ctx.deprecation?.deprecated);
  if (!deprecated.length) return undefined;
  return {
    deprecation_warning: deprecated.map((t) => ({
      table: t.written,
      urn: t.ctx.urn,
      message: `Table ${t.written} is deprecated in the catalog${t.ctx.deprecation?.note ? `: ${t.ctx.deprecation.note}` : ''}. Prefer its replacement.`,
      ...(t.ctx.deprecation?.decommission_date ? { decommission_date: t.ctx.deprecation.decommission_date } : {}),
    })),
  };
}

/** `tuning.rules.quality_threshold`: tables whose quality score is below it carry a note. */
export function qualityNote(tables: ReadonlyArray<{ written: string; ctx: TableContext }>, threshold: number): Block | undefined {
  const low = tables.filter((t) => t.ctx.quality_score !== null && t.ctx.quality_score < threshold);
  if (!low.length) return undefined;
  return {
    quality_note: low.map((t) => ({
      table: t.written,
      urn: t.ctx.urn,
      quality_score: t.ctx.quality_score,
      threshold,
      message: `Table ${t.written} has quality score ${t.ctx.quality_score}, below ${threshold}: check its results before relying on them.`,
    })),
  };
}

/** `tuning.rules.require_datahub_check`: the static tip on query tool results (document 1; toolkits.md 6.2). */
export const CATALOG_CHECK_TIP =
  'Tip: look the tables up in the catalog first (catalog_get_entity, catalog_get_schema) for their descriptions, owners, tags and glossary terms.';
export const catalogCheckHint = (): Block => ({ catalog_check_hint: CATALOG_CHECK_TIP });

/** Said when the catalog did not answer in time: the result goes out without its context. */
export const enrichmentTimeoutNote = (family: string, timeoutMs: number): Block => ({
  enrichment_note: `Catalog context omitted: the ${family} enrichment did not finish within ${timeoutMs} ms. The result itself is complete.`,
});
