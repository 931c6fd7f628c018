/**
 * The `manage_script` agent tool (issue 16): create, update (a new version), get, list, run (a draft
 * run, of a saved script or of an unsaved source), disable, enable, deprecate, supersede and delete
 * managed scripts, schedule / unschedule / pause / resume their scheduled runs, and bind their handle(req)
 * to endpoints (endpoint_set / endpoint_list / endpoint_enable / endpoint_disable, served by
 * shared/endpoints/tool-commands.ts and handed in as `endpoints`). Whether a caller may use the tool at all is the persona
 * rule (`tools.allow` must allow `manage_script`), applied by the MCP surface like every tool's;
 * calls are audited by the audit middleware, and each change also as a `script_change` row.
 * Results are JSON; refusals are tool errors whose structured content is `{error, message, ...details}`.
 */
import { z } from 'zod';
import type { PlatformConfig } from '../config/index.js';
import type { EndpointCommand, EndpointCommands } from '../endpoints/index.js';
import type { CallerContext } from '../identity/index.js';
import { defineTool, jsonResult, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { MANAGE_SCRIPT_TOOL, scriptActor } from './authority.js';
import type { StateAction } from './states.js';
import type { ScriptRunner } from './runs/index.js';
import type { ScriptSchedules } from './schedules.js';
import type { ScriptStore } from './store.js';
import { ScriptError, type ScriptActor } from './types.js';

const endpointActions = ['endpoint_set', 'endpoint_list', 'endpoint_enable', 'endpoint_disable', 'endpoint_remove'] as const satisfies readonly EndpointCommand[];

export const manageScriptActions = [
  'create',
  'update',
  'get',
  'list',
  'run',
  'disable',
  'enable',
  'deprecate',
  'supersede',
  'delete',
  'schedule',
  'unschedule',
  'pause',
  'resume',
  ...endpointActions,
] as const;

const input = z.object({
  action: z.enum(manageScriptActions).describe('The operation.'),
  script: z.string().optional().describe("The script: its id or its name (names never look like ids). For create: the new script's name."),
  source: z.string().optional().describe('The source (an ES module), for create and update; for run without script: the unsaved source to run.'),
  version: z.number().int().min(1).optional().describe('get: the version whose source to return (default: the current one).'),
  superseded_by: z.string().optional().describe('supersede: the id or name of the active script of the same kind that replaces this one.'),
  cron: z.string().optional().describe('schedule: a cron expression (minute hour day-of-month month day-of-week, or @hourly, @daily, …).'),
  every: z.string().optional().describe('schedule: instead of cron, an interval like 15m or 6h (at least 1m).'),
  time_zone: z.string().optional().describe('schedule: the IANA time zone the cron is read in (default UTC).'),
  name: z.string().optional().describe("endpoint_*: the script's name (or give script)."),
  owner_email: z.string().optional().describe("endpoint_*: the email of the script's owner, naming the script together with name (must match)."),
  endpoint: z.string().optional().describe('endpoint_set: the name in /endpoints/{name}: lowercase letters, digits, - and _; unique across the deployment.'),
  methods: z.array(z.string()).optional().describe('endpoint_set: methods answered, of GET, POST, PUT, PATCH, DELETE (default [GET]; HEAD is answered wherever GET is).'),
  path: z.string().optional().describe('endpoint_set: template under the name, e.g. /items/{id} ({id} takes one segment, read as req.params.id); default empty.'),
  auth_mode: z.string().optional().describe('endpoint_set: signed_in (a browser session or an API key) or public (a bot check); required.'),
  open_reads: z.boolean().optional().describe('endpoint_set: on a public endpoint, GET and HEAD need no bot check (default false).'),
  timeout_seconds: z.number().optional().describe('endpoint_set: time one request may run (default 10, at most 60).'),
  max_memory_bytes: z.number().optional().describe('endpoint_set: memory one request may hold (default 64 MiB, 16 to 256 MiB).'),
  max_body_bytes: z.number().optional().describe('endpoint_set: largest request body (default 1 MiB, at most 10 MiB).'),
  allowed_origins: z.array(z.string()).optional().describe('endpoint_set: browser origins (scheme://host[:port]) allowed cross-origin (default none).'),
  rate_limit: z.number().optional().describe('endpoint_set: requests per minute for the endpoint, per replica (default 600).'),
  caller_rate_limit: z.number().optional().describe('endpoint_set: requests per minute for one signed-in caller, per replica (default 120).'),
});

type Args = z.output<typeof input>;

const description = `Create, revise, read, list and retire managed scripts: JavaScript ES modules the platform runs in a sandbox.

A script exports main() (a run) and/or handle(req) (an endpoint handler), in any export form; a library exports neither and is imported by scripts by name: import { fmt } from 'formatting'. Only bare library names can be imported (no paths, URLs or node: modules), and each must be an existing active or deprecated library.

Actions (script = id or name):
- create: script (the new name: lowercase letters, digits, - and _, starting with a letter), source. You own it; it starts active at version 1.
- update: script, source. Saves the next version (none when the source and its library pins are unchanged: outcome unchanged).
- get: script, optional version. The script with its versions (author, roles at save time, SHA-256, pins) and the source when you may read it.

Imports are pinned at save: each version records the version of every library it reaches (pins), and its runs import exactly those, never a library's later version. To move a script onto its libraries' current versions, update it (the same source is fine).
- list: every script's name, kind, state and owner.
- run: script (a draft run of its current version's main(), as principal script:<name> with the roles of that version's author; its owner and administrators, active scripts only), or source instead (an unsaved source, run as you with your roles). Result {run_id, status: ok|error|timeout|memory|busy, result | error, console, duration_ms}.
- disable / enable / deprecate: script. Only active scripts run; enable restores a disabled, deprecated or superseded script.
- supersede: script, superseded_by (an active script of the same kind).
- schedule: script, cron or every, optional time_zone. Creates or replaces the script's one schedule: each run calls main() as script:<name>, recorded and audited; only while the script is active.
- unschedule / pause / resume: script. Removes the schedule, or stops and restarts its runs keeping it.
- delete: script. Refused while it is bound to an endpoint, supersedes others, or (a library) is imported.
Only the owner and administrators change a script; a script's source is shown to them, a library's to everyone.
Syntax errors are answered with line:column.

Endpoints (a script's handle(req) answering HTTP at /endpoints/{endpoint}/...; name = the script's name, optional owner_email = its owner's email):
- endpoint_set: name, endpoint, auth_mode (signed_in | public), optional methods, path, open_reads, timeout_seconds, max_memory_bytes, max_body_bytes, allowed_origins, rate_limit, caller_rate_limit. Creates or replaces the script's one binding (fields left out take their defaults). Only a script whose current version defines handle(req) is bound, never a library.
- endpoint_enable / endpoint_disable: name. A disabled endpoint answers 404; the script is untouched.
- endpoint_remove: name. Unbinds the script (its endpoint answers 404; the name is free again); a bound script cannot be deleted until then.
- endpoint_list: with name, that script's binding and its recent failed requests (kept seven days); without, every binding of your scripts (with owner_email, an administrator lists that owner's).
Binding, enabling and disabling are platform administrators' acts (owners too are refused), never a script run's; the owner and administrators read a binding.`;

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
  endpoints: EndpointCommands | undefined;
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
    case 'endpoint_set':
    case 'endpoint_list':
    case 'endpoint_enable':
    case 'endpoint_disable':
    case 'endpoint_remove':
      if (!context.endpoints) throw new ScriptError('invalid', 'endpoints are not available on this server');
      return jsonResult(await context.endpoints.run(actor, { ...args, action: args.action }));
  }
}

export function manageScriptTool(
  store: ScriptStore,
  opts: { config: Pick<PlatformConfig, 'personas' | 'admin'>; runner?: ScriptRunner; schedules?: ScriptSchedules; endpoints?: EndpointCommands },
): ToolDefinition {
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
        const context = { store, runner: opts.runner, schedules: opts.schedules, endpoints: opts.endpoints, caller: ctx.caller };
        return await answer(context, scriptActor(ctx.caller, opts.config, ctx.sessionId), args);
      } catch (error) {
        if (error instanceof ScriptError) return errorResult(error);
        throw error;
      }
    },
  });
}
