/**
 * Cross-enrichment carries one family's data into another family's results, so it must not become a
 * way around persona rules: a caller gets a family's context only when it may call at least one of
 * that family's tools. A family that offers no tools at all (a catalog configured only as the
 * semantic provider) is the operator's choice to share and reaches everyone who gets results.
 */
import type { CallerContext } from '../identity/index.js';
import type { ToolAccess, ToolDefinition } from '../mcp-tools/index.js';

export type Family = 'sql' | 'catalog' | 'objstore';

export function familyReach(tools: readonly ToolDefinition[], access: ToolAccess): (family: Family, caller: CallerContext) => boolean {
  const byFamily = new Map<Family, ToolDefinition[]>((['sql', 'catalog', 'objstore'] as const).map((f) => [f, tools.filter((t) => t.toolkit === f)]));
  return (family, caller) => {
    const ofFamily = byFamily.get(family) ?? [];
    return ofFamily.length === 0 || ofFamily.some((t) => access.mayUse(t, caller));
  };
}
