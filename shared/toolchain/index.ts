export { ensureBinary, isExecutableFile, processAlive, type EnsureBinaryOptions, type ToolLog } from './ensure.js';
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
