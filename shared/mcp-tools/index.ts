export type { ToolDefinition, ToolCallContext, ToolAnnotations, CallToolResult } from './tool.js';
export { defineTool, textResult, jsonResult, toolError } from './tool.js';
export { ToolRegistry } from './registry.js';
export { globMatcher, allowDenyFilter } from './globs.js';
export { builtInDescriptionOverrides, describeTool } from './descriptions.js';
export type { ToolListingRules, ToolAccess, ToolMiddleware, ToolInvocation, IconSetting } from './pipeline.js';
export { listTools, invokeTool, allowAllTools, toMcpIcons } from './pipeline.js';
export type { PlatformIdentity, PersonaSummary } from './platform-info.js';
export { platformInfoTool } from './platform-info.js';
