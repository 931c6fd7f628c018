export { createSandbox } from './pool.js';
export { isLibraryName, importedNames } from './imports.js';
export { defaultConsoleLimitBytes, LazyHost, type HostFunction, type Sandbox, type SandboxOptions, type SandboxOutcome, type SandboxRun } from './types.js';
