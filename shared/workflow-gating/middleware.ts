import { globMatcher, type ToolMiddleware } from '../mcp-tools/index.js';
import { gatingNotice, type GatingSettings } from './rules.js';
import type { GatingStore } from './store.js';

/**
 * Workflow gating: a discovery tool marks the session as having looked things up; a query tool
 * called before that gets the warning (then the escalation) prepended to its result.
 * Sessions are keyed by MCP session id, else by caller (stdio, stateless without sessions).
 */
export function workflowGatingMiddleware(settings: GatingSettings, store: GatingStore): ToolMiddleware {
  const isDiscovery = globMatcher(settings.discovery_tools);
  const isQuery = globMatcher(settings.query_tools);
  return async ({ tool, ctx }, next) => {
    const key = ctx.sessionId ?? `caller:${ctx.caller.subject}`;
    if (isDiscovery(tool.name)) {
      await store.markDiscovery(key);
      return next();
    }
    if (!isQuery(tool.name)) return next();
    const state = await store.countQuery(key);
    const result = await next();
    const notice = gatingNotice(state, settings);
    return notice ? { ...result, content: [{ type: 'text', text: notice }, ...result.content] } : result;
  };
}
