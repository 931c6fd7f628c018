/**
 * Configuration: the platform.yaml schema, its loader and duration helpers.
 * The parsed PlatformConfig is passed down to components; nothing reads config
 * from globals or from the environment after loading.
 */
export { ConfigError, defaultConfig, loadConfigFile, parseConfig } from './load.js';
export type { ConfigIssue, LoadedConfig } from './load.js';
export { formatDuration, parseDuration } from './duration.js';
export { auditActive, duckdbPath, objstoreRoot, resourceStoreName } from './helpers.js';
export { configObjectSchema, decodeBase64Key, decodeHmacKey, platformConfigSchema } from './schema.js';
export { serverPrompt as operatorPromptSchema } from './schema-server.js';
export type {
  CatalogInstanceConfig,
  McpAppConfig,
  ObjstoreInstanceConfig,
  PersonaConfig,
  PlatformConfig,
  ResourceIndexRule,
  SqlInstanceConfig,
} from './schema.js';
export type { Env } from './env.js';
export { formatPath } from './paths.js';
export { appTools } from './rules-mcpapps.js';
export {
  BUILTIN_MCP_APP,
  BUILTIN_PORTAL_TITLE,
  BUILTIN_SERVER_NAME,
  BUILTIN_WORKFLOW_ESCALATION,
  BUILTIN_WORKFLOW_WARNING,
} from './builtins.js';
