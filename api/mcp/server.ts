import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { lazyChild, type Logger } from '../../shared/logging/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import {
  invokeTool,
  listTools,
  ProtocolError,
  protocolErrorCodes,
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
  type TemplatedResourceSource,
} from '../../shared/mcp-content/index.js';
import { attachmentBlocks, type StoredPrompts } from '../../shared/prompts/index.js';
import { AppFileError, MCP_APPS_EXTENSION, type McpApps } from '../../shared/mcp-apps/index.js';
import type { ConnectedServers, NotificationTarget } from './notifications.js';
import { directDispatch, setToolCallHandler } from './sdk-dispatch.js';
import { sessionJsonSchemaValidator } from './json-schema-validator.js';
import {
  isManagedResourceUri,
  listManagedResources,
  managedResourceTemplates,
  readManagedResource,
  type McpResources,
} from './managed-resources.js';

/** Everything one MCP server instance offers; shared by every session of the process. */
export interface McpSurface {
  identity: PlatformIdentity;
  registry: ToolRegistry;
  listing: ToolListingRules;
  access: ToolAccess;
  middlewares: readonly ToolMiddleware[];
  /** Sees calls refused before the middleware (the audit log records them as denied). */
  onRefused?: ToolRefusalHook;
  /** Operator prompts (server.prompts, tuning.prompts_dir), then the workflow prompts no operator prompt overrides. */
  prompts: readonly PromptDefinition[];
  /** Prompts people and agents stored (shared/prompts), after those above; names those above take are theirs. */
  storedPrompts?: StoredPrompts;
  customResources: readonly CustomResource[];
  /** The MCP Apps (ui:// resources), listed after the custom resources. */
  apps?: McpApps;
  /** Managed resources (spec document 2), served next to the custom ones when configured. */
  resources?: McpResources;
  /** Resources generated from URI templates (enrichment: schema://, availability://, glossary://). */
  templatedResources?: readonly TemplatedResourceSource[];
  /** Servers connected to a session, for server-initiated notifications (list_changed). */
  connected?: ConnectedServers;
  /** Stops what the surface subscribed to (managed-resource change events). */
  close?: () => void;
  /** Icons for prompts and resources, present when `icons.enabled`. */
  promptIcons?: Readonly<Record<string, IconSetting>>;
  resourceIcons?: Readonly<Record<string, IconSetting>>;
  /** Persona text wrapped around every prompt the caller gets. */
  personaPrompts?: (caller: CallerContext) => { system_prefix?: string; system_suffix?: string } | undefined;
  /** Whether the caller gets prompts and resources at all (a persona that is not the deny-all one). */
  mayUseContent: (caller: CallerContext) => boolean;
  log: Logger;
}

export interface McpSessionInfo {
  /**
   * The caller of a connection that carries no credentials of its own (stdio). HTTP transports
   * leave it out: every request names its caller through the credential it carries (authInfoFor).
   */
  caller?: CallerContext;
  sessionId?: string;
}

/**
 * What an HTTP transport hands the SDK with each request (as `req.auth`); the SDK passes it to the
 * request handlers as `extra.authInfo`. Roles and persona therefore follow the credential of the
 * request being answered, not the one that opened the session.
 */
export function authInfoFor(caller: CallerContext): AuthInfo {
  return { token: '', clientId: caller.subject, scopes: [], extra: { caller } };
}

/** The caller an HTTP transport attached to a message (authInfoFor). */
function messageCaller(extra: { authInfo?: AuthInfo | undefined } | undefined): CallerContext | undefined {
  return extra?.authInfo?.extra?.caller as CallerContext | undefined;
}

/** The request's own caller, else the connection's (stdio); neither is a server fault (fail closed). */
function callerOf(session: McpSessionInfo, extra: { authInfo?: AuthInfo | undefined }): CallerContext {
  const caller = messageCaller(extra) ?? session.caller;
  if (!caller) throw new ProtocolError(protocolErrorCodes.internalError, 'request has no authenticated caller');
  return caller;
}

/**
 * The operator and workflow prompts a caller is offered: a workflow prompt only when the caller may
 * call every tool it names (persona-filtered like the tools themselves).
 */
export function offeredPlatformPrompts(surface: Pick<McpSurface, 'prompts' | 'registry' | 'access'>, caller: CallerContext): PromptDefinition[] {
  return surface.prompts.filter((p) =>
    (p.requiresTools ?? []).every((name) => {
      const tool = surface.registry.get(name);
      return tool !== undefined && surface.access.mayUse(tool, caller);
    }),
  );
}

/** Human answers take time; the SDK's 60 s default would cut people off mid-thought. */
const elicitationTimeoutMs = 10 * 60_000;

/**
 * A server that reports connecting, so the surface can track the sessions it serves, and that
 * remembers the caller of the latest message it received (initialize included): whom the
 * session's server-initiated notifications, which answer no request, may speak to.
 */
class SessionServer extends Server implements NotificationTarget {
  onConnected?: (server: SessionServer, transport: Transport) => void;
  /** Starts as the connection's caller (stdio); HTTP sessions learn theirs from each message. */
  latestCaller: CallerContext | undefined;

  caller(): CallerContext | undefined {
    return this.latestCaller;
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    // Protocol.connect installed its own onmessage; note each message's caller in front of it,
    // and hand checked messages to the protocol's handlers directly (sdk-dispatch.ts).
    const handle = directDispatch(this, transport.onmessage);
    transport.onmessage = (message, extra) => {
      this.latestCaller = messageCaller(extra) ?? this.latestCaller;
      handle?.(message, extra);
    };
    this.onConnected?.(this, transport);
  }
}

/** What every session's server of a surface shares, made once per surface (a session is built per initialize, per request when stateless). */
interface SurfaceStatics {
  info: { name: string; version: string };
  options: ConstructorParameters<typeof Server>[1];
  /** Custom resources and apps: the first entries of every resource listing. */
  customListing: readonly { uri: string }[];
  /** Managed-resource and generated templates, with their icons. */
  resourceTemplates: readonly object[];
}

const staticsOf = new WeakMap<McpSurface, SurfaceStatics>();

function surfaceStatics(surface: McpSurface): SurfaceStatics {
  const known = staticsOf.get(surface);
  if (known) return known;
  const withIcons = <T extends { uri: string }>(r: T) => {
    const icons = toMcpIcons(surface.resourceIcons?.[r.uri]);
    return icons ? { ...r, icons } : r;
  };
  // Icons of templates are keyed by the template URI (spec: "name (or resource template URI)"), else its name.
  const templateWithIcons = <T extends { uriTemplate: string; name: string }>(t: T) => {
    const icons = toMcpIcons(surface.resourceIcons?.[t.uriTemplate] ?? surface.resourceIcons?.[t.name]);
    return icons ? { ...t, icons } : t;
  };
  const apps = surface.apps?.listing() ?? [];
  const statics: SurfaceStatics = {
    info: { name: surface.identity.name, version: surface.identity.version },
    options: {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
        logging: {},
        // SEP-2133 extension negotiation: the server offers MCP Apps (hosts may also just read the tools' _meta).
        ...(apps.length ? { extensions: { [MCP_APPS_EXTENSION]: {} } } : {}),
      },
      // A burst of changes (a batch of writes in one tick) reaches each client as one notification.
      debouncedNotificationMethods: ['notifications/resources/list_changed'],
      // Shared by every session: the SDK would build a validator (an Ajv instance) per Server.
      jsonSchemaValidator: sessionJsonSchemaValidator,
      ...(surface.identity.agent_instructions ? { instructions: surface.identity.agent_instructions } : {}),
    },
    customListing: [
      ...surface.customResources.map((r) => withIcons({ uri: r.uri, name: r.name, description: r.description ?? '', mimeType: r.mime_type })),
      ...apps.map(withIcons),
    ],
    resourceTemplates: [
      ...(surface.resources ? managedResourceTemplates.map(templateWithIcons) : []),
      ...(surface.templatedResources ?? []).flatMap((source) => source.templates.map(templateWithIcons)),
    ],
  };
  staticsOf.set(surface, statics);
  return statics;
}

/**
 * One SDK Server per session (the SDK binds a server to one transport). Handlers are registered on
 * the low-level server so our own pipeline — listing rules, access, middleware — decides every
 * answer instead of the SDK's built-in registry.
 */
export function buildMcpServer(surface: McpSurface, session: McpSessionInfo): Server {
  const statics = surfaceStatics(surface);
  const server = new SessionServer(statics.info, statics.options);
  server.latestCaller = session.caller;
  const connected = surface.connected;
  if (connected) server.onConnected = (s, transport) => connected.track(s, transport);
  const managed = surface.resources;
  // Stateful HTTP learns its session id only after initialize: take it from the request then.
  const actorFor = (resources: McpResources, caller: CallerContext, sessionId: string | undefined) =>
    resources.actorOf(caller, session.sessionId ?? sessionId);

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: listTools(surface.registry, surface.listing, surface.access, callerOf(session, extra)),
  }));

  // Registered on the protocol: Server's wrapper would parse the request again and our result (sdk-dispatch.ts).
  setToolCallHandler(server, async (request, extra) => {
    const caller = callerOf(session, extra);
    const capabilities = server.getClientCapabilities();
    const sessionId = session.sessionId ?? extra.sessionId;
    const persona = surface.access.personaOf?.(caller);
    return invokeTool({
      registry: surface.registry,
      access: surface.access,
      middlewares: surface.middlewares,
      name: request.params.name,
      rawArgs: request.params.arguments,
      ...(surface.onRefused ? { onRefused: surface.onRefused } : {}),
      ctx: {
        caller,
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
        log: lazyChild(surface.log, { tool: request.params.name, session: sessionId }),
      },
    });
  });

  // No persona, no prompts and no resources: the same gate as tools (answers as if there were none).
  const contentFor = (extra: { authInfo?: AuthInfo | undefined }) => {
    const caller = callerOf(session, extra);
    return { caller, allowed: surface.mayUseContent(caller) };
  };

  server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => {
    const { caller, allowed } = contentFor(extra);
    if (!allowed) return { prompts: [] };
    const stored = surface.storedPrompts ? await surface.storedPrompts.list(caller, session.sessionId ?? extra.sessionId) : [];
    return {
      prompts: [...offeredPlatformPrompts(surface, caller), ...stored].map((p) => {
        const icons = toMcpIcons(surface.promptIcons?.[p.name]);
        return {
          name: p.name,
          description: p.description ?? p.name,
          arguments: p.arguments.map((a) => ({ name: a.name, description: a.description ?? a.name, required: a.required })),
          ...(icons ? { icons } : {}),
        };
      }),
    };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { caller, allowed } = contentFor(extra);
    const name = request.params.name;
    const platform = allowed ? offeredPlatformPrompts(surface, caller).find((p) => p.name === name) : undefined;
    const stored = allowed && !platform && surface.storedPrompts ? await surface.storedPrompts.get(caller, name, session.sessionId ?? extra.sessionId) : undefined;
    const prompt = platform ?? stored?.definition;
    if (!prompt) throw new ProtocolError(protocolErrorCodes.invalidParams, `unknown prompt: ${name}`);
    try {
      const framing = surface.personaPrompts?.(caller);
      const text = [framing?.system_prefix, renderPrompt(prompt, request.params.arguments ?? {}), framing?.system_suffix]
        .filter((part) => part)
        .join('\n\n');
      // The attachments follow the text in their authored order, one message each (resource links, or notes for missing material).
      const attachments = attachmentBlocks(stored?.attachments ?? []).map((content) => ({ role: 'user' as const, content }));
      return {
        ...(prompt.description ? { description: prompt.description } : {}),
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }, ...attachments],
      };
    } catch (error) {
      if (error instanceof PromptArgumentError) throw new ProtocolError(protocolErrorCodes.invalidParams, error.message);
      throw error;
    }
  });

  // Custom resources and apps lead the first page; managed resources follow, paged by the MCP cursor.
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const { caller, allowed } = contentFor(extra);
    if (!allowed) return { resources: [] };
    const cursor = request.params?.cursor;
    if (!managed) return { resources: [...statics.customListing] };
    const page = await listManagedResources(managed, actorFor(managed, caller, extra.sessionId), cursor);
    return { ...page, resources: cursor === undefined ? [...statics.customListing, ...page.resources] : page.resources };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_request, extra) => ({
    resourceTemplates: contentFor(extra).allowed ? [...statics.resourceTemplates] : [],
  }));

  // An app whose files cannot be served is the server's fault, named without the server's paths.
  const readApp = async (uri: string) => {
    try {
      return await surface.apps?.read(uri);
    } catch (error) {
      if (error instanceof AppFileError) {
        surface.log.warn({ uri, problem: error.message }, 'an MCP App cannot be served');
        throw new ProtocolError(protocolErrorCodes.internalError, `app ${uri} cannot be served: ${error.message}`);
      }
      throw error;
    }
  };

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    const { caller, allowed } = contentFor(extra);
    if (!allowed) throw new ProtocolError(protocolErrorCodes.resourceNotFound, `resource not found: ${uri}`);
    const resource = surface.customResources.find((r) => r.uri === uri);
    if (!resource) {
      const app = await readApp(uri);
      if (app) return { contents: [app] };
      if (managed && isManagedResourceUri(uri)) return readManagedResource(managed, actorFor(managed, caller, extra.sessionId), uri);
      const generated = surface.templatedResources?.find((source) => source.handles(uri));
      if (generated) {
        try {
          return { contents: [await generated.read(uri, caller, extra.signal)] };
        } catch (error) {
          if (error instanceof ResourceNotFoundError) throw new ProtocolError(protocolErrorCodes.resourceNotFound, error.message);
          throw error;
        }
      }
      throw new ProtocolError(protocolErrorCodes.resourceNotFound, `resource not found: ${uri}`);
    }
    try {
      const text = await readCustomResource(resource);
      return { contents: [{ uri: resource.uri, mimeType: resource.mime_type, text }] };
    } catch (error) {
      if (error instanceof ResourceNotFoundError) throw new ProtocolError(protocolErrorCodes.resourceNotFound, error.message);
      throw error;
    }
  });

  return server;
}
