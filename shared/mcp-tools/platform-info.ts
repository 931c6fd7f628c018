import { z } from 'zod';
import { defineTool, jsonResult, type ToolDefinition } from './tool.js';

/** The server identity of `server.*` that agents read to tell which business this platform serves. */
export interface PlatformIdentity {
  name: string;
  version: string;
  description?: string;
  tags: readonly string[];
  agent_instructions?: string;
}

export function platformInfoTool(identity: PlatformIdentity, enabledToolkits: () => string[]): ToolDefinition {
  return defineTool({
    name: 'platform_info',
    toolkit: 'platform',
    title: 'Platform information',
    description:
      'Describe this data platform: its name, version, what business and domains it serves, operating instructions for agents, ' +
      'and which toolkits are enabled. Call it first to learn the conventions before using other tools.',
    input: z.object({}).strict(),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler() {
      return jsonResult({
        name: identity.name,
        version: identity.version,
        description: identity.description ?? '',
        tags: [...identity.tags],
        agent_instructions: identity.agent_instructions ?? '',
        toolkits: enabledToolkits(),
      });
    },
  });
}
