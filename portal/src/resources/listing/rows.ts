/**
 * The rows of the listing: folders first (subfolders of the open folder, or the top-level folders,
 * or the people under People), then the "files at the top level" row of a library that has such
 * files, then the open folder's files, paged from GET /api/v1/resources as the listing scrolls.
 */
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Answer, Resource } from '../../api/types';
import type { operations } from '../../api/schema';
import type { FolderRef } from '../address';
import type { FolderActions, TopFolder } from '../tree/folders';

export type ListedResource = Answer<'listResources'>['items'][number];
export type Sort = NonNullable<NonNullable<operations['listResources']['parameters']['query']>['sort']>;

export const sorts: readonly Sort[] = ['name', 'name_desc', 'updated', 'updated_asc', 'size', 'size_desc', 'last_read', 'last_read_asc'];

export interface FolderRow {
  type: 'folder';
  key: string;
  name: string;
  /** What it is: a folder of a library, or a top-level folder (library, People). */
  kind: TopFolder['kind'] | 'folder';
  /** Its address. */
  to: string;
  /** The folder, when it is one of a library (People is none). */
  folder?: FolderRef;
  count: number;
  lastChanged: string | null;
  description: string;
  /** The caller's allowed actions there (folders of a library). */
  actions?: FolderActions;
}

export interface TopFilesRow {
  type: 'top-files';
  key: string;
  count: number;
  to: string;
}

export interface FileRow {
  type: 'file';
  key: string;
  resource: ListedResource;
}

export type Row = FolderRow | TopFilesRow | FileRow;

export const fileKey = (id: string) => `file:${id}`;

/** Folders sort as the files do: by name, by when anything beneath last changed, by file count. */
export function sortFolders(rows: FolderRow[], sort: Sort): FolderRow[] {
  const byName = (a: FolderRow, b: FolderRow) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  const byTime = (a: FolderRow, b: FolderRow) => (a.lastChanged ?? '').localeCompare(b.lastChanged ?? '') || byName(a, b);
  const bySize = (a: FolderRow, b: FolderRow) => a.count - b.count || byName(a, b);
  const sorted = [...rows];
  switch (sort) {
    case 'name':
      return sorted.sort(byName);
    case 'name_desc':
      return sorted.sort((a, b) => byName(b, a));
    case 'updated':
    case 'last_read':
      return sorted.sort((a, b) => byTime(b, a));
    case 'updated_asc':
    case 'last_read_asc':
      return sorted.sort(byTime);
    case 'size':
      return sorted.sort(bySize);
    case 'size_desc':
      return sorted.sort((a, b) => bySize(b, a));
  }
}

export const pageSize = 200;

type ListPage = Answer<'listResources'>;

/** The files of a folder (`direct`: filed there; else everything beneath), a page at a time. */
export function useFileList(apiPath: string | undefined, direct: boolean, sort: Sort) {
  return useInfiniteQuery<ListPage, Error, InfiniteData<ListPage>, readonly unknown[], string | undefined>({
    queryKey: ['list', apiPath, direct, sort],
    enabled: apiPath !== undefined,
    initialPageParam: undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.GET('/api/v1/resources', {
          params: { query: { path: apiPath, direct: direct ? 'true' : 'false', sort, limit: pageSize, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
  });
}

/** A resource as the listing holds it, updated from an answer of the by-id routes. */
export function asListed(resource: Resource): ListedResource {
  const { thumbnail: _thumbnail, ...rest } = resource;
  return rest;
}
