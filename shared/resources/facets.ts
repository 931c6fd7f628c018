/**
 * Folder facets as a pure aggregation: per-folder file counts (grouped rows from the database)
 * rolled up to every ancestor, folder rows (which may be empty), and the libraries the caller
 * may list (present even with nothing in them).
 */
import { folderAndAncestors } from './folders.js';
import { formatLibrary, formatLibraryPath } from './library.js';
import type { FolderFacet, Library } from './types.js';

export interface FolderCount {
  library: Library;
  /** Folder the files are filed in directly ('' = library root). */
  folderPath: string;
  count: number;
  lastChanged: Date;
}

export interface FolderRow {
  library: Library;
  path: string;
  description: string;
}

export function buildFacets(libraries: readonly Library[], folders: readonly FolderRow[], counts: readonly FolderCount[]): FolderFacet[] {
  interface Acc {
    library: Library;
    path: string;
    count: number;
    direct: number;
    last: Date | null;
    description: string;
  }
  const entries = new Map<string, Acc>();
  const entry = (library: Library, path: string): Acc => {
    const id = `${formatLibraryPath(library, '')}\u0000${path}`;
    let acc = entries.get(id);
    if (!acc) {
      acc = { library, path, count: 0, direct: 0, last: null, description: '' };
      entries.set(id, acc);
    }
    return acc;
  };
  for (const library of libraries) entry(library, '');
  for (const f of folders) {
    entry(f.library, '');
    // A folder row implies its ancestors (they are recorded together); list them even if a row is missing.
    for (const p of folderAndAncestors(f.path)) entry(f.library, p);
    entry(f.library, f.path).description = f.description;
  }
  for (const c of counts) {
    entry(c.library, c.folderPath).direct += c.count;
    for (const p of ['', ...folderAndAncestors(c.folderPath)]) {
      const acc = entry(c.library, p);
      acc.count += c.count;
      if (!acc.last || c.lastChanged > acc.last) acc.last = c.lastChanged;
    }
  }
  return [...entries.values()]
    .map((a) => ({
      path: formatLibraryPath(a.library, a.path),
      library: formatLibrary(a.library),
      count: a.count,
      direct_count: a.direct,
      last_changed_at: a.last ? a.last.toISOString() : null,
      description: a.description,
    }))
    .sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}
