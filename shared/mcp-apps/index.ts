/**
 * MCP Apps (spec document 1, `mcpapps.*`; the MCP Apps extension, SEP-1865): the built-in
 * platform-info app and custom apps from assets_path, served as ui:// resources, and the `_meta`
 * that links the tools surfacing them. docs/mcp-apps.md.
 */
export { openMcpApps, mcpAppCatalogue, type LoadedMcpApps, type McpApps, type McpAppListing, type McpAppContents, type McpAppCsp } from './apps.js';
export { AppFileError, MAX_APP_FILE_BYTES } from './files.js';
export { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, MAX_APP_DOCUMENT_BYTES, MAX_INLINED_FILES, escapeHtml, injectConfig, scriptSafeJson } from './document.js';
export type { PlatformBrand, PlatformFacts } from './platform-info-page.js';
