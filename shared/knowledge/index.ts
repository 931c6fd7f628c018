/**
 * Knowledge capture and apply (issue 40; docs/knowledge.md): insights agents capture about catalog
 * entities (`capture_insight`), reviewed and applied to the catalog by administrators as
 * changesets that roll back (`apply_knowledge`, and the portal's review page over REST).
 */
import type { CatalogConnections } from '../catalog/index.js';
import type { PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import type { CallerContext } from '../identity/index.js';
import type { ToolDefinition } from '../mcp-tools/index.js';
import { isPlatformAdmin } from '../personas/index.js';
import { Changesets } from './changesets.js';
import { InsightStore } from './insights.js';
import { applyKnowledgeTool, captureInsightTool } from './tools.js';

export * from './types.js';
export { InsightStore, KNOWLEDGE_AUDIT_TOOL, allowedDecisions, normalizeInsightText, type ReviewDecision, type ReviewSummary } from './insights.js';
export { Changesets, type ApplyPreview, type ApplyRequest } from './changesets.js';
export { MAX_DESCRIPTION_CHARS } from './changes.js';
export { APPLY_ACTIONS, APPLY_KNOWLEDGE_TOOL, CAPTURE_INSIGHT_TOOL, applyKnowledgeTool, captureInsightTool, knowledgeActor } from './tools.js';

export interface Knowledge {
  insights: InsightStore;
  changesets: Changesets;
  /** capture_insight; apply_knowledge with knowledge.apply.enabled. */
  tools: ToolDefinition[];
  /** Whether the caller may review and apply (a platform administrator). */
  isAdmin(caller: CallerContext): boolean;
}

/** The knowledge services with `knowledge.enabled` and a database; otherwise none (no tool, no route). */
export function createKnowledge(opts: { config: PlatformConfig; db?: Db; catalog?: CatalogConnections }): Knowledge | undefined {
  const { config, db } = opts;
  if (!config.knowledge.enabled || !db) return undefined;
  const insights = new InsightStore({ db, config });
  const changesets = new Changesets({ db, config, catalog: opts.catalog });
  const isAdmin = (caller: CallerContext) => isPlatformAdmin(caller, config.personas, config.admin.persona);
  const tools = [
    captureInsightTool(insights),
    ...(config.knowledge.apply.enabled ? [applyKnowledgeTool(insights, changesets, { isAdmin, adminPersona: config.admin.persona })] : []),
  ];
  return { insights, changesets, tools, isAdmin };
}
