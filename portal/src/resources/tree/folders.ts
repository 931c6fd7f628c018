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
import { useEffect, useMemo } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Answer, FolderFacet } from '../../api/types';
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

async function fetchFacets(path: string | undefined, depth: number) {
  return unwrap(await api.GET('/api/v1/resources/facets', { params: { query: { ...(path ? { path } : {}), depth } } })).folders;
}

type TopLevelAnswer = Answer<'listTopLevelFolders'>['folders'][number];
type PersonAnswer = Answer<'listPeopleFolders'>['items'][number];

function libraryFolder(f: Exclude<TopLevelAnswer, { kind: 'people' }> | PersonAnswer): LibraryFolder {
  return {
    kind: f.kind,
    name: f.name,
    folder: { library: f.library, path: '' },
    count: f.count,
    direct_count: f.direct_count,
    last_changed_at: f.last_changed_at,
    description: f.description,
    allowed_actions: f.allowed_actions,
  };
}

/**
 * The top-level folders (GET /api/v1/resources/libraries), in the order the api gives them: My
 * Resources, the personas by display name, Global, and People for a platform administrator.
 */
export function useTopFolders() {
  const q = useQuery({
    queryKey: ['folders', 'libraries'],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/resources/libraries')).folders.map(
        (f): TopFolder => (f.kind === 'people' ? { kind: 'people', name: f.name, people: f.people, count: f.count, last_changed_at: f.last_changed_at } : libraryFolder(f)),
      ),
    staleTime: 30_000,
  });
  return { folders: q.data, isPending: q.isPending, error: q.error };
}

/**
 * The folders under People (GET /api/v1/resources/libraries/people, platform administrators):
 * one per person whose resources exist, read when People opens, every page of them.
 */
export function usePeopleFolders(enabled = true) {
  const q = useInfiniteQuery({
    queryKey: ['folders', 'people'],
    enabled,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Answer<'listPeopleFolders'>) => last.next_cursor ?? undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(await api.GET('/api/v1/resources/libraries/people', { params: { query: { limit: 1000, ...(pageParam ? { cursor: pageParam } : {}) } } })),
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const folders = useMemo(() => q.data?.pages.flatMap((p) => p.items).map(libraryFolder), [q.data]);
  return { folders: enabled ? folders : undefined, isPending: q.isPending, error: q.error };
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
      // Folders beneath the library's top level, once each (the facets answer the library's own entry too).
      return [...new Set(facets.map((f) => facetFolder(f).path).filter((p) => p !== ''))].sort();
    },
  });
}
