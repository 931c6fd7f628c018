/**
 * Column rules of SQL enrichment (toolkits.md 5.2, 5.3): the PII/sensitive flags of a column, which
 * columns a statement references, and which column blocks a SQL result carries.
 */
import { identifier, tokenize, type Dialect } from '../sql/index.js';
import { isCriticalTag } from './dedup/index.js';
import type { ColumnContext } from './types.js';

const lower = (tags: readonly string[]) => tags.map((t) => t.toLowerCase());

/** `is_pii`: a tag contains `pii`. */
export const isPiiColumn = (c: ColumnContext): boolean => lower(c.tags).some((t) => t.includes('pii'));

/** `is_sensitive`: a tag contains `sensitive` or `confidential`. */
export const isSensitiveColumn = (c: ColumnContext): boolean => lower(c.tags).some((t) => t.includes('sensitive') || t.includes('confidential'));


/** Whether a column has anything worth a block: description, tags, terms or inherited metadata. */
export const hasContent = (c: ColumnContext): boolean =>
  Boolean(c.description) || c.tags.length > 0 || c.glossary_terms.length > 0 || c.inherited_from !== undefined;

/**
 * Every identifier of `sql`, lower-cased: bare words (so each part of a dotted name) and
 * double-quoted identifiers, outside string literals and comments. Undefined when the statement does
 * not lex (then no filtering applies).
 */
export function referencedIdentifiers(sql: string, dialect: Dialect): Set<string> | undefined {
  let tokens;
  try {
    tokens = tokenize(sql, dialect);
  } catch {
    return undefined;
  }
  const names = new Set<string>();
  for (const t of tokens) {
    const name = identifier(t);
    if (name !== undefined) names.add(name);
  }
  return names;
}

/**
 * The columns a SQL result's `column_context` shows (5.3): those the statement names, plus PII,
 * sensitive and otherwise critically tagged ones; all when none of them is named (`SELECT *`);
 * then only those with content. `referenced` undefined means no filtering.
 */
export function columnsForBlock(columns: readonly ColumnContext[], referenced: ReadonlySet<string> | undefined): ColumnContext[] {
  let kept = [...columns];
  if (referenced) {
    const named = columns.filter((c) => referenced.has(c.name.toLowerCase()) || c.tags.some(isCriticalTag));
    if (named.length) kept = named;
  }
  return kept.filter(hasContent);
}
