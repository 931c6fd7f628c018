/**
 * Prompts (issue 40): prompts people and agents create in a scope (personal, persona, shared) with
 * resources attached in an authored order (spec document 2's Attachment rule), beside the
 * operator's (server.prompts, tuning.prompts_dir) and the auto-registered workflow prompts. The
 * service over Postgres, the reference counter the resource service asks before a delete, the
 * `manage_prompt` tool, and what the MCP surface serves. Surfaces: REST under
 * /api/v1/portal/prompts (api/portal/prompts.ts), MCP prompts/* (api/mcp/server.ts), the tool.
 */
export * from './types.js';
export { createPromptService, PROMPT_REFERENCE_PREFIX, type PromptServiceDeps } from './store.js';
export { promptReferences } from './references.js';
export { managePromptTool, managePromptCommands, MANAGE_PROMPT_TOOL, type ManagePromptToolOptions } from './tool.js';
export { followPromptChanges, publishPromptChange, PROMPT_CHANGES_CHANNEL, type PromptChangeFeed, type PromptChanges } from './change-feed.js';
export { storedPrompts, attachmentBlocks, definitionOf, type StoredPrompts, type PromptContent } from './serve.js';
export { platformPrompts, configuredPrompts, reservedPromptNames, WORKFLOW_PROMPTS } from './platform-prompts.js';
export { loadPromptsDir, parsePromptFile, PromptsDirError } from './prompts-dir.js';
export {
  attachmentFits,
  mayPrompt,
  promptNameProblem,
  scopeLibrary,
  MAX_ARGUMENTS,
  MAX_ATTACHMENTS,
  MAX_CONTENT_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_NAME_CHARS,
  MAX_PROMPTS_PER_OWNER,
} from './rules.js';
