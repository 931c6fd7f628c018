export { ensureBinary, isExecutableFile, processAlive, type EnsureBinaryOptions, type ToolLog } from './ensure.js';
export {
  locateBinary,
  locateGo,
  missingToolMessage,
  pathDirs,
  toolCacheDir,
  toolSpecs,
  type Env,
  type LookupDeps,
  type LookupResult,
  type LookupSource,
  type ToolName,
  type ToolSpec,
} from './lookup.js';
