/**
 * Folder facets as a pure aggregation: per-folder file counts and last changes (rows of
 * `resource_folder_stats`) rolled up to every ancestor, folder rows (which may be empty), and the
 * libraries the caller may list (present even with nothing in them); narrowed to a subtree and a
 * number of levels beneath it, so the portal loads the tree as folders open.
 */
import { folderAndAncestors, isWithin } from './folders.js';
import { formatLibrary, formatLibraryPath, sameLibrary } from './library.js';
import type { FolderFacet, Library } from './types.js';

export interface FolderCount {
  library: Library;
  /** Folder the files are filed in directly ('' = library root). */
  folderPath: string;
  /** Files filed there now (0 once its files were removed or moved away). */
  count: number;
  /** Last file written into, removed from or moved out of the folder; null when none ever was. */
  lastChanged: Date | null;
}

export interface FolderRow {
  library: Library;
  path: string;
  description: string;
}

/**
 * What the answer is narrowed to. `library` absent: the root of all libraries (its levels: 1 = the
 * libraries, 2 = their top folders, …). Otherwise the folder `folderPath` of `library` ('' = the
 * library's root), its own entry at level 0. `depth` absent: every level.
 */
export interface FacetScope {
  library?: Library;
  folderPath: string;
  depth?: number;
}

const everything: FacetScope = { folderPath: '' };

/** How many folder names a folder path has ('' = a library root: 0). */
export function levelsOf(path: string): number {
  return path === '' ? 0 : path.split('/').length;
}

/**
 * The folders a row at `path` of `library` counts in that the answer shows, with their place in
 * the chain ('' first): its own and its ancestors', within the scope and no deeper than its depth.
 * A row outside the scope shows nowhere.
 */
function shownChain(scope: FacetScope, library: Library, path: string, chains: Map<string, string[]>): string[] {
  if (scope.library && (!sameLibrary(library, scope.library) || !isWithin(path, scope.folderPath))) return [];
  let chain = chains.get(path);
  if (!chain) {
    chain = ['', ...folderAndAncestors(path)];
    chains.set(path, chain);
  }
  // chain[i] has i folder names: at level i + 1 beneath the root of all libraries, or i minus the
  // scope folder's own names beneath it.
  const first = scope.library ? levelsOf(scope.folderPath) : 0;
  const last = scope.depth === undefined ? chain.length - 1 : Math.min(chain.length - 1, first + scope.depth - (scope.library ? 0 : 1));
  return chain.slice(first, last + 1);
}

export function buildFacets(
  libraries: readonly Library[],
  folders: readonly FolderRow[],
  counts: readonly FolderCount[],
  scope: FacetScope = everything,
): FolderFacet[] {
  interface Acc {
    library: Library;
    path: string;
    count: number;
    direct: number;
    last: Date | null;
    description: string;
  }
  const entries = new Map<string, Acc>();
  const chains = new Map<string, string[]>();
  const idOf = (library: Library) => formatLibraryPath(library, '');
  const entry = (library: Library, libraryId: string, path: string): Acc => {
    let acc = entries.get(`${libraryId}\u0000${path}`);
    if (!acc) {
      acc = { library, path, count: 0, direct: 0, last: null, description: '' };
      entries.set(`${libraryId}\u0000${path}`, acc);
    }
    return acc;
  };
  // First every folder shown that exists: a library, a folder row (and its ancestors, recorded
  // together; listed even if a row is missing), a folder files are filed in.
  for (const library of libraries) for (const p of shownChain(scope, library, '', chains)) entry(library, idOf(library), p);
  for (const f of folders) {
    const libraryId = idOf(f.library);
    for (const p of shownChain(scope, f.library, f.path, chains)) entry(f.library, libraryId, p);
    const own = entries.get(`${libraryId}\u0000${f.path}`);
    if (own) own.description = f.description;
  }
  for (const c of counts) {
    if (c.count <= 0) continue;
    const libraryId = idOf(c.library);
    for (const p of shownChain(scope, c.library, c.folderPath, chains)) entry(c.library, libraryId, p);
  }
  // Then counts and changes roll up to every ancestor shown that exists: a folder whose files all
  // went (count 0) still dates the last change of its ancestors.
  for (const c of counts) {
    const libraryId = idOf(c.library);
    const direct = entries.get(`${libraryId}\u0000${c.folderPath}`);
    if (direct) direct.direct += c.count;
    for (const p of shownChain(scope, c.library, c.folderPath, chains)) {
      const acc = entries.get(`${libraryId}\u0000${p}`);
      if (!acc) continue;
      acc.count += c.count;
      if (c.lastChanged && (!acc.last || c.lastChanged > acc.last)) acc.last = c.lastChanged;
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
