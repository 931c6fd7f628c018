export { createSandbox } from './pool.js';
export { isLibraryName, importedNames } from './imports.js';
export { defaultConsoleLimitBytes, type Sandbox, type SandboxOptions, type SandboxOutcome, type SandboxRun } from './types.js';
