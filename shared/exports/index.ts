/**
 * The export tools (spec document 2, "Agent tools", export paragraph; docs/resources.md "Export
 * tools"): sql_export, api_export and graphql_export stream an upstream's answer into a versioned
 * resource through the same core as scripts' platform.export (shared/resources/export.ts).
 */
import type { ToolDefinition } from '../mcp-tools/index.js';
import { apiExportTool } from './api-export.js';
import { graphqlEndpointNames, graphqlExportTool } from './graphql-export.js';
import type { ExportToolsDeps } from './results.js';
import { sqlExportTool } from './sql-export.js';

export type { ExportToolsDeps } from './results.js';
export { GraphqlAnswerScanner, graphqlErrorMessages } from './graphql-answer.js';
export { encodePage, type RowFormat } from './sql-rows.js';
export { upstreamPathProblem, upstreamUrl, upstreamUrlProblem, type UpstreamScope } from './upstream-path.js';
export { upstreamHeaders } from './upstream-http.js';

/** The export tools of what is configured: sql_export with a SQL connection, api_export with an API, graphql_export with a GraphQL endpoint or a catalog. */
export function exportTools(deps: ExportToolsDeps): ToolDefinition[] {
  return [
    ...(deps.sql.connections.size > 0 ? [sqlExportTool(deps)] : []),
    ...(Object.keys(deps.config.toolkits.api).length > 0 ? [apiExportTool(deps)] : []),
    ...(graphqlEndpointNames(deps.config).length > 0 ? [graphqlExportTool(deps)] : []),
  ];
}
