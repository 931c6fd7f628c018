/**
 * The `manage_script` agent tool (issue 16): create, update (a new version), get, list, run (a draft
 * run, of a saved script or of an unsaved source), disable, enable, deprecate, supersede and delete
 * managed scripts, and schedule / unschedule / pause / resume their scheduled runs. Whether a caller may use the tool at all is the persona
 * rule (`tools.allow` must allow `manage_script`), applied by the MCP surface like every tool's;
 * calls are audited by the audit middleware, and each change also as a `script_change` row.
 * Results are JSON; refusals are tool errors whose structured content is `{error, message, ...details}`.
 */
import { z } from 'zod';
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { defineTool, jsonResult, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { MANAGE_SCRIPT_TOOL, scriptActor } from './authority.js';
import type { StateAction } from './states.js';
import type { ScriptRunner } from './runs/index.js';
import type { ScriptSchedules } from './schedules.js';
import type { ScriptStore } from './store.js';
import { ScriptError, type ScriptActor } from './types.js';

export const manageScriptActions = ['create', 'update', 'get', 'list', 'run', 'disable', 'enable', 'deprecate', 'supersede', 'delete', 'schedule', 'unschedule', 'pause', 'resume'] as const;

const input = z.object({
  action: z.enum(manageScriptActions).describe('The operation.'),
  script: z.string().optional().describe("The script: its id or its name (names never look like ids). For create: the new script's name."),
  source: z.string().optional().describe('The source (an ES module), for create and update; for run without script: the unsaved source to run.'),
  version: z.number().int().min(1).optional().describe('get: the version whose source to return (default: the current one).'),
  superseded_by: z.string().optional().describe('supersede: the id or name of the active script of the same kind that replaces this one.'),
  cron: z.string().optional().describe('schedule: a cron expression (minute hour day-of-month month day-of-week, or @hourly, @daily, …).'),
  every: z.string().optional().describe('schedule: instead of cron, an interval like 15m or 6h (at least 1m).'),
  time_zone: z.string().optional().describe('schedule: the IANA time zone the cron is read in (default UTC).'),
});

type Args = z.output<typeof input>;

const description = `Create, revise, read, list and retire managed scripts: JavaScript ES modules the platform runs in a sandbox.

A script exports main() (a run) and/or handle(req) (an endpoint handler), in any export form; a library exports neither and is imported by scripts by name: import { fmt } from 'formatting'. Only bare library names can be imported (no paths, URLs or node: modules), and each must be an existing active or deprecated library.

Actions (script = id or name):
- create: script (the new name: lowercase letters, digits, - and _, starting with a letter), source. You own it; it starts active at version 1.
- update: script, source. Saves the next version (none when the source is unchanged: outcome unchanged).
- get: script, optional version. The script with its versions (author, roles at save time, SHA-256) and the source when you may read it.
- list: every script's name, kind, state and owner.
- run: script (a draft run of its current version's main(), as principal script:<name> with the roles of that version's author; its owner and administrators, active scripts only), or source instead (an unsaved source, run as you with your roles). Result {run_id, status: ok|error|timeout|memory|busy, result | error, console, duration_ms}.
- disable / enable / deprecate: script. Only active scripts run; enable restores a disabled, deprecated or superseded script.
- supersede: script, superseded_by (an active script of the same kind).
- schedule: script, cron or every, optional time_zone. Creates or replaces the script's one schedule: each run calls main() as script:<name>, recorded and audited; only while the script is active.
- unschedule / pause / resume: script. Removes the schedule, or stops and restarts its runs keeping it.
- delete: script. Refused while it is bound to an endpoint, supersedes others, or (a library) is imported.
Only the owner and administrators change a script; a script's source is shown to them, a library's to everyone.
Syntax errors are answered with line:column.`;

function errorResult(error: ScriptError): CallToolResult {
  return { content: [{ type: 'text', text: error.message }], structuredContent: { error: error.code, message: error.message, ...error.details }, isError: true };
}

function required<K extends 'script' | 'source'>(args: Args, field: K): string {
  const value = args[field];
  if (value === undefined || value === '') throw new ScriptError('invalid', `${args.action} needs ${field}`);
  return value;
}

interface Context {
  store: ScriptStore;
  runner: ScriptRunner | undefined;
  caller: CallerContext;
  schedules: ScriptSchedules | undefined;
}

async function schedule({ schedules }: Context, actor: ScriptActor, args: Args): Promise<CallToolResult> {
  if (!schedules) throw new ScriptError('invalid', 'schedules are not available on this server');
  const script = required(args, 'script');
  switch (args.action) {
    case 'unschedule':
      return jsonResult({ ...(await schedules.remove(actor, script)) });
    case 'pause':
    case 'resume':
      return jsonResult({ schedule: await schedules.setPaused(actor, script, args.action === 'pause') });
    default: {
      const input = { ...(args.cron !== undefined ? { cron: args.cron } : {}), ...(args.every !== undefined ? { every: args.every } : {}), ...(args.time_zone !== undefined ? { time_zone: args.time_zone } : {}) };
      return jsonResult({ schedule: await schedules.set(actor, script, input) });
    }
  }
}

async function run({ runner, caller }: Context, args: Args): Promise<CallToolResult> {
  if (!runner) throw new ScriptError('invalid', 'runs are not available on this server (no sandbox)');
  if (args.script !== undefined && args.source !== undefined) throw new ScriptError('invalid', 'run takes script (a saved script) or source (an unsaved one), not both');
  if (args.script !== undefined) return jsonResult({ ...(await runner.runSaved(caller, args.script)) });
  return jsonResult({ ...(await runner.runUnsaved(caller, required(args, 'source'))) });
}

async function answer(context: Context, actor: ScriptActor, args: Args): Promise<CallToolResult> {
  const { store } = context;
  switch (args.action) {
    case 'create':
      return jsonResult({ ...(await store.create(actor, { name: required(args, 'script'), source: required(args, 'source') })) });
    case 'update':
      return jsonResult({ ...(await store.update(actor, required(args, 'script'), { source: required(args, 'source') })) });
    case 'get':
      return jsonResult({ script: await store.get(actor, required(args, 'script'), args.version !== undefined ? { version: args.version } : {}) });
    case 'list':
      return jsonResult({ scripts: await store.list(actor) });
    case 'run':
      return run(context, args);
    case 'delete':
      return jsonResult({ deleted: true, script: await store.delete(actor, required(args, 'script')) });
    case 'disable':
    case 'enable':
    case 'deprecate':
    case 'supersede':
      return jsonResult({ script: await store.changeState(actor, required(args, 'script'), args.action satisfies StateAction, args.superseded_by) });
    case 'schedule':
    case 'unschedule':
    case 'pause':
    case 'resume':
      return schedule(context, actor, args);
  }
}

export function manageScriptTool(store: ScriptStore, opts: { config: Pick<PlatformConfig, 'personas' | 'admin'>; runner?: ScriptRunner; schedules?: ScriptSchedules }): ToolDefinition {
  return defineTool({
    name: MANAGE_SCRIPT_TOOL,
    toolkit: 'platform',
    title: 'Manage scripts',
    description,
    input,
    contentArguments: ['source'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      try {
        return await answer({ store, runner: opts.runner, schedules: opts.schedules, caller: ctx.caller }, scriptActor(ctx.caller, opts.config, ctx.sessionId), args);
      } catch (error) {
        if (error instanceof ScriptError) return errorResult(error);
        throw error;
      }
    },
  });
}
