/** The portal's brand and sign-in kind (GET /api/v1/portal/settings), read once per page load. */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

export function usePortalSettings() {
  return useQuery({ queryKey: ['portal-settings'], queryFn: async () => unwrap(await api.GET('/api/v1/portal/settings')), staleTime: Infinity });
}
