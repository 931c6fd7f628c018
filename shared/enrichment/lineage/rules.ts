/**
 * The pure rules of lineage inheritance (document 1 "Providers, semantic enrichment and URN
 * mapping", toolkits.md 5.9): which kinds a column lacks, how `column_transforms` rename it, which
 * upstream column it matches, and how an upstream column's metadata fills it.
 */
import { globMatcher } from '../../mcp-tools/index.js';
import type { ColumnContext, InheritableField, LineageSettings, Provenance, TableRef } from './types.js';

/** Lineage is followed at most this far whatever `max_hops` says (the spec's range is 1–5). */
export const maxHopsLimit = 5;

/**
 * Upstream datasets read per hop at most: a table fed by hundreds of sources (or a hostile
 * catalog) cannot turn one query into hundreds of catalog reads.
 */
export const maxDatasetsPerHop = 32;

export type ConflictResolution = LineageSettings['conflict_resolution'];

export function hasKind(column: ColumnContext, kind: InheritableField): boolean {
  switch (kind) {
    case 'descriptions':
      return (column.description ?? '').trim() !== '';
    case 'glossary_terms':
      return column.glossary_terms.length > 0;
    case 'tags':
      return column.tags.length > 0;
  }
}

/** The kinds named in `inherit` that the column's own metadata lacks: only these are ever inherited. */
export function missingKinds(column: ColumnContext, inherit: readonly InheritableField[]): InheritableField[] {
  return [...new Set(inherit)].filter((kind) => !hasKind(column, kind));
}

/**
 * The kinds one more upstream column may still add. `nearest`: the kinds still empty (the first
 * hop that has a kind wins). `all`: every open kind keeps merging, except the description, which
 * is one text and stays the nearest one.
 */
export function kindsToFill(column: ColumnContext, open: readonly InheritableField[], mode: ConflictResolution): InheritableField[] {
  return open.filter((kind) => (mode === 'all' && kind !== 'descriptions') || !hasKind(column, kind));
}

/** True when no later source can change the column any more. */
export function settled(column: ColumnContext, open: readonly InheritableField[], mode: ConflictResolution): boolean {
  return kindsToFill(column, open, mode).length === 0;
}

export type ColumnRenamer = (column: string) => string;

/**
 * `column_transforms`: each item whose `target_pattern` glob matches the column path
 * `<table name>.<column>` strips its `strip_prefix` from the name (when the name starts with
 * it), in the order configured. The result is the name looked up upstream.
 */
export function columnRenamer(table: TableRef, transforms: LineageSettings['column_transforms']): ColumnRenamer {
  const compiled = transforms
    .filter((t) => t.strip_prefix !== '')
    .map((t) => ({ matches: globMatcher([t.target_pattern]), prefix: t.strip_prefix }));
  return (column) => {
    const path = `${table.name}.${column}`;
    let name = column;
    for (const t of compiled) {
      if (t.matches(path) && name.startsWith(t.prefix) && name.length > t.prefix.length) name = name.slice(t.prefix.length);
    }
    return name;
  };
}

/** Column names compare without case (catalogs differ in case; SQL engines fold it). */
export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A column of an upstream dataset by name. */
export function findColumn<C extends ColumnContext>(columns: readonly C[], name: string): C | undefined {
  return columns.find((c) => sameName(c.name, name));
}

/** Table-level matching: the same name first, else the name after `column_transforms`. */
export function matchByName(
  name: string,
  renamed: string,
  upstream: readonly ColumnContext[],
): { column: ColumnContext; method: 'name_exact' | 'name_transformed' } | undefined {
  const exact = findColumn(upstream, name);
  if (exact) return { column: exact, method: 'name_exact' };
  if (sameName(renamed, name)) return undefined;
  const transformed = findColumn(upstream, renamed);
  return transformed && { column: transformed, method: 'name_transformed' };
}

/**
 * The target with the given kinds filled from one upstream column. A description fills only an
 * empty one; glossary terms (by URN) and tags are added when not already there. Provenance is
 * recorded per kind, only when something was copied. The target is not modified.
 */
export function inheritFrom<C extends ColumnContext>(
  target: C,
  source: ColumnContext,
  provenance: Provenance,
  kinds: readonly InheritableField[],
): C {
  let next: C = target;
  const record = (kind: InheritableField, change: Partial<ColumnContext>) => {
    const from = next.inherited_from ?? {};
    next = { ...next, ...change, inherited_from: { ...from, [kind]: [...(from[kind] ?? []), provenance] } };
  };
  for (const kind of kinds) {
    if (kind === 'descriptions') {
      const text = source.description?.trim();
      if (text && !hasKind(next, 'descriptions')) record(kind, { description: text });
    } else if (kind === 'glossary_terms') {
      const known = new Set(next.glossary_terms.map((t) => t.urn));
      const added = source.glossary_terms.filter((t) => !known.has(t.urn) && (known.add(t.urn), true));
      if (added.length) record(kind, { glossary_terms: [...next.glossary_terms, ...added] });
    } else {
      const known = new Set(next.tags);
      const added = source.tags.filter((t) => !known.has(t) && (known.add(t), true));
      if (added.length) record(kind, { tags: [...next.tags, ...added] });
    }
  }
  return next;
}

/** The distinct upstream datasets that supplied something to these columns (`inheritance_sources`, toolkits.md 5.2). */
export function inheritanceSources(columns: readonly ColumnContext[]): string[] {
  const urns = columns.flatMap((c) => Object.values(c.inherited_from ?? {}).flatMap((list) => (list ?? []).map((p) => p.urn)));
  return [...new Set(urns)];
}
