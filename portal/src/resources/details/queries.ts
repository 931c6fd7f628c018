/**
 * The details page's server state. Every key of one resource starts with ['resource', id], so a
 * change to the file refreshes all of them at once; other pages' lists and folder facets are
 * refreshed too (a move or delete changes what they show).
 */
import { useMemo } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Answer } from '../../api/types';

export type Version = Answer<'listResourceVersions'>['items'][number];
export type Writer = Answer<'listResourceWriters'>['items'][number];
export type Usage = Answer<'getResourceUsage'>;
export type UsedBy = Answer<'listResourceDependents'>;
export type MoveTargets = Answer<'listResourceMoveTargets'>;

const path = (id: string) => ({ params: { path: { id } } });

export function useResource(id: string) {
  return useQuery({ queryKey: ['resource', id], queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}', path(id))) });
}

export function useVersions(id: string) {
  return useQuery({ queryKey: ['resource', id, 'versions'], queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}/versions', path(id))).items });
}

export function useWriters(id: string) {
  return useQuery({ queryKey: ['resource', id, 'writers'], queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}/writers', path(id))).items });
}

export function useUsage(id: string) {
  return useQuery({ queryKey: ['resource', id, 'usage'], queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}/usage', path(id))) });
}

export function useUsedBy(id: string) {
  return useQuery({ queryKey: ['resource', id, 'used-by'], queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}/used-by', path(id))) });
}

/** The top-level folders' names (a persona's display name), by library text; empty until known. */
export function useLibraryNames(): ReadonlyMap<string, string> {
  const folders = useQuery({
    queryKey: ['resources-libraries'],
    queryFn: async () => unwrap(await api.GET('/api/v1/resources/libraries')).folders,
    staleTime: 5 * 60_000,
  });
  return useMemo(() => new Map((folders.data ?? []).flatMap((f) => (f.kind === 'people' ? [] : [[f.library, f.name] as const]))), [folders.data]);
}

/** Where the file may move (the libraries the api offers; people are searched apart). */
export function useMoveTargets(id: string) {
  return useQuery({
    queryKey: ['resource', id, 'move-targets'],
    queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}/move-targets', { params: { path: { id }, query: { limit: 1 } } })).libraries,
  });
}

const keptAcrossChanges = new Set(['session', 'portal-settings']);

/** After a write to the file: everything about it and every listing or facet that may show it. */
export function refreshAfterChange(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => !keptAcrossChanges.has(String(query.queryKey[0])) });
}
