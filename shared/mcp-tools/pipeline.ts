import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallerContext } from '../identity/index.js';
import type { ToolRegistry } from './registry.js';
import { toolError, type CallToolResult, type ToolCallContext, type ToolDefinition } from './tool.js';
import { allowDenyFilter } from './globs.js';
import { describeTool, namedTools, withoutUnofferedTools } from './descriptions.js';
import { ProtocolError, protocolErrorCodes } from './protocol-error.js';

export interface IconSetting {
  src: string;
  mime_type?: string;
}

/** The listing rules of spec document 1 ("tools, elicitation, icons"). They shape tools/list only. */
export interface ToolListingRules {
  allow: readonly string[];
  deny: readonly string[];
  descriptionOverrides: Readonly<Record<string, string>>;
  /** Present when `icons.enabled`. */
  icons?: Readonly<Record<string, IconSetting>>;
  /** A tool's `_meta` in the listing (the MCP App it surfaces; shared/mcp-apps). */
  toolMeta?: (tool: string) => Record<string, unknown> | undefined;
}

/** Who may see and call which tool. The persona layer (identity issue) provides the real one. */
export interface ToolAccess {
  mayUse(tool: ToolDefinition, caller: CallerContext): boolean;
  /** Extra text appended to a tool's description for this caller (persona hints). */
  hint?(tool: ToolDefinition, caller: CallerContext): string | undefined;
  /** The caller's active persona name, for audit and platform_info. */
  personaOf?(caller: CallerContext): string | undefined;
}

export const allowAllTools: ToolAccess = { mayUse: () => true };

export interface ToolInvocation {
  tool: ToolDefinition;
  args: Record<string, unknown>;
  ctx: ToolCallContext;
}

/**
 * A call refused before any middleware ran: `unavailable` (an unknown tool, or one the caller may
 * not use) or `invalid_arguments` (the input schema rejected them). `tool` is set when the name is
 * a registered tool, whether or not the caller may use it, so its content arguments are known.
 */
export interface ToolRefusal {
  name: string;
  rawArgs: unknown;
  ctx: ToolCallContext;
  tool?: ToolDefinition;
  reason: 'unavailable' | 'invalid_arguments';
  /** What the caller was told. */
  message: string;
}

/** Told about every refused call (the audit log records them). */
export type ToolRefusalHook = (refusal: ToolRefusal) => void;

/** A step around a tool call (workflow gating, elicitation, audit): call `next` to continue. */
export type ToolMiddleware = (call: ToolInvocation, next: () => Promise<CallToolResult>) => Promise<CallToolResult>;

export function toMcpIcons(icon: IconSetting | undefined): Tool['icons'] {
  return icon ? [{ src: icon.src, ...(icon.mime_type ? { mimeType: icon.mime_type } : {}) }] : undefined;
}

interface InputSchema {
  schema: Tool['inputSchema'];
  /** The platform tools its argument descriptions name. */
  names: string[];
}

const inputSchemaCache = new WeakMap<z.ZodObject, InputSchema>();

/** The tool's input schema; argument descriptions keep no sentence naming a tool the caller is not offered. */
function inputSchemaOf(tool: ToolDefinition, offered: ReadonlySet<string>): Tool['inputSchema'] {
  let cached = inputSchemaCache.get(tool.input);
  if (!cached) {
    const schema = z.toJSONSchema(tool.input, { io: 'input', target: 'draft-2020-12' }) as Tool['inputSchema'];
    cached = { schema, names: namedTools(JSON.stringify(schema)) };
    inputSchemaCache.set(tool.input, cached);
  }
  if (cached.names.every((name) => offered.has(name))) return cached.schema;
  return JSON.parse(JSON.stringify(cached.schema), (key: string, value: unknown) =>
    key === 'description' && typeof value === 'string' ? withoutUnofferedTools(value, offered) || undefined : value,
  ) as Tool['inputSchema'];
}

/**
 * tools/list for one caller: listing rules, then the caller's access, with descriptions and icons
 * applied. A description (override, persona hint and argument descriptions included) keeps no
 * sentence naming a tool the caller is not offered.
 */
export function listTools(registry: ToolRegistry, rules: ToolListingRules, access: ToolAccess, caller: CallerContext): Tool[] {
  const listed = allowDenyFilter(rules.allow, rules.deny);
  const offeredTools = registry.all().filter((tool) => listed(tool.name) && access.mayUse(tool, caller));
  const offered = new Set(offeredTools.map((tool) => tool.name));
  return offeredTools.map((tool) => {
    const hint = access.hint?.(tool, caller);
    const description = describeTool(tool.name, tool.description, rules.descriptionOverrides, offered);
    const icons = rules.icons ? toMcpIcons(rules.icons[tool.name]) : undefined;
    const meta = rules.toolMeta?.(tool.name);
    return {
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: withoutUnofferedTools(hint ? `${description}\n\n${hint}` : description, offered),
      inputSchema: inputSchemaOf(tool, offered),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      ...(icons ? { icons } : {}),
      ...(meta ? { _meta: meta } : {}),
    };
  });
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/**
 * tools/call. An unknown tool, and one the caller may not use, is a JSON-RPC error -32602 (the
 * request names nothing the caller can call; MCP "tools" error handling); invalid arguments to a
 * known tool are a tool error (a result with isError) the model can correct. Both are reported to
 * `onRefused`. Handler exceptions become tool errors too — their message only, never a stack.
 */
export async function invokeTool(opts: {
  registry: ToolRegistry;
  access: ToolAccess;
  middlewares: readonly ToolMiddleware[];
  name: string;
  rawArgs: unknown;
  ctx: ToolCallContext;
  onRefused?: ToolRefusalHook;
}): Promise<CallToolResult> {
  const tool = opts.registry.get(opts.name);
  const refuse = (reason: ToolRefusal['reason'], message: string): void =>
    opts.onRefused?.({ name: opts.name, rawArgs: opts.rawArgs, ctx: opts.ctx, ...(tool ? { tool } : {}), reason, message });
  // A tool the caller may not use answers exactly like one that does not exist.
  if (!tool || !opts.access.mayUse(tool, opts.ctx.caller)) {
    const message = `Unknown tool: ${opts.name}`;
    refuse('unavailable', message);
    throw new ProtocolError(protocolErrorCodes.invalidParams, message);
  }
  const parsed = tool.input.safeParse(opts.rawArgs ?? {});
  if (!parsed.success) {
    const message = `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error)}`;
    refuse('invalid_arguments', message);
    return toolError(message);
  }
  const invocation: ToolInvocation = { tool, args: parsed.data as Record<string, unknown>, ctx: opts.ctx };
  const run = (index: number): Promise<CallToolResult> => {
    const middleware = opts.middlewares[index];
    if (!middleware) return tool.handler(invocation.args, invocation.ctx);
    return middleware(invocation, () => run(index + 1));
  };
  try {
    return await run(0);
  } catch (error) {
    opts.ctx.log.warn({ err: error, tool: tool.name }, 'tool call failed');
    return toolError(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
