/**
 * The pure rules of stored prompts: names, limits, arguments, where a scope lives as a resource
 * library, who may do what, and the Attachment rule (spec document 2). Authority is the resources'
 * table (shared/resources authority.ts) applied to the prompt's scope as a library, never a copy:
 *
 * | action                 | rule (resources' row)                                                         |
 * |------------------------|-------------------------------------------------------------------------------|
 * | see (prompts/list/get) | `read` of the scope's library: personal the owner, persona its members, shared everyone |
 * | open by id (REST)      | `dereference`: read, or administer the scope (platform administrators: any)   |
 * | create in a scope      | `add`: own personal scope; persona-admin:<name> for a persona; platform administrators any |
 * | change, delete, attach | `change` with the prompt's creator as uploader: the owner, or an administrator of its scope (spec: "the prompt's owner, or an administrator for shared prompts") |
 * | move to another scope  | change here and `add` there; every attachment must satisfy the Attachment rule in the new scope |
 *
 * Attachment rule: an attachment is at least as widely visible as the prompt: a global resource
 * fits any prompt; a persona resource only prompts for that persona; a private resource only its
 * owner's personal prompts. So the resource's library is global or the prompt's own library.
 */
import {
  formatLibrary,
  may,
  moveCandidates,
  parseLibrary,
  sameLibrary,
  type Library,
  type ResourceAction,
} from '../resources/index.js';
import { PROMPT_SCOPES, PromptError, type PromptActor, type PromptArgument, type PromptScope, type PromptScopeText } from './types.js';

export const MAX_NAME_CHARS = 64;
export const MAX_DESCRIPTION_CHARS = 2000;
export const MAX_CONTENT_CHARS = 64 * 1024;
export const MAX_ARGUMENTS = 20;
export const MAX_ARGUMENT_DESCRIPTION_CHARS = 500;
export const MAX_ATTACHMENTS = 20;
/** Prompts one person may have created (every scope together). */
export const MAX_PROMPTS_PER_OWNER = 500;

const namePattern = /^[a-z0-9][a-z0-9_-]*$/;
/** The placeholder words renderPrompt replaces (shared/mcp-content/prompts.ts). */
const argumentNamePattern = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function promptNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > MAX_NAME_CHARS) return `a prompt name is 1 to ${MAX_NAME_CHARS} characters`;
  if (!namePattern.test(name)) return `prompt name "${name}" breaks the rule: lowercase letters, digits, hyphens and underscores, starting with a letter or digit`;
  return undefined;
}

/** Arguments as server.prompts[].arguments: names usable as `{name}` placeholders, unique, bounded. */
export function normalizeArguments(args: readonly PromptArgument[] | undefined): PromptArgument[] {
  const list = args ?? [];
  if (list.length > MAX_ARGUMENTS) throw new PromptError('invalid', `a prompt has at most ${MAX_ARGUMENTS} arguments`);
  const seen = new Set<string>();
  return list.map((a) => {
    if (!argumentNamePattern.test(a.name) || a.name.length > MAX_NAME_CHARS) {
      throw new PromptError('invalid', `argument name "${a.name}" breaks the rule: a letter or underscore, then letters, digits, underscores or hyphens (at most ${MAX_NAME_CHARS})`);
    }
    if (seen.has(a.name)) throw new PromptError('invalid', `duplicate argument name "${a.name}"`);
    seen.add(a.name);
    const description = a.description?.trim();
    if (description && description.length > MAX_ARGUMENT_DESCRIPTION_CHARS) {
      throw new PromptError('invalid', `argument "${a.name}": a description is at most ${MAX_ARGUMENT_DESCRIPTION_CHARS} characters`);
    }
    return { name: a.name, required: a.required === true, ...(description ? { description } : {}) };
  });
}

export function contentProblem(content: string): string | undefined {
  if (content.trim() === '') return 'the content is required';
  if (content.length > MAX_CONTENT_CHARS) return `the content is at most ${MAX_CONTENT_CHARS} characters`;
  return undefined;
}

export function descriptionProblem(description: string): string | undefined {
  return description.length > MAX_DESCRIPTION_CHARS ? `a description is at most ${MAX_DESCRIPTION_CHARS} characters` : undefined;
}

/** Where a scope lives as a resource library (the key the authority table and the Attachment rule compare). */
export function scopeLibrary(scope: PromptScope, scopeKey: string): Library {
  switch (scope) {
    case 'personal':
      return { kind: 'person', subject: scopeKey };
    case 'persona':
      return { kind: 'persona', name: scopeKey };
    case 'shared':
      return { kind: 'global' };
  }
}

export function formatScope(scope: PromptScope, scopeKey: string): PromptScopeText {
  return scope === 'persona' ? `persona:${scopeKey}` : scope;
}

/**
 * The scope and its key a caller asks for: personal (theirs), persona (with `persona`, a configured
 * persona) or shared. Invalid input is refused naming the accepted forms.
 */
export function requestedScope(actor: PromptActor, scope: PromptScope | undefined, persona: string | undefined): { scope: PromptScope; key: string } {
  const s = scope ?? (persona ? 'persona' : 'personal');
  if (!PROMPT_SCOPES.includes(s)) throw new PromptError('invalid', `scope "${String(s)}" is not one of: ${PROMPT_SCOPES.join(', ')}`);
  if (s !== 'persona') {
    if (persona) throw new PromptError('invalid', `persona is given only with scope persona`);
    return { scope: s, key: s === 'personal' ? actor.subject : '' };
  }
  if (!persona) throw new PromptError('invalid', 'scope persona needs the persona\'s name (persona)');
  if (actor.configuredPersonas && !actor.configuredPersonas.includes(persona)) throw new PromptError('invalid', `persona "${persona}" is not configured`);
  return { scope: s, key: persona };
}

export type PromptAuthorityAction = 'see' | 'open' | 'create' | 'change';

const resourceRow: Record<PromptAuthorityAction, ResourceAction> = { see: 'read', open: 'dereference', create: 'add', change: 'change' };

/** The authority table above: the resources' row for the action, on the scope's library. */
export function mayPrompt(actor: PromptActor, action: PromptAuthorityAction, prompt: { library: Library; owner?: string }): boolean {
  // Anonymous callers share one subject: they own nothing and create nothing.
  if (actor.authType === 'anonymous' && action !== 'see') return false;
  return may(actor, resourceRow[action], { library: prompt.library, ...(prompt.owner !== undefined ? { uploader: prompt.owner } : {}) });
}

/** The scopes a prompt may be moved to by this caller (its own excluded), as scope text. */
export function scopeTargets(actor: PromptActor, current: Library): PromptScopeText[] {
  return moveCandidates(actor)
    .filter((library) => !sameLibrary(library, current) && (library.kind !== 'person' || library.subject === actor.subject))
    .filter((library) => mayPrompt(actor, 'create', { library }))
    .map((library) => (library.kind === 'person' ? 'personal' : library.kind === 'global' ? 'shared' : `persona:${library.name}`));
}

/** The Attachment rule: whether a resource in `resource` may be attached to a prompt in `prompt`. */
export function attachmentFits(resource: Library, prompt: Library): boolean {
  return resource.kind === 'global' || sameLibrary(resource, prompt);
}

/** How wide a library reads: person < persona < global (a move to a wider one is a promotion). */
function width(library: Library): number {
  return library.kind === 'person' ? 0 : library.kind === 'persona' ? 1 : 2;
}

export function narrowerRefusal(resource: { id: string; name: string; library: string }, prompt: Library, moving: Library | undefined): PromptError {
  const where = formatLibrary(prompt);
  const what = `resource "${resource.name}" (mcp:resource:${resource.id}) in ${resource.library} is narrower than`;
  const message = moving
    ? `cannot ${width(moving) > width(prompt) ? 'promote' : 'move'} the prompt to ${promptScopeName(moving)}: ${what} ${promptScopeName(moving)}; detach it first`
    : `cannot attach ${what} the prompt (${promptScopeName(prompt)}): an attachment must be at least as widely visible as the prompt (${where})`;
  return new PromptError('attachment_narrower', message, { resource_id: resource.id, resource_name: resource.name, resource_library: resource.library });
}

function promptScopeName(library: Library): string {
  return library.kind === 'person' ? 'a personal prompt' : library.kind === 'persona' ? `persona ${library.name}` : 'shared';
}

/** The library text a resource answer carries, as a Library. */
export function resourceLibrary(text: string): Library {
  return parseLibrary(text, '');
}
