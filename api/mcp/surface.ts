import type { PlatformConfig } from '../../shared/config/index.js';
import type { Logger } from '../../shared/logging/index.js';
import { isPlatformAdmin, personaToolAccess } from '../../shared/personas/index.js';
import { auditsToolCalls } from '../../shared/audit/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { memoryGatingStore, workflowGatingMiddleware, type GatingStore } from '../../shared/workflow-gating/index.js';
import { elicitationMiddleware, type ElicitationTrigger } from '../../shared/elicitation/index.js';
import {
  platformInfoTool,
  ToolRegistry,
  type PlatformFeatures,
  type ToolAccess,
  type ToolDefinition,
  type ToolMiddleware,
  type ToolRefusalHook,
} from '../../shared/mcp-tools/index.js';
import { localResourceChanges, type ResourceChangeSource } from '../../shared/resources/index.js';
import type { PromptDefinition, TemplatedResourceSource } from '../../shared/mcp-content/index.js';
import { configuredPrompts, platformPrompts, type StoredPrompts } from '../../shared/prompts/index.js';
import { mcpAppCatalogue, openMcpApps } from '../../shared/mcp-apps/index.js';
import type { McpSurface } from './server.js';
import type { McpResources } from './managed-resources.js';
import { ConnectedServers, listChangeReaches, notifyPromptListChanges, notifyResourceListChanges } from './notifications.js';

/**
 * What the MCP server offers, from configuration: the identity, the tools (platform_info plus
 * whatever toolkits the caller registers), the listing rules, prompts, custom resources and the
 * MCP Apps of `mcpapps.*`.
 */
export function buildMcpSurface(opts: {
  config: PlatformConfig;
  log: Logger;
  tools?: readonly ToolDefinition[];
  /** Replaces persona-based access (tests of other layers). */
  access?: ToolAccess;
  /** Outermost steps (audit), run before gating and elicitation. */
  middlewares?: readonly ToolMiddleware[];
  onRefused?: ToolRefusalHook;
  /** Where workflow-gating state lives; in-process unless sessions are in the database. */
  gatingStore?: GatingStore;
  /**
   * Innermost steps, next to the handler (cross-enrichment): they see only results the handler
   * produced, after gating and elicitation decided.
   */
  innerMiddlewares?: readonly ToolMiddleware[];
  /** Resources generated from URI templates (the enrichment resources of `resources.enabled`). */
  templatedResources?: readonly TemplatedResourceSource[];
  /** Questions toolkits ask before running (cost estimation, PII consent). */
  elicitationTriggers?: readonly ElicitationTrigger[];
  /** Toolkit-instance tool descriptions, under `tools.description_overrides`. */
  descriptionOverrides?: Readonly<Record<string, string>>;
  /**
   * Managed resources (spec document 2): served by resources/list, resources/templates/list and
   * resources/read next to the custom resources; their changes become list_changed notifications
   * to the connected sessions whose callers list them.
   */
  resources?: McpResources;
  /** Where those changes come from: every replica's (the api role's LISTEN feed); else this process's writes. */
  resourceChanges?: ResourceChangeSource;
  /** Runs a batch of list_changed notifications when its window closes (tests hold it). */
  scheduleListChanged?: (send: () => void) => void;
  /** The operator's prompts: server.prompts, then `tuning.prompts_dir`'s (loaded at start-up); default server.prompts alone. */
  operatorPrompts?: readonly PromptDefinition[];
  /** Prompts people and agents stored (shared/prompts), served after the operator and workflow prompts. */
  storedPrompts?: StoredPrompts;
  /** The knowledge review queue's size, for platform_info (with knowledge.apply on). */
  reviewQueue?: () => Promise<{ pending: number; oldest_pending_age_days: number | null; pending_over_30d: number }>;
  /** Whether the platform database is there (audit rows are written only then). */
  hasDatabase?: boolean;
}): McpSurface {
  const { config } = opts;
  const registry = new ToolRegistry();
  const identity = {
    name: config.server.name,
    version: config.server.version,
    tags: config.server.tags,
    ...(config.server.description ? { description: config.server.description } : {}),
    ...(config.server.agent_instructions ? { agent_instructions: config.server.agent_instructions } : {}),
  };
  const personas = personaToolAccess(config.personas);
  // What platform_info reports under `features` (toolkits.md §4.1); the review queue to administrators only.
  const features = async (caller: CallerContext): Promise<PlatformFeatures> => {
    const apply = config.knowledge.apply;
    const queue = opts.reviewQueue && isPlatformAdmin(caller, config.personas, config.admin.persona) ? await opts.reviewQueue() : undefined;
    return {
      semantic_enrichment: config.injection.trino_semantic_enrichment,
      query_enrichment: config.injection.datahub_query_enrichment,
      storage_enrichment: config.injection.s3_semantic_enrichment,
      audit_logging: auditsToolCalls(config) && (opts.hasDatabase ?? false),
      knowledge_capture: registry.get('capture_insight') !== undefined,
      knowledge_apply: {
        enabled: registry.get('apply_knowledge') !== undefined,
        ...(registry.get('apply_knowledge') && apply.datahub_connection ? { datahub_connection: apply.datahub_connection } : {}),
        ...(queue
          ? {
              review_queue: {
                pending: queue.pending,
                ...(queue.oldest_pending_age_days !== null ? { oldest_pending_age_days: queue.oldest_pending_age_days } : {}),
                pending_over_30d: queue.pending_over_30d,
              },
            }
          : {}),
      },
      managed_resources: opts.resources !== undefined,
    };
  };
  registry.register(
    platformInfoTool(identity, () => registry.toolkits(), (caller) => personas.resolve(caller).active, features),
    ...(opts.tools ?? []),
  );
  // Checks the apps' directories and entry files now: missing assets stop the start (ConfigError).
  const apps = mcpAppCatalogue(openMcpApps(config.mcpapps), () => ({ identity, toolkits: registry.toolkits() }));
  const unknownTools = apps.toolNames().filter((name) => !registry.get(name));
  if (unknownTools.length) opts.log.warn({ tools: unknownTools }, 'mcpapps: these tools are not offered by this server, so they surface no app');
  const icons = config.icons.enabled ? config.icons : undefined;
  const middlewares: ToolMiddleware[] = [...(opts.middlewares ?? [])];
  if (config.workflow.require_discovery_before_query) {
    middlewares.push(workflowGatingMiddleware(config.workflow, opts.gatingStore ?? memoryGatingStore(config.sessions.idle_timeout)));
  }
  if (config.elicitation.enabled && opts.elicitationTriggers?.length) middlewares.push(elicitationMiddleware(opts.elicitationTriggers));
  middlewares.push(...(opts.innerMiddlewares ?? []));
  const connected = new ConnectedServers();
  const resources = opts.resources;
  const unsubscribe = resources
    ? notifyResourceListChanges({
        changes: opts.resourceChanges ?? localResourceChanges(resources.service),
        targets: connected,
        reaches: (caller, libraries) => listChangeReaches(personas.mayUseContent(caller), resources.actorOf(caller), libraries),
        log: opts.log,
        ...(opts.scheduleListChanged ? { schedule: opts.scheduleListChanged } : {}),
      })
    : undefined;
  const stored = opts.storedPrompts;
  const unsubscribePrompts = stored
    ? notifyPromptListChanges({
        changes: (listener) => stored.onChange(listener),
        targets: connected,
        // Prompts are served only to callers whose persona allows content (server.ts).
        reaches: (caller) => personas.mayUseContent(caller),
        log: opts.log,
        ...(opts.scheduleListChanged ? { schedule: opts.scheduleListChanged } : {}),
      })
    : undefined;
  return {
    identity,
    registry,
    listing: {
      allow: config.tools.allow,
      deny: config.tools.deny,
      descriptionOverrides: { ...opts.descriptionOverrides, ...config.tools.description_overrides },
      ...(icons ? { icons: icons.tools } : {}),
      toolMeta: apps.toolMeta,
    },
    access: opts.access ?? personas,
    personaPrompts: (caller) => personas.resolve(caller).active?.prompts,
    // Persona-based even when `access` is replaced: prompts and resources have no other gate.
    mayUseContent: (caller) => personas.mayUseContent(caller),
    middlewares,
    ...(opts.onRefused ? { onRefused: opts.onRefused } : {}),
    prompts: platformPrompts(opts.operatorPrompts ?? configuredPrompts(config), new Set(registry.all().map((t) => t.name))),
    ...(opts.storedPrompts ? { storedPrompts: opts.storedPrompts } : {}),
    customResources: config.resources.custom,
    apps,
    ...(opts.templatedResources?.length ? { templatedResources: opts.templatedResources } : {}),
    ...(opts.resources ? { resources: opts.resources } : {}),
    connected,
    close: () => {
      unsubscribe?.();
      unsubscribePrompts?.();
    },
    ...(icons ? { promptIcons: icons.prompts, resourceIcons: icons.resources } : {}),
    log: opts.log,
  };
}

