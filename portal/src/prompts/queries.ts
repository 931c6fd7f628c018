/** The prompts page's reads and writes (the REST routes under /api/v1/portal/prompts), through the typed client. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Answer } from '../api/types';

export type Prompt = Answer<'getPrompt'>;
export type Attachment = Prompt['attachments'][number];
export type PromptScope = Prompt['scope'];

const path = (id: string) => ({ params: { path: { id } } });

export function useMyPrompts() {
  return useQuery({ queryKey: ['prompts'], queryFn: async () => unwrap(await api.GET('/api/v1/portal/prompts', { params: { query: { filter: 'mine' } } })).items });
}

export function usePrompt(id: string | undefined) {
  return useQuery({ queryKey: ['prompts', id], enabled: id !== undefined, queryFn: async () => unwrap(await api.GET('/api/v1/portal/prompts/{id}', path(id!))) });
}

/** After a write: the list and the prompt are read again. */
export function useRefreshPrompts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['prompts'] });
}

export interface PromptFields {
  name?: string;
  description?: string;
  content?: string;
  scope?: PromptScope;
  persona?: string;
}

export const promptApi = {
  async create(body: PromptFields & { name: string; content: string }) {
    return unwrap(await api.POST('/api/v1/portal/prompts', { body }));
  },
  async update(id: string, body: PromptFields) {
    return unwrap(await api.PATCH('/api/v1/portal/prompts/{id}', { ...path(id), body }));
  },
  async remove(id: string) {
    const result = await api.DELETE('/api/v1/portal/prompts/{id}', path(id));
    if (!result.response.ok) unwrap(result);
  },
  async attach(id: string, resourceId: string) {
    return unwrap(await api.POST('/api/v1/portal/prompts/{id}/attachments', { ...path(id), body: { resource_id: resourceId } }));
  },
  async detach(id: string, resourceId: string) {
    return unwrap(await api.DELETE('/api/v1/portal/prompts/{id}/attachments/{resourceId}', { params: { path: { id, resourceId } } }));
  },
  async reorder(id: string, resourceIds: string[]) {
    return unwrap(await api.PUT('/api/v1/portal/prompts/{id}/attachments', { ...path(id), body: { resource_ids: resourceIds } }));
  },
};

/** Scope text (`personal`, `persona:<name>`, `shared`) as the fields the routes take. */
export function scopeFields(text: string): { scope: PromptScope; persona?: string } {
  return text.startsWith('persona:') ? { scope: 'persona', persona: text.slice('persona:'.length) } : { scope: text === 'shared' ? 'shared' : 'personal' };
}

export function scopeText(prompt: Pick<Prompt, 'scope' | 'persona'>): string {
  return prompt.scope === 'persona' ? `persona:${prompt.persona ?? ''}` : prompt.scope;
}

/** What a scope is called on the page. */
export function scopeLabel(text: string): string {
  if (text === 'personal') return 'Personal (only you)';
  if (text === 'shared') return 'Shared (everyone)';
  return `Persona ${text.slice('persona:'.length)}`;
}
