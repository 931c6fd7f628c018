// Runs of managed scripts (issue 16; docs/scripts.md, "Runs" and "The platform object").
export { scriptPrincipal, runningScript, SCRIPT_SUBJECT_PREFIX, type RunningScript, type ScriptCaller } from './principal.js';
export { lazyPlatformSession, LazyPlatformSession, openPlatformSession, type McpServerFor, type PlatformSession } from './session.js';
export { platformHost, PlatformHost, PLATFORM_HOST_NAMES, type HostFunctions, type ToolCaller } from './host.js';
export { fetchRefusal, scriptFetch, type FetchAnswer, type FetchPolicy } from './fetch.js';
export { consoleExcerpt, CONSOLE_EXCERPT_BYTES, recordScriptRun, SCRIPT_RUN_AUDIT_TOOL, scriptRunEntry, type RunStarter, type RunTrigger, type ScriptRunRecord } from './records.js';
export { ScriptRunner, type ExecuteSpec, type RunAnswer, type RunSpec, type ScriptRunnerOptions } from './runner.js';
export { runTools, EXPORT_TOOL, PUBLISH_DATA_TOOL, RUN_TOOLS_PERMISSION, type RunToolsDeps } from './run-tools.js';
export { publishedFile, columnsOf, inertCell, publishFormats, type PublishFormat, type PublishedFile } from './publish.js';
