export { ensureBinary, isExecutableFile, runCommand, type EnsureBinaryOptions, type ToolLog } from './ensure.js';
export { processAlive, withFileLock, type FileLockJob } from './file-lock.js';
export { ensurePortalBuilt, portalDistDir, type PortalBuildOptions } from './portal-build.js';
export { packageRoot } from './package-root.js';
export { withProgress, type ProgressOptions } from './progress.js';
export {
  locateBinary,
  locateGo,
  locatePython,
  missingToolMessage,
  pathDirs,
  toolCacheDir,
  toolSpecs,
  type Env,
  type LookupDeps,
  type LookupResult,
  type LookupSource,
  type PrebuiltSpec,
  type ToolName,
  type ToolSpec,
} from './lookup.js';
