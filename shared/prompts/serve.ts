/**
 * Stored prompts on the MCP surface (prompts/list, prompts/get): the prompts a caller sees, and a
 * prompt's messages — its rendered text, then one message per attachment in the authored order: an
 * MCP `resource_link` block for a file the caller may read, a text note for material that was
 * deleted (named as it was when attached) or is not available to the caller (not named).
 */
import type { CallerContext } from '../identity/index.js';
import type { PromptDefinition } from '../mcp-content/index.js';
import type { PromptChanges } from './change-feed.js';
import type { AttachmentView, PromptActor, PromptService, PromptView, ServedPrompt } from './types.js';

/** What the MCP server asks of stored prompts, per caller. */
export interface StoredPrompts {
  list(caller: CallerContext, sessionId?: string): Promise<PromptDefinition[]>;
  get(caller: CallerContext, name: string, sessionId?: string): Promise<ServedPrompt | undefined>;
  /** Calls `listener` after each committed change of stored prompts (every replica's where a change feed is followed); answers the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export function definitionOf(prompt: Pick<PromptView, 'name' | 'description' | 'content' | 'arguments'>): PromptDefinition {
  return {
    name: prompt.name,
    content: prompt.content,
    ...(prompt.description ? { description: prompt.description } : {}),
    arguments: prompt.arguments,
  };
}

/**
 * Stored prompts as the surface serves them; their changes come from `changes` (every replica's),
 * else from this process's service. `reserved`: the operator and workflow prompts' names,
 * which win over a stored prompt of the same name (one stored before the operator took the name).
 * Of stored prompts sharing a name, the caller gets the most specific (personal, persona, shared).
 */
export function storedPrompts(
  service: PromptService,
  opts: { actorOf(caller: CallerContext, sessionId?: string): PromptActor; reserved(): ReadonlySet<string>; changes?: PromptChanges },
): StoredPrompts {
  const changes = opts.changes ?? service;
  return {
    async list(caller, sessionId) {
      const reserved = opts.reserved();
      const seen = new Set<string>();
      const out: PromptDefinition[] = [];
      for (const p of await service.list(opts.actorOf(caller, sessionId), { filter: 'visible' })) {
        if (reserved.has(p.name) || seen.has(p.name)) continue;
        seen.add(p.name);
        out.push(definitionOf(p));
      }
      return out;
    },
    async get(caller, name, sessionId) {
      if (opts.reserved().has(name)) return undefined;
      const prompt = await service.byName(opts.actorOf(caller, sessionId), name);
      return prompt ? { definition: definitionOf(prompt), attachments: prompt.attachments } : undefined;
    },
    onChange: (listener) => changes.onChange(listener),
  };
}

export type PromptContent =
  | { type: 'text'; text: string }
  | { type: 'resource_link'; uri: string; name: string; title?: string; mimeType?: string; size?: number; description?: string };

/** One content block per attachment, in order (prompts/get sends each as a user message). */
export function attachmentBlocks(attachments: readonly AttachmentView[]): PromptContent[] {
  return attachments.map((a, i): PromptContent => {
    if (a.missing) {
      return { type: 'text', text: `Attached material missing: "${a.name}" (${a.reference}) was deleted, so this prompt can no longer provide it.` };
    }
    if (!a.readable || !a.uri) return { type: 'text', text: `Attachment ${i + 1} of this prompt is not available to you.` };
    return {
      type: 'resource_link',
      uri: a.uri,
      name: a.name,
      title: a.name,
      ...(a.content_type ? { mimeType: a.content_type } : {}),
      ...(a.size !== undefined ? { size: a.size } : {}),
      description: `Attachment ${i + 1} of the prompt (${a.reference}); read it with resources/read.`,
    };
  });
}
