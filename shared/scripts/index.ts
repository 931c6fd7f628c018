// Managed scripts (issue 16; docs/scripts.md). The model: scripts and their versions, the rules a
// source is read by (syntax, kind, imports), states, authority, the store and the manage_script tool.
export { analyzeSource, checkName, nameProblem, specifierProblem, MAX_SCRIPT_NAME_LENGTH, MAX_SOURCE_BYTES, SCRIPT_NAME_PATTERN, UUID_PATTERN } from './source.js';
export { importable, runs, transition, STATE_ACTIONS, type Replacement, type StateAction, type Transition } from './states.js';
export { MANAGE_SCRIPT_TOOL, mayManageScripts, requireChange, requireCreate, scriptActions, scriptActor } from './authority.js';
export { manageScriptActions, manageScriptTool } from './tool.js';
export { recordScriptChange, scriptChangeEntry, SCRIPT_AUDIT_TOOL, type ScriptChange, type ScriptChangeAction } from './events.js';
export { ScriptStore, type SaveOutcome, type ScriptRunView, type ScriptStoreOptions } from './store.js';
export { ScriptSchedules, type ScheduledScript, type ScheduleSync, type ScheduleView, type ScriptSchedulesOptions } from './schedules.js';
export {
  MIN_SCHEDULE_INTERVAL_MS,
  scheduleSpec,
  scriptRunWorkflowPrefix,
  scriptScheduleId,
  SCRIPT_SCHEDULE_PREFIX,
  type ScheduleInput,
  type ScheduleSpec,
} from './schedule-rules.js';
export {
  ENTRY_POINTS,
  SCRIPT_KINDS,
  SCRIPT_STATES,
  ScriptError,
  type EntryPoint,
  type LibraryPinView,
  type LibraryResolver,
  type ResolvedLibrary,
  type RunImports,
  type RunTarget,
  type ScriptActions,
  type ScriptActor,
  type ScriptDetail,
  type ScriptErrorCode,
  type ScriptKind,
  type ScriptState,
  type ScriptVersionView,
  type ScriptView,
  type SourceShape,
} from './types.js';
// The sandbox (issue 16, item 2): runs a script's main()/handle(req) in a fresh QuickJS runtime on a worker thread.
export { createSandbox, defaultConsoleLimitBytes, importedNames, isLibraryName, type Sandbox, type SandboxOptions, type SandboxOutcome, type SandboxRun } from './sandbox/index.js';
// Runs (issue 16, items 3 and 4): the platform object, the run's principal and MCP session, draft runs.
export {
  CONSOLE_EXCERPT_BYTES,
  consoleExcerpt,
  EXPORT_TOOL,
  fetchRefusal,
  lazyPlatformSession,
  PUBLISH_DATA_TOOL,
  RUN_TOOLS_PERMISSION,
  runningScript,
  runTools,
  SCRIPT_RUN_AUDIT_TOOL,
  scriptPrincipal,
  ScriptRunner,
  type ExecuteSpec,
  type McpServerFor,
  type RunAnswer,
  type RunningScript,
  type ScriptCaller,
} from './runs/index.js';
