/**
 * Prompts people and agents create (issue 40; spec document 2 "Other attachments", Authentication
 * "Attach to a prompt" and the Attachment rule): the shared vocabulary of the domain. The store
 * (store.ts) implements `PromptService`; the REST routes (api/portal/prompts.ts), the
 * `manage_prompt` tool (tool.ts) and the MCP prompts/* methods (serve.ts) call only this interface.
 * The acting caller is a ResourceActor (shared/resources): the same subject, persona membership,
 * persona-admin roles and platform-administrator rule the resources use.
 */
import type { PromptDefinition } from '../mcp-content/index.js';
import type { ResourceActor } from '../resources/index.js';

/** personal: its owner's; persona: for the members of one persona; shared: for every caller. */
export type PromptScope = 'personal' | 'persona' | 'shared';

export const PROMPT_SCOPES: readonly PromptScope[] = ['personal', 'persona', 'shared'];

export type PromptActor = ResourceActor;

export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

/** What the caller may do with a prompt: the rules the service enforces, for a UI to follow. */
export interface PromptActions {
  /** Edit name, description, content, arguments; delete. */
  change: boolean;
  /** Attach, detach and reorder resources (the same rule: the owner, or an administrator of its scope). */
  attach: boolean;
  /** Scopes the prompt may be moved to (before the attachment rule, which the move itself checks). */
  scopes: PromptScopeText[];
}

/** `personal`, `persona:<name>` or `shared`, as routes and the tool take and answer it. */
export type PromptScopeText = string;

/** One resource a prompt carries, as the caller may see it. */
export interface AttachmentView {
  resource_id: string;
  reference: string;
  position: number;
  /** The resource's display name when it was attached (names missing material). */
  name: string;
  /** The resource no longer exists (deleted with force): the prompt reports the material as missing. */
  missing: boolean;
  /** The caller may read the resource; its current name, uri, library and type are given only then. */
  readable: boolean;
  uri?: string;
  library?: string;
  content_type?: string;
  size?: number;
}

export interface PromptView {
  id: string;
  name: string;
  description: string;
  content: string;
  arguments: PromptArgument[];
  scope: PromptScope;
  /** The persona of a persona prompt. */
  persona?: string;
  owner: { subject: string; email?: string };
  created_at: string;
  updated_at: string;
  /** `mcp:prompt:<id>` */
  reference: string;
  attachments: AttachmentView[];
  allowed_actions: PromptActions;
}

export interface CreatePromptInput {
  name: string;
  description?: string;
  content: string;
  arguments?: PromptArgument[];
  scope?: PromptScope;
  persona?: string;
}

export interface UpdatePromptInput {
  name?: string;
  description?: string;
  content?: string;
  arguments?: PromptArgument[];
  /** A scope change (promotion when wider): refused while an attachment would be narrower than the new scope. */
  scope?: PromptScope;
  persona?: string;
}

export interface ListPromptsQuery {
  /** `mine` (default): the prompts the caller created; `visible`: every stored prompt the caller sees (MCP prompts/list). */
  filter?: 'mine' | 'visible';
}

/** A stored prompt as prompts/get serves it: the definition and its attachments for the caller. */
export interface ServedPrompt {
  definition: PromptDefinition;
  attachments: AttachmentView[];
}

export interface PromptService {
  list(actor: PromptActor, query?: ListPromptsQuery): Promise<PromptView[]>;
  get(actor: PromptActor, id: string): Promise<PromptView>;
  /** By name, as the caller sees names (personal first, then persona, then shared). */
  byName(actor: PromptActor, name: string): Promise<PromptView | undefined>;
  create(actor: PromptActor, input: CreatePromptInput): Promise<PromptView>;
  update(actor: PromptActor, id: string, input: UpdatePromptInput): Promise<PromptView>;
  delete(actor: PromptActor, id: string): Promise<void>;
  /** Attaches a resource (by id) at `position` (default: last); attaching one already there moves it. */
  attach(actor: PromptActor, id: string, resourceId: string, position?: number): Promise<PromptView>;
  detach(actor: PromptActor, id: string, resourceId: string): Promise<PromptView>;
  /** The attachments in a new order: every attached resource id exactly once. */
  reorder(actor: PromptActor, id: string, resourceIds: readonly string[]): Promise<PromptView>;
  /** Calls `listener` after every committed change of this process (the MCP surface sends prompts list_changed); answers the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Names this process's writes on the change channel, so its own notifications are told apart (change-feed.ts). */
  readonly changeOrigin: string;
}

export type PromptErrorCode = 'not_found' | 'forbidden' | 'invalid' | 'conflict' | 'attachment_narrower' | 'limit';

export class PromptError extends Error {
  constructor(
    readonly code: PromptErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'PromptError';
  }
}
