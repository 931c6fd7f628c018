/**
 * The folders the tree and the listing show, read from the api:
 *
 * - the top-level folders (spec document 2, "Libraries and top-level folders"): My Resources, one
 *   folder per persona, Global, and for a platform administrator People — never "scope";
 * - the people under People (platform administrators), read when People opens;
 * - one folder's own entry and its subfolders, from the facets route (exact counts and when
 *   anything beneath last changed), loaded when the folder opens in the tree or the listing.
 *
 * Every query key starts with 'folders' so one invalidation refreshes the tree and the listing
 * after an action.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { FolderFacet } from '../../api/types';
import { apiFolderPath, type FolderRef } from '../address';

export type FolderActions = FolderFacet['allowed_actions'];

/** A library shown as a folder: My Resources, a persona, Global, or a person under People. */
export interface LibraryFolder {
  kind: 'personal' | 'persona' | 'global' | 'person';
  /** What the file manager calls it. */
  name: string;
  folder: FolderRef;
  count: number;
  /** Files filed at its top level itself (listed apart: a top-level folder lists folders). */
  direct_count: number;
  last_changed_at: string | null;
  description: string;
  allowed_actions: FolderActions;
}

/** People: one folder per person whose resources exist (platform administrators). */
export interface PeopleFolder {
  kind: 'people';
  name: string;
  people: number;
  count: number;
  last_changed_at: string | null;
}

export type TopFolder = LibraryFolder | PeopleFolder;

/** The folder a facet names (its path is `<library>/<folder path>`, the library percent-encoded). */
export function facetFolder(facet: Pick<FolderFacet, 'library' | 'path'>): FolderRef {
  const slash = facet.path.indexOf('/');
  return { library: facet.library, path: slash < 0 ? '' : facet.path.slice(slash + 1) };
}

function latest(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

async function fetchFacets(path: string | undefined, depth: number) {
  return unwrap(await api.GET('/api/v1/resources/facets', { params: { query: { ...(path ? { path } : {}), depth } } })).folders;
}

function libraryFolder(f: FolderFacet, kind: LibraryFolder['kind'], name: string): LibraryFolder {
  return {
    kind,
    name,
    folder: { library: f.library, path: '' },
    count: f.count,
    direct_count: f.direct_count,
    last_changed_at: f.last_changed_at,
    description: f.description,
    allowed_actions: f.allowed_actions,
  };
}

interface Libraries {
  top: TopFolder[];
  people: LibraryFolder[];
}

/**
 * The libraries at the root of the facets route (depth 1): the caller's own, the personas, Global,
 * and for a platform administrator every person with files (People). Persona folders carry the
 * persona's name until the api names them otherwise.
 */
async function fetchLibraries(ownSubject: string): Promise<Libraries> {
  const facets = await fetchFacets(undefined, 1);
  const own = `person:${ownSubject}`;
  const top: TopFolder[] = [];
  const personas: LibraryFolder[] = [];
  const people: LibraryFolder[] = [];
  let global: LibraryFolder | undefined;
  for (const f of facets) {
    if (f.library === own) top.push(libraryFolder(f, 'personal', 'My Resources'));
    else if (f.library === 'global') global = libraryFolder(f, 'global', 'Global');
    else if (f.library.startsWith('persona:')) personas.push(libraryFolder(f, 'persona', f.library.slice('persona:'.length)));
    else if (f.library.startsWith('person:')) people.push(libraryFolder(f, 'person', f.library.slice('person:'.length)));
  }
  personas.sort((a, b) => a.name.localeCompare(b.name));
  people.sort((a, b) => a.name.localeCompare(b.name));
  top.push(...personas);
  if (global) top.push(global);
  if (people.length > 0) {
    top.push({
      kind: 'people',
      name: 'People',
      people: people.length,
      count: people.reduce((n, p) => n + p.count, 0),
      last_changed_at: people.reduce<string | null>((at, p) => latest(at, p.last_changed_at), null),
    });
  }
  return { top, people };
}

function useLibraries(ownSubject: string) {
  return useQuery({ queryKey: ['folders', 'libraries', ownSubject], queryFn: () => fetchLibraries(ownSubject), staleTime: 30_000 });
}

/** The top-level folders, in the order the file manager shows them. */
export function useTopFolders(ownSubject: string) {
  const q = useLibraries(ownSubject);
  return { folders: q.data?.top, isPending: q.isPending, error: q.error };
}

/** The folders under People (platform administrators): one per person whose resources exist. */
export function usePeopleFolders(ownSubject: string, enabled = true) {
  const q = useLibraries(ownSubject);
  return { folders: enabled ? q.data?.people : undefined, isPending: q.isPending, error: q.error };
}

/** A folder's own entry and its subfolders, each knowing whether it has subfolders of its own. */
export interface FolderContents {
  self: FolderFacet | undefined;
  children: Array<{ facet: FolderFacet; folder: FolderRef; hasChildren: boolean }>;
}

function depthOf(path: string): number {
  return path === '' ? 0 : path.split('/').length;
}

/** Shapes a facets answer of `folder` two levels deep into its entry and its children. */
export function folderContents(folder: FolderRef, facets: FolderFacet[]): FolderContents {
  const level = depthOf(folder.path);
  const self = facets.find((f) => facetFolder(f).path === folder.path);
  const parents = new Set<string>();
  for (const f of facets) {
    const p = facetFolder(f).path;
    if (depthOf(p) === level + 2) parents.add(p.split('/').slice(0, level + 1).join('/'));
  }
  const children = facets
    .map((facet) => ({ facet, folder: facetFolder(facet) }))
    .filter((c) => depthOf(c.folder.path) === level + 1)
    .map((c) => ({ ...c, hasChildren: parents.has(c.folder.path) }))
    .sort((a, b) => (a.folder.path < b.folder.path ? -1 : a.folder.path > b.folder.path ? 1 : 0));
  return { self, children };
}

/** The facets of `folder` two levels deep: its entry, its children, and whether each has children. */
export function useFolderContents(folder: FolderRef | undefined, enabled = true) {
  const path = folder ? apiFolderPath(folder) : '';
  return useQuery({
    queryKey: ['folders', 'facets', path],
    enabled: enabled && folder !== undefined,
    queryFn: async () => folderContents(folder!, await fetchFacets(path, 2)),
    staleTime: 10_000,
  });
}

/** Every folder of a library (for Move to), by path. */
export function useLibraryFolderPaths(library: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ['folders', 'all', library],
    enabled: enabled && library !== undefined,
    queryFn: async () => {
      const facets = unwrap(await api.GET('/api/v1/resources/facets', { params: { query: { path: apiFolderPath({ library: library!, path: '' }) } } })).folders;
      return facets.map((f) => facetFolder(f).path).sort();
    },
  });
}
