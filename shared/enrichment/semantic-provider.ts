/**
 * The semantic provider (`semantic.provider: catalog`, `semantic.instance`): the catalog's context of
 * a query-engine table, of a dataset URN, datasets at a storage location, and glossary terms. Every
 * family's enrichment, the PII consent trigger and the enrichment resources read the catalog through
 * it, so each lookup is cached once (`semantic.cache.*`) and its text sanitised once.
 */
import type { PiiTagProvider } from '../sql/index.js';
import type { DatasetHit, QualifiedTable, TableContext } from './types.js';

export interface GlossaryTermContext {
  urn: string;
  name: string;
  description?: string;
  parent_node?: string;
  related_terms?: Array<{ urn: string; name: string; relation_type: string }>;
}

export interface SemanticProvider {
  /** The URN a query-engine table has in the catalog (`semantic.urn_mapping`). */
  urnOf(table: QualifiedTable): string;
  /** The platform SQL tables are catalogued under (`semantic.urn_mapping.platform`). */
  readonly platform: string;
  /** A query-engine table's context; undefined when the catalog does not know it. */
  tableContext(table: QualifiedTable, signal: AbortSignal): Promise<TableContext | undefined>;
  /** A dataset's context by URN; undefined when the catalog does not know it. */
  datasetContext(urn: string, signal: AbortSignal): Promise<TableContext | undefined>;
  /** Datasets of `platform` the catalog finds for `query` (at most `limit`). */
  searchDatasets(query: string, opts: { platform: string; limit: number }, signal: AbortSignal): Promise<DatasetHit[]>;
  /** A glossary term by URN; undefined when the catalog does not know it. */
  glossaryTerm(urn: string, signal: AbortSignal): Promise<GlossaryTermContext | undefined>;
}

/**
 * The PII consent trigger's tag source (shared/sql/elicitation.ts): the catalog's tags on the
 * columns of the tables a query reads. A table the catalog does not know has none.
 */
export function catalogPiiTags(provider: SemanticProvider): PiiTagProvider {
  return {
    async columnTags(tables, { signal }) {
      const contexts = await Promise.all(tables.map(async (table) => ({ table, ctx: await provider.tableContext(table, signal) })));
      return contexts.flatMap(({ table, ctx }) => (ctx ? ctx.columns.map((c) => ({ table, column: c.name, tags: c.tags })) : []));
    },
  };
}
