/**
 * The catalog toolkit from configuration: a client per `toolkits.catalog.<instance>`, the read
 * tools, and the write tools unless every instance is read_only. Nothing configured: no tools.
 */
import type { PlatformConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import type { ToolDefinition } from '../mcp-tools/index.js';
import { createCatalogConnections, type CatalogConnections } from './connections.js';
import { catalogReadTools, type PlatformConnectionSummary } from './tools.js';
import { catalogWriteTools } from './tools-write.js';

export interface CatalogToolkit {
  tools: ToolDefinition[];
  connections: CatalogConnections;
  /** Per-instance `descriptions`, to merge under `tools.description_overrides` in the listing rules. */
  descriptionOverrides: Record<string, string>;
}

/** Per-instance `descriptions` in one map: the default instance's text wins, the others fill in. */
export function catalogDescriptionOverrides(config: PlatformConfig): Record<string, string> {
  const names = Object.keys(config.toolkits.catalog).sort();
  const out: Record<string, string> = {};
  for (const name of names.reverse()) Object.assign(out, config.toolkits.catalog[name]?.descriptions ?? {});
  return out;
}

export function createCatalogToolkit(
  config: PlatformConfig,
  deps: { log: Logger; platformConnections?: () => PlatformConnectionSummary[] },
): CatalogToolkit {
  const connections = createCatalogConnections(config, deps);
  const descriptionOverrides = catalogDescriptionOverrides(config);
  if (connections.connections.size === 0) return { tools: [], connections, descriptionOverrides };
  const writable = [...connections.connections.values()].some((c) => !c.config.read_only);
  const tools = [
    ...catalogReadTools({ catalog: connections, descriptions: descriptionOverrides, platformConnections: deps.platformConnections ?? (() => []) }),
    ...(writable ? catalogWriteTools(connections, descriptionOverrides) : []),
  ];
  return { tools, connections, descriptionOverrides };
}
