/**
 * Managed resources (spec document 2): libraries, folders, versions, addresses and authority.
 * Surfaces (REST routes in api/resources/, the MCP resources/* methods and manage_resource) use
 * `createResourceService` and `resourceActor`; the pure rules are exported for them and for tests.
 */
export * from './types.js';
export { actorOrigin } from './context.js';
export { createResourceService, resourceConnectionName, auditToolOfDoor, MOVE_AUDIT_TOOL, type ResourceServiceDeps } from './service.js';
export { recordPersonEvent } from './audit-trail.js';
export { MAX_RENAME_RESOURCES, renamedPath, renameTargetProblem, type FolderRenameInput, type FolderRenameResult, type MovedResource } from './folder-rename.js';
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, MAX_FACET_DEPTH } from './listing.js';
export { resourceActor, PERSONA_ADMIN_ROLE_PREFIX, type ResourceActorOptions } from './actor.js';
export {
  may,
  administers,
  isAgent,
  refusal,
  mayMove,
  mayMoveToPeople,
  moveCandidates,
  readableLibraries,
  resourceActions,
  folderActions,
  type ResourceAction,
  type AuthorityTarget,
} from './authority.js';
export { DEFAULT_PEOPLE_LIMIT, MAX_PEOPLE_LIMIT } from './move-targets.js';
export { MY_RESOURCES, GLOBAL, PEOPLE } from './top-level.js';
export { INLINE_PREVIEW_BYTES, EDITED_IN_PORTAL, isTextFamily, sourceEditable, sourceProblem, type SourceFile } from './source-rules.js';
export { saveSource, type SaveSourceInput } from './source.js';
export {
  folderPathProblem,
  normalizeFolderPath,
  folderAndAncestors,
  isWithin,
  MAX_FOLDER_DEPTH,
  MAX_FOLDER_PATH_CHARS,
} from './folders.js';
export {
  formatLibrary,
  formatLibraryPath,
  libraryKey,
  libraryFromKey,
  parseLibrary,
  parseLibraryPath,
  sameLibrary,
  LibraryTextError,
  type LibraryKey,
  type LibraryKind,
} from './library.js';
export { canonicalUri, parseCanonicalUri, referenceOf, parseReference, REFERENCE_PREFIX, type ParsedUri } from './uri.js';
export { defaultDisplayName, fileNameProblem, extensionOf, normalizeTags, MAX_TAGS, MAX_TAG_CHARS } from './names.js';
export {
  executableByName,
  sniffExecutable,
  storedNames,
  peSignatureOffset,
  bareMediaType,
  ExecutableSniffer,
  EXECUTABLE_EXTENSIONS,
  SNIFF_BYTES,
} from './executables.js';
export { chooseContentType, contentTypeFromName, mediaTypeProblem, MAX_CONTENT_TYPE_CHARS } from './content-type.js';
export { textProblem, type TextKind } from './text.js';
export { MAX_CHANGE_SUMMARY_CHARS } from './input.js';
export { listSorts, isListSort, isLastReadSort, encodeCursor, decodeCursor } from './cursor.js';
export { countsHoldingDelete, holdsDelete } from './delete-rule.js';
export { buildFacets, type FacetScope, type FolderCount, type FolderRow } from './facets.js';
export { manageResourceTool, resourceRefusal, type ManageResourceToolOptions } from './tool.js';
export {
  followResourceChanges,
  localResourceChanges,
  encodeResourceChange,
  decodeResourceChange,
  RESOURCE_CHANGES_CHANNEL,
  MAX_NOTIFY_PAYLOAD_BYTES,
  type ResourceChangeFeed,
  type ResourceChangeHandlers,
  type ResourceChangeNotice,
  type ResourceChangeSource,
} from './change-feed.js';
export {
  exportIntoResource,
  exportResourceInput,
  exportTargetOf,
  upstreamAccepted,
  type ExportResourceInput,
  type ExportTarget,
  type UpstreamAnswer,
} from './export.js';
export {
  ResourceJobDispatcher,
  RESOURCE_JOB_DEFAULTS,
  resourceJobKinds,
  resourceJobMetrics,
  jobsForChange,
  recordJobs,
  type JobKind,
  type JobKindSpec,
  type JobRequest,
  type JobStart,
  type JobStarter,
  type ResourceJobHandOff,
  type ResourceJobDispatcherOptions,
  type ResourceJobMetrics,
} from './jobs/index.js';
export * from './thumbnails/index.js';
export {
  extractArchive,
  EXTRACT_LIMITS,
  EXTRACT_TEMP_PREFIX,
  tablesAfterWrite,
  type ExtractDeps,
  type ExtractDestination,
  type ExtractLimits,
  type ExtractRequest,
  type ExtractResult,
  type ExtractedMember,
  type TableChange,
  type TableHooks,
  type RegisteredTable,
  type UploadTableReport,
} from './archives/extract.js';
export { memberNameProblem, memberTarget, memberMatcher, sanitiseFolderName, archiveFolderName, type MemberTarget, type MemberRule } from './archives/members.js';
export { archiveFormat, forEachMember, type ArchiveFormat, type ArchiveMember, type MemberKind } from './archives/readers.js';
export {
  outcomeOf,
  resultOf,
  requestFingerprint,
  defaultExtractRequestId,
  requestIdProblem,
  type RequestOutcome,
  type RequestRefusal,
  type ResourceRequests,
} from './requests.js';
