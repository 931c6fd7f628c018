import type { PlatformConfig } from '../shared/config/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { ToolDefinition } from '../shared/mcp-tools/index.js';
import type { ElicitationTrigger } from '../shared/elicitation/index.js';
import { createSqlToolkit } from '../shared/sql/index.js';

/** The configured toolkits' tools and the hooks they add to the MCP surface. */
export interface Toolkits {
  tools: ToolDefinition[];
  elicitationTriggers: ElicitationTrigger[];
  /** Per-instance tool descriptions; `tools.description_overrides` still wins over them. */
  descriptionOverrides: Record<string, string>;
  close(): Promise<void>;
}

export function buildToolkits(config: PlatformConfig, log: Logger): Toolkits {
  const sql = createSqlToolkit(config, { log: log.child({ toolkit: 'sql' }) });
  return {
    tools: [...sql.tools],
    elicitationTriggers: [...sql.elicitationTriggers],
    descriptionOverrides: { ...sql.descriptionOverrides },
    close: () => sql.close(),
  };
}
