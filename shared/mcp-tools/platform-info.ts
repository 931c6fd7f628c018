import { z } from 'zod';
import type { CallerContext } from '../identity/index.js';
import { defineTool, jsonResult, type ToolDefinition } from './tool.js';

/** The server identity of `server.*` that agents read to tell which business this platform serves. */
export interface PlatformIdentity {
  name: string;
  version: string;
  description?: string;
  tags: readonly string[];
  agent_instructions?: string;
}

/** The caller's persona as platform_info shows it: who the agent is acting for and how to behave. */
export interface PersonaSummary {
  name: string;
  display_name?: string;
  description?: string;
  prompts: { system_prefix?: string; system_suffix?: string; instructions?: string };
}

/**
 * What this deployment offers (toolkits.md §4.1 platform_info `features`). `knowledge_apply.review_queue`
 * is shown to those who may work the queue (platform administrators) only.
 */
export interface PlatformFeatures {
  semantic_enrichment: boolean;
  query_enrichment: boolean;
  storage_enrichment: boolean;
  audit_logging: boolean;
  knowledge_capture: boolean;
  knowledge_apply: {
    enabled: boolean;
    datahub_connection?: string;
    review_queue?: { pending: number; oldest_pending_age_days?: number; pending_over_30d?: number };
  };
  managed_resources: boolean;
}

export function platformInfoTool(
  identity: PlatformIdentity,
  enabledToolkits: () => string[],
  personaOf: (caller: CallerContext) => PersonaSummary | undefined = () => undefined,
  featuresOf?: (caller: CallerContext) => Promise<PlatformFeatures>,
): ToolDefinition {
  return defineTool({
    name: 'platform_info',
    toolkit: 'platform',
    title: 'Platform information',
    description:
      'Describe this data platform: its name, version, what business and domains it serves, operating instructions for agents, ' +
      'and which toolkits are enabled. Call it first to learn the conventions before using other tools.',
    input: z.object({}).strict(),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(_args, ctx) {
      const persona = personaOf(ctx.caller);
      const features = await featuresOf?.(ctx.caller);
      return jsonResult({
        name: identity.name,
        version: identity.version,
        description: identity.description ?? '',
        tags: [...identity.tags],
        agent_instructions: identity.agent_instructions ?? '',
        toolkits: enabledToolkits(),
        ...(persona
          ? {
              persona: {
                name: persona.name,
                display_name: persona.display_name ?? persona.name,
                description: persona.description ?? '',
                instructions: persona.prompts.instructions ?? '',
                system_prefix: persona.prompts.system_prefix ?? '',
                system_suffix: persona.prompts.system_suffix ?? '',
              },
            }
          : {}),
        ...(features ? { features } : {}),
      });
    },
  });
}
