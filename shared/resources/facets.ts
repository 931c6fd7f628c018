/**
 * Folder facets as a pure aggregation: per-folder file counts and last changes (rows of
 * `resource_folder_stats`) rolled up to every ancestor, folder rows (which may be empty), and the
 * libraries the caller may list (present even with nothing in them); narrowed to a subtree and a
 * number of levels beneath it, so the portal loads the tree as folders open.
 */
import { folderAndAncestors, isWithin } from './folders.js';
import { formatLibrary, formatLibraryPath } from './library.js';
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

function levelsOf(path: string): number {
  return path === '' ? 0 : path.split('/').length;
}

/** The level of a folder of the answer within the scope, or undefined when outside it. */
function levelIn(scope: FacetScope, path: string): number | undefined {
  if (!scope.library) return 1 + levelsOf(path);
  if (!isWithin(path, scope.folderPath)) return undefined;
  return levelsOf(path) - levelsOf(scope.folderPath);
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
  const id = (library: Library, path: string) => `${formatLibraryPath(library, '')}\u0000${path}`;
  const entry = (library: Library, path: string): Acc => {
    let acc = entries.get(id(library, path));
    if (!acc) {
      acc = { library, path, count: 0, direct: 0, last: null, description: '' };
      entries.set(id(library, path), acc);
    }
    return acc;
  };
  // First every folder that exists: a library, a folder row (and its ancestors, recorded together;
  // listed even if a row is missing), a folder files are filed in.
  for (const library of libraries) entry(library, '');
  for (const f of folders) {
    entry(f.library, '');
    for (const p of folderAndAncestors(f.path)) entry(f.library, p);
    entry(f.library, f.path).description = f.description;
  }
  for (const c of counts) {
    if (c.count <= 0) continue;
    for (const p of ['', ...folderAndAncestors(c.folderPath)]) entry(c.library, p);
  }
  // Then counts and changes roll up to every ancestor that exists: a folder whose files all went
  // (count 0) still dates the last change of its ancestors.
  for (const c of counts) {
    const direct = entries.get(id(c.library, c.folderPath));
    if (direct) direct.direct += c.count;
    for (const p of ['', ...folderAndAncestors(c.folderPath)]) {
      const acc = entries.get(id(c.library, p));
      if (!acc) continue;
      acc.count += c.count;
      if (c.lastChanged && (!acc.last || c.lastChanged > acc.last)) acc.last = c.lastChanged;
    }
  }
  return [...entries.values()]
    .filter((a) => {
      const level = levelIn(scope, a.path);
      return level !== undefined && (scope.depth === undefined || level <= scope.depth);
    })
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
