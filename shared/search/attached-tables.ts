/**
 * The SQL tables a file is queried through, shown with it in search results (spec document 3: a
 * compacted webhook window "is found by search with the table attached"). Each domain that
 * attaches tables to files answers for its own (shared/tables: registrations; shared/webhooks:
 * compacted windows); search only asks, for the files of one page.
 */

export interface AttachedTable {
  /** The toolkits.sql connection the table is queried on. */
  connection: string;
  /** The table's name, as a query names it. */
  table: string;
}

/** The tables attached to each of `resourceIds` (a file without any is left out). */
export type AttachedTables = (resourceIds: readonly string[]) => Promise<Map<string, AttachedTable[]>>;

/** One lookup answering what each of `lookups` attaches, in their order. */
export function combineAttachedTables(...lookups: AttachedTables[]): AttachedTables {
  return async (resourceIds) => {
    const combined = new Map<string, AttachedTable[]>();
    if (resourceIds.length === 0) return combined;
    for (const answered of await Promise.all(lookups.map((lookup) => lookup(resourceIds)))) {
      for (const [id, tables] of answered) combined.set(id, [...(combined.get(id) ?? []), ...tables]);
    }
    return combined;
  };
}

/** `rows` grouped by file, in their order. */
export function attachedByFile(rows: ReadonlyArray<AttachedTable & { resourceId: string }>): Map<string, AttachedTable[]> {
  const byFile = new Map<string, AttachedTable[]>();
  for (const { resourceId, connection, table } of rows) byFile.set(resourceId, [...(byFile.get(resourceId) ?? []), { connection, table }]);
  return byFile;
}
