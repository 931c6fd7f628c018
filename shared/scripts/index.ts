// The sandbox (issue 16, item 2): runs a script's main()/handle(req) in a fresh QuickJS runtime on a worker thread.
export { createSandbox, defaultConsoleLimitBytes, importedNames, isLibraryName, type Sandbox, type SandboxOptions, type SandboxOutcome, type SandboxRun } from './sandbox/index.js';
