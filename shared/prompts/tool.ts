/**
 * The `manage_prompt` agent tool (toolkits §4.1's name and `command` parameter; issue 40): the
 * commands list, get, use, create, update, delete, attach_resource and detach_resource. `use`
 * resolves a prompt by name as prompts/get would (operator, workflow and stored prompts alike) and
 * answers `status: resolved` with the content, its argument specs, the arguments still missing and
 * the attachments. Refusals are tool errors whose text is the service's message and whose
 * structured content is `{error, message, ...details}`.
 */
import { z } from 'zod';
import type { CallerContext } from '../identity/index.js';
import { renderPrompt, type PromptDefinition } from '../mcp-content/index.js';
import { defineTool, jsonResult, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { MAX_ARGUMENTS, MAX_CONTENT_CHARS, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS } from './rules.js';
import { attachmentBlocks, definitionOf } from './serve.js';
import { PROMPT_REFERENCE_PREFIX } from './store.js';
import { PROMPT_SCOPES, PromptError, type PromptActor, type PromptService, type PromptView } from './types.js';

export const MANAGE_PROMPT_TOOL = 'manage_prompt';

export const managePromptCommands = ['list', 'get', 'use', 'create', 'update', 'delete', 'attach_resource', 'detach_resource'] as const;

export interface ManagePromptToolOptions {
  actorOf(caller: CallerContext, sessionId?: string): PromptActor;
  /** The operator and workflow prompts the caller is offered (prompts/list's first part). */
  platformPrompts(caller: CallerContext): readonly PromptDefinition[];
}

function errorResult(code: string, message: string, details?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: message }], structuredContent: { error: code, message, ...details }, isError: true };
}

const argumentSpec = z.object({
  name: z.string().describe('Used as the {name} placeholder in content.'),
  description: z.string().optional(),
  required: z.boolean().optional().describe('Default false.'),
});

const input = z.object({
  command: z.enum(managePromptCommands).describe('The operation.'),
  id: z.string().max(200).optional().describe(`A stored prompt's id (or ${PROMPT_REFERENCE_PREFIX}<id>); instead of name.`),
  name: z.string().max(MAX_NAME_CHARS).optional().describe('The prompt\'s name: on create the new name; otherwise the prompt as you see it (your personal one first, then your persona\'s, then shared).'),
  new_name: z.string().max(MAX_NAME_CHARS).optional().describe('update: rename.'),
  description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
  content: z.string().max(MAX_CONTENT_CHARS).optional().describe('The prompt text; {arg} placeholders are replaced by the arguments of the same name.'),
  arguments: z.array(argumentSpec).max(MAX_ARGUMENTS).optional().describe('Typed arguments, as server.prompts.'),
  scope: z.enum(PROMPT_SCOPES).optional().describe('personal (default: yours), persona (with persona; needs persona-admin:<name>) or shared (platform administrators). On update: move the prompt (refused while an attachment is narrower than the new scope).'),
  persona: z.string().max(200).optional().describe('The persona of scope persona.'),
  reference: z.string().max(1000).optional().describe('attach_resource/detach_resource: the resource, mcp:resource:<id> or its mcp:// address.'),
  position: z.number().int().min(0).optional().describe('attach_resource: where in the order (0 first; default last). Attaching a resource already attached moves it.'),
  args: z.record(z.string(), z.string()).optional().describe('use: argument values by name.'),
});

const description = `Manage prompts and resolve them. Prompts are reusable instructions with {arg} placeholders that may carry managed resources (files) as attachments, served in order as resource links by prompts/get.

Commands:
- list: the prompts you may use: the platform's (operator and workflow prompts) and stored ones (yours, your personas', shared).
- get: one stored prompt (id or name) with its attachments.
- use: resolve a prompt by name (any kind) with args: {status: "resolved", name, content (args substituted), arguments, missing_arguments, attachments, provenance}.
- create: name (lowercase letters, digits, - and _), content, description?, arguments?, scope? (personal | persona + persona | shared).
- update: id or name; new_name, description, content, arguments, scope/persona to move it.
- delete: id or name.
- attach_resource: id or name, reference (mcp:resource:<id>), position?. An attachment must be at least as widely visible as the prompt: a private file only on your personal prompts, a persona's file only on that persona's prompts, a global file anywhere.
- detach_resource: id or name, reference.`;

/** A stored prompt's summary in list answers (no content). */
function summary(p: PromptView) {
  return { id: p.id, name: p.name, description: p.description, kind: 'stored', scope: p.scope, ...(p.persona ? { persona: p.persona } : {}), owner: p.owner.subject, attachments: p.attachments.length, arguments: p.arguments };
}

export function managePromptTool(service: PromptService, opts: ManagePromptToolOptions): ToolDefinition {
  return defineTool({
    name: MANAGE_PROMPT_TOOL,
    toolkit: 'platform',
    title: 'Manage prompts',
    description,
    input,
    contentArguments: ['content'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      const actor = opts.actorOf(ctx.caller, ctx.sessionId);
      /** The stored prompt the call names (id first, else name as the caller sees it). */
      const target = async (): Promise<PromptView> => {
        if (args.id) return service.get(actor, args.id.startsWith(PROMPT_REFERENCE_PREFIX) ? args.id.slice(PROMPT_REFERENCE_PREFIX.length) : args.id);
        if (!args.name) throw new PromptError('invalid', `${args.command} needs id or name`);
        const found = await service.byName(actor, args.name);
        if (!found) throw new PromptError('not_found', `no stored prompt named "${args.name}" that you can see`);
        return found;
      };
      const reference = () => {
        if (!args.reference) throw new PromptError('invalid', `${args.command} needs reference (mcp:resource:<id>)`);
        return args.reference;
      };
      try {
        switch (args.command) {
          case 'list': {
            const platform = opts.platformPrompts(ctx.caller).map((p) => ({ name: p.name, description: p.description ?? '', kind: p.requiresTools ? 'workflow' : 'operator', arguments: p.arguments }));
            const taken = new Set(platform.map((p) => p.name));
            const stored = (await service.list(actor, { filter: 'visible' })).filter((p) => !taken.has(p.name)).map(summary);
            return jsonResult({ prompts: [...platform, ...stored], count: platform.length + stored.length });
          }
          case 'get':
            return jsonResult({ prompt: await target() });
          case 'use': {
            if (!args.name) throw new PromptError('invalid', 'use needs name');
            // Operator and workflow prompts win over a stored prompt of the same name, as on prompts/get.
            const platform = opts.platformPrompts(ctx.caller).find((p) => p.name === args.name);
            const stored = platform ? undefined : await service.byName(actor, args.name);
            if (!platform && !stored) throw new PromptError('not_found', `no prompt named "${args.name}" that you can use`);
            const definition = platform ?? definitionOf(stored!);
            const values = args.args ?? {};
            const missing = definition.arguments.filter((a) => a.required && !values[a.name]).map((a) => a.name);
            // A missing required argument's placeholder stays as written, so the text shows what still needs a value.
            const content = renderPrompt(definition, { ...values, ...Object.fromEntries(missing.map((m) => [m, `{${m}}`])) });
            return jsonResult({
              status: 'resolved',
              name: definition.name,
              description: definition.description ?? '',
              content,
              arguments: definition.arguments,
              missing_arguments: missing,
              attachments: attachmentBlocks(stored?.attachments ?? []),
              provenance: stored
                ? { kind: 'stored', id: stored.id, scope: stored.scope, ...(stored.persona ? { persona: stored.persona } : {}), owner: stored.owner.subject, updated_at: stored.updated_at }
                : { kind: platform!.requiresTools ? 'workflow' : 'operator' },
            });
          }
          case 'create': {
            if (!args.name || args.content === undefined) throw new PromptError('invalid', 'create needs name and content');
            const created = await service.create(actor, {
              name: args.name,
              content: args.content,
              ...(args.description !== undefined ? { description: args.description } : {}),
              ...(args.arguments ? { arguments: args.arguments.map((a) => ({ ...a, required: a.required ?? false })) } : {}),
              ...(args.scope ? { scope: args.scope } : {}),
              ...(args.persona ? { persona: args.persona } : {}),
            });
            return jsonResult({ prompt: created, message: `Created prompt "${created.name}" (${created.scope}${created.persona ? ` ${created.persona}` : ''}).` });
          }
          case 'update': {
            const current = await target();
            const updated = await service.update(actor, current.id, {
              ...(args.new_name !== undefined ? { name: args.new_name } : {}),
              ...(args.description !== undefined ? { description: args.description } : {}),
              ...(args.content !== undefined ? { content: args.content } : {}),
              ...(args.arguments ? { arguments: args.arguments.map((a) => ({ ...a, required: a.required ?? false })) } : {}),
              ...(args.scope ? { scope: args.scope } : {}),
              ...(args.persona ? { persona: args.persona } : {}),
            });
            return jsonResult({ prompt: updated });
          }
          case 'delete': {
            const current = await target();
            await service.delete(actor, current.id);
            return jsonResult({ deleted: true, id: current.id, name: current.name });
          }
          case 'attach_resource': {
            const current = await target();
            return jsonResult({ prompt: await service.attach(actor, current.id, reference(), args.position) });
          }
          case 'detach_resource': {
            const current = await target();
            const ref = reference();
            const attached = current.attachments.find((a) => a.reference === ref || a.resource_id === ref || a.uri === ref);
            if (!attached) throw new PromptError('not_found', `${ref} is not attached to prompt "${current.name}"`);
            return jsonResult({ prompt: await service.detach(actor, current.id, attached.resource_id) });
          }
        }
      } catch (error) {
        if (error instanceof PromptError) return errorResult(error.code, error.message, error.details);
        throw error;
      }
    },
  });
}
