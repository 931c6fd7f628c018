import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../shared/logging/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import {
  invokeTool,
  listTools,
  toMcpIcons,
  type IconSetting,
  type PlatformIdentity,
  type ToolAccess,
  type ToolListingRules,
  type ToolMiddleware,
  type ToolRefusalHook,
  type ToolRegistry,
} from '../../shared/mcp-tools/index.js';
import {
  PromptArgumentError,
  ResourceNotFoundError,
  readCustomResource,
  renderPrompt,
  type CustomResource,
  type PromptDefinition,
} from '../../shared/mcp-content/index.js';

/** Everything one MCP server instance offers; shared by every session of the process. */
export interface McpSurface {
  identity: PlatformIdentity;
  registry: ToolRegistry;
  listing: ToolListingRules;
  access: ToolAccess;
  middlewares: readonly ToolMiddleware[];
  /** Sees calls refused before the middleware (the audit log records them as denied). */
  onRefused?: ToolRefusalHook;
  prompts: readonly PromptDefinition[];
  customResources: readonly CustomResource[];
  /** Icons for prompts and resources, present when `icons.enabled`. */
  promptIcons?: Readonly<Record<string, IconSetting>>;
  resourceIcons?: Readonly<Record<string, IconSetting>>;
  /** Persona text wrapped around every prompt the caller gets. */
  personaPrompts?: (caller: CallerContext) => { system_prefix?: string; system_suffix?: string } | undefined;
  log: Logger;
}

export interface McpSessionInfo {
  caller: CallerContext;
  sessionId?: string;
}

/** Human answers take time; the SDK's 60 s default would cut people off mid-thought. */
const elicitationTimeoutMs = 10 * 60_000;

const resourceNotFound = -32002;

/**
 * One SDK Server per session (the SDK binds a server to one transport). Handlers are registered on
 * the low-level server so our own pipeline — listing rules, access, middleware — decides every
 * answer instead of the SDK's built-in registry.
 */
export function buildMcpServer(surface: McpSurface, session: McpSessionInfo): Server {
  const server = new Server(
    { name: surface.identity.name, version: surface.identity.version },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
        logging: {},
      },
      ...(surface.identity.agent_instructions ? { instructions: surface.identity.agent_instructions } : {}),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: listTools(surface.registry, surface.listing, surface.access, session.caller),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const capabilities = server.getClientCapabilities();
    const sessionId = session.sessionId ?? extra.sessionId;
    const persona = surface.access.personaOf?.(session.caller);
    return invokeTool({
      registry: surface.registry,
      access: surface.access,
      middlewares: surface.middlewares,
      name: request.params.name,
      rawArgs: request.params.arguments,
      ...(surface.onRefused ? { onRefused: surface.onRefused } : {}),
      ctx: {
        caller: session.caller,
        ...(persona ? { persona } : {}),
        ...(sessionId ? { sessionId } : {}),
        signal: extra.signal,
        ...(capabilities ? { clientCapabilities: capabilities } : {}),
        ...(capabilities?.elicitation
          ? {
              elicit: (params) =>
                server.elicitInput(params, { relatedRequestId: extra.requestId, timeout: elicitationTimeoutMs }),
            }
          : {}),
        log: surface.log.child({ tool: request.params.name, session: sessionId }),
      },
    });
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: surface.prompts.map((p) => {
      const icons = toMcpIcons(surface.promptIcons?.[p.name]);
      return {
        name: p.name,
        description: p.description ?? p.name,
        arguments: p.arguments.map((a) => ({ name: a.name, description: a.description ?? a.name, required: a.required })),
        ...(icons ? { icons } : {}),
      };
    }),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = surface.prompts.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `unknown prompt: ${request.params.name}`);
    try {
      const framing = surface.personaPrompts?.(session.caller);
      const text = [framing?.system_prefix, renderPrompt(prompt, request.params.arguments ?? {}), framing?.system_suffix]
        .filter((part) => part)
        .join('\n\n');
      return {
        ...(prompt.description ? { description: prompt.description } : {}),
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
      };
    } catch (error) {
      if (error instanceof PromptArgumentError) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: surface.customResources.map((r) => {
      const icons = toMcpIcons(surface.resourceIcons?.[r.uri]);
      return {
        uri: r.uri,
        name: r.name,
        description: r.description ?? '',
        mimeType: r.mime_type,
        ...(icons ? { icons } : {}),
      };
    }),
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = surface.customResources.find((r) => r.uri === request.params.uri);
    if (!resource) throw new McpError(resourceNotFound, `resource not found: ${request.params.uri}`);
    try {
      const text = await readCustomResource(resource);
      return { contents: [{ uri: resource.uri, mimeType: resource.mime_type, text }] };
    } catch (error) {
      if (error instanceof ResourceNotFoundError) throw new McpError(resourceNotFound, error.message);
      throw error;
    }
  });

  return server;
}
