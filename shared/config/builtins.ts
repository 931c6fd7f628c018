/**
 * Values the spec calls "built-in" (server name, portal title, workflow gating
 * messages). They live here so the config defaults and the code that uses them
 * share one definition.
 */

export const BUILTIN_SERVER_NAME = 'agent-data-platform';

export const BUILTIN_PORTAL_TITLE = 'Data Platform';

/** Standard gating warning (spec document 1, workflow.warning_message; shape in toolkits.md 6.2). */
export const BUILTIN_WORKFLOW_WARNING =
  '⚠️ REQUIRED: call a discovery tool (catalog search, schema or entity lookup) before querying. ' +
  'Discovery tells you the business context of the data (descriptions, owners, tags, glossary terms), ' +
  'without which query results are easily misread.';

/** Escalated gating message; `{count}` is replaced by the number of queries run without discovery. */
export const BUILTIN_WORKFLOW_ESCALATION =
  '🛑 MANDATORY: no discovery tool has been called yet in this session ({count} queries without discovery). ' +
  'Call a discovery tool now before running more queries: querying without business context produces ' +
  'wrong results and may violate data-use policy.';

/** The built-in MCP App that needs no assets_path. */
export const BUILTIN_MCP_APP = 'platform-info';
