/** The assets pages' reads and writes (the REST routes under /api/v1/portal/assets), through the typed client. */
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Answer } from '../api/types';

export type AssetList = Answer<'listAssets'>;
export type AssetSummary = AssetList['items'][number];
export type AssetDetail = Answer<'getAsset'>;
export type AssetVersion = Answer<'listAssetVersions'>['items'][number];
export type Share = Answer<'listAssetShares'>['items'][number];
export type CreatedShare = Answer<'createAssetShare'>;
export type Scope = 'mine' | 'shared_with_me';

const path = (id: string) => ({ params: { path: { id } } });

export function useAssetList(scope: Scope, query: string) {
  return useInfiniteQuery({
    queryKey: ['assets', scope, query],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(await api.GET('/api/v1/portal/assets', { params: { query: { scope, ...(query ? { query } : {}), limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // While a new search loads, the last answer stays on the page (no empty flash).
    placeholderData: keepPreviousData,
  });
}

export function useAsset(id: string) {
  return useQuery({ queryKey: ['asset', id], queryFn: async () => unwrap(await api.GET('/api/v1/portal/assets/{id}', path(id))) });
}

export function useAssetVersions(id: string) {
  return useQuery({ queryKey: ['asset', id, 'versions'], queryFn: async () => unwrap(await api.GET('/api/v1/portal/assets/{id}/versions', path(id))).items });
}

export function useAssetShares(id: string, enabled: boolean) {
  return useQuery({ queryKey: ['asset', id, 'shares'], enabled, queryFn: async () => unwrap(await api.GET('/api/v1/portal/assets/{id}/shares', path(id))).items });
}

/** After a write: the asset, its versions and shares, and every list are read again. */
export function useRefreshAsset() {
  const client = useQueryClient();
  return async (id: string) => {
    await Promise.all([client.invalidateQueries({ queryKey: ['asset', id] }), client.invalidateQueries({ queryKey: ['assets'] })]);
  };
}

export const assetApi = {
  async update(id: string, body: { name?: string; description?: string; tags?: string[] }) {
    return unwrap(await api.PATCH('/api/v1/portal/assets/{id}', { ...path(id), body }));
  },
  async remove(id: string) {
    const result = await api.DELETE('/api/v1/portal/assets/{id}', path(id));
    if (!result.response.ok) unwrap(result);
  },
  async restore(id: string, version: number) {
    return unwrap(await api.POST('/api/v1/portal/assets/{id}/versions/{version}/restore', { params: { path: { id, version } } }));
  },
  async share(id: string, body: { expires_in?: string; shared_with_user_id?: string; shared_with_email?: string; hide_expiration?: boolean; notice_text?: string | null }) {
    return unwrap(await api.POST('/api/v1/portal/assets/{id}/shares', { ...path(id), body }));
  },
  async revoke(id: string, shareId: string) {
    return unwrap(await api.DELETE('/api/v1/portal/assets/{id}/shares/{shareId}', { params: { path: { id, shareId } } }));
  },
};

/** What the type is called on the page. */
export function typeLabel(type: string): string {
  const labels: Record<string, string> = {
    'text/markdown': 'Markdown',
    'text/html': 'HTML',
    'text/jsx': 'JSX',
    'image/svg+xml': 'SVG',
    'text/csv': 'CSV',
    'application/json': 'JSON',
    'text/plain': 'Text',
    'image/png': 'PNG',
  };
  return labels[type] ?? type;
}
