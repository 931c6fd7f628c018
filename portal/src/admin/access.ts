/**
 * Whether the signed-in person may use the administrators' pages: the api says so (GET
 * /api/v1/admin/access answers 200 to members of admin.persona, 403 to others) — the portal never
 * decides membership itself. Scripts are offered to whoever the scripts route admits (persona
 * allows manage_script); each script's page then shows what the api lets the caller read.
 * Knowledge review to administrators where the api serves it (knowledge.enabled; else 404).
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, unwrap } from '../api/client';

async function answered(request: () => Promise<{ response: Response; error?: unknown; data?: unknown }>): Promise<boolean> {
  try {
    unwrap(await request());
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404)) return false;
    throw error;
  }
}

export function useAdminAccess() {
  return useQuery({ queryKey: ['admin-access'], queryFn: () => answered(() => api.GET('/api/v1/admin/access')), staleTime: 5 * 60_000, retry: 1 });
}

export function useScriptsAccess() {
  return useQuery({ queryKey: ['scripts-access'], queryFn: () => answered(() => api.GET('/api/v1/portal/scripts')), staleTime: 5 * 60_000, retry: 1 });
}

export function useKnowledgeAccess() {
  return useQuery({
    queryKey: ['knowledge-access'],
    queryFn: () => answered(() => api.GET('/api/v1/portal/admin/insights', { params: { query: { limit: 1 } } })),
    staleTime: 5 * 60_000,
    retry: 1,
  });
}
