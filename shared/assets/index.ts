/**
 * Assets (issue 38): what agents make and people keep and share. The service (Postgres rows, bytes
 * in the portal's object store), the reference counter the resource service asks (Used by, delete
 * counts), the MCP tools save_artifact and manage_asset, and the pure rules. Surfaces: the REST
 * routes under /api/v1/portal/assets and the public viewer (api/portal/), the MCP tools.
 */
export * from './types.js';
export { createAssetService, type AssetServiceDeps } from './service.js';
export { assetReferences } from './references.js';
export { saveArtifactTool, manageAssetTool, assetRefusal, manageAssetActions, SAVE_ARTIFACT_TOOL, MANAGE_ASSET_TOOL, type AssetToolOptions } from './tools.js';
export {
  ASSET_CONTENT_TYPES,
  DEFAULT_NOTICE,
  MAX_ASSET_VERSIONS,
  MAX_DESCRIPTION_CHARS,
  MAX_NAME_CHARS,
  MAX_NOTICE_CHARS,
  MAX_TAGS,
  MAX_TAG_CHARS,
  assetContentType,
  downloadName,
  isTextType,
  isTokenShaped,
  referenceCandidates,
  shownNotice,
  tokenDigest,
  type AssetContentType,
} from './rules.js';
export { sanitiseSvg, MAX_LOGO_BYTES } from './svg.js';
