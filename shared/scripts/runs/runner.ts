/**
 * Draft runs (docs/scripts.md, "Runs"): `main()` of a saved script's current version, run as its
 * principal `script:<name>` with its author's roles and the library versions it pinned at save, or
 * of an unsaved source, run as the caller with the caller's roles and current library versions. Each run gets its own MCP session (session.ts) for its platform calls,
 * a fresh sandbox context bounded by `scripts.*`, and one record plus audit row (records.ts).
 * Who may draft-run: a saved script, its owner and administrators; an unsaved source, anyone
 * admitted to manage_script (the surfaces check that persona rule).
 */
import { uuidv7 } from '../../crypto/index.js';
import type { PlatformConfig } from '../../config/index.js';
import type { Db } from '../../db/index.js';
import type { CallerContext } from '../../identity/index.js';
import { requireChange, scriptActor } from '../authority.js';
import type { Sandbox, SandboxOutcome } from '../sandbox/index.js';
import { analyzeSource } from '../source.js';
import { runs } from '../states.js';
import type { ScriptStore } from '../store.js';
import { ScriptError, type EntryPoint, type ResolvedLibrary, type RunImports } from '../types.js';
import type { FetchPolicy } from './fetch.js';
import { afterConfirmation, PlatformHost } from './host.js';
import { scriptPrincipal } from './principal.js';
import { recordScriptRun, type RunStarter, type RunTrigger } from './records.js';
import { LazyPlatformSession, type McpServerFor } from './session.js';

export interface ScriptRunnerOptions {
  db: Db;
  config: PlatformConfig;
  store: ScriptStore;
  sandbox: Sandbox;
  /** The platform's MCP server for a run's principal (each run's platform.* calls go through it). */
  serverFor: McpServerFor;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

/** What a run answers (draft runs return it; the result and console as the sandbox gave them). */
export interface RunAnswer {
  run_id: string;
  status: SandboxOutcome['status'];
  result?: unknown;
  error?: string;
  console: string;
  duration_ms: number;
}

/** One call of a script's entry: its source, the principal it acts as, its session, and limits other than `scripts.*`. */
export interface ExecuteSpec {
  source: string;
  principal: CallerContext;
  entry: EntryPoint;
  args: unknown[];
  /** The run's MCP session id (platform calls are audited under it). */
  sessionId: string;
  /** The library versions it imports: a saved version's pins (never a later version), or the current ones for an unsaved source. */
  imports: RunImports;
  /** The subject whose run slots this run takes (scripts.max_runs_per_caller); absent: no one's. */
  countsAgainst?: string | undefined;
  memoryBytes?: number;
  deadlineMs?: number;
  /**
   * The run starts before it is known to be wanted (an endpoint request served beside its
   * freshness read): its platform calls and library imports wait until this resolves, true to
   * make them, false to refuse them. Absent: the run is wanted.
   */
  confirmed?: Promise<boolean>;
}

/** One run of `main()` to execute: its source, the principal it acts as, and how it is recorded. */
export interface RunSpec {
  source: string;
  principal: CallerContext;
  script?: { id: string; name: string; version: number };
  trigger: RunTrigger;
  scheduledAt?: Date;
  retryOf?: string;
  starter: RunStarter;
}

function requireMain(entryPoints: readonly EntryPoint[], what: string): void {
  if (!entryPoints.includes('main')) throw new ScriptError('invalid', `${what} does not export main(): a run calls main()`);
}

export class ScriptRunner {
  private readonly clock: () => number;
  private readonly fetchPolicy: FetchPolicy;

  constructor(private readonly opts: ScriptRunnerOptions) {
    this.clock = opts.clock ?? Date.now;
    const { fetch } = opts.config.scripts;
    this.fetchPolicy = { allowHosts: fetch.allow_hosts, timeoutMs: fetch.timeout, maxResponseBytes: fetch.max_response_bytes };
  }

  /** A draft run of the current version of the script `ref` (id or name): its owner and administrators; active scripts only. */
  async runSaved(caller: CallerContext, ref: string): Promise<RunAnswer> {
    const actor = scriptActor(caller, this.opts.config);
    const target = await this.opts.store.runTarget(ref);
    requireChange(actor, target, 'run');
    if (!runs(target.state)) throw new ScriptError('state', `"${target.name}" is ${target.state}: only active scripts run`, { state: target.state });
    requireMain(target.entryPoints, `"${target.name}"`);
    return this.run({
      source: target.source,
      principal: scriptPrincipal(target, target.authorRoles),
      script: { id: target.id, name: target.name, version: target.version },
      trigger: 'draft',
      starter: starterOf(actor),
    });
  }

  /**
   * A scheduled run (or an administrator's retry of one) of the script's current version, as its
   * principal; undefined, not run nor recorded, when the script is gone or not active (docs/scripts.md, "Schedules").
   */
  async runScheduled(scriptId: string, scheduledAt: Date, retryOf?: string): Promise<RunAnswer | { skipped: string }> {
    let target;
    try {
      target = await this.opts.store.runTarget(scriptId);
    } catch (error) {
      if (error instanceof ScriptError && error.code === 'not_found') return { skipped: 'deleted' };
      throw error;
    }
    if (!runs(target.state)) return { skipped: target.state };
    if (!target.entryPoints.includes('main')) return { skipped: 'no main()' };
    const principal = scriptPrincipal(target, target.authorRoles);
    return this.run({
      source: target.source,
      principal,
      script: { id: target.id, name: target.name, version: target.version },
      trigger: 'schedule',
      scheduledAt,
      ...(retryOf ? { retryOf } : {}),
      starter: { subject: principal.subject, authType: principal.authType },
    });
  }

  /** A draft run of a source that is not saved: it acts as the caller, with the caller's roles. */
  async runUnsaved(caller: CallerContext, source: string): Promise<RunAnswer> {
    const actor = scriptActor(caller, this.opts.config);
    requireMain(analyzeSource(source).entryPoints, 'the source');
    return this.run({ source, principal: caller, trigger: 'draft', starter: starterOf(actor) });
  }

  /**
   * Calls `entry` in a fresh sandbox context bounded by `scripts.*` (or the spec's own limits),
   * with its own MCP session (opened on its first platform call), and answers the outcome
   * unrecorded: draft and scheduled runs record theirs (run), an endpoint request its own records.
   */
  async execute(spec: ExecuteSpec): Promise<SandboxOutcome> {
    const { config, sandbox, store, serverFor } = this.opts;
    // The session and the platform functions are made on the script's first platform call.
    const session = new LazyPlatformSession(serverFor, spec.principal, spec.sessionId, spec.entry);
    const { imports } = spec;
    try {
      return await sandbox.run({
        source: spec.source,
        entry: spec.entry,
        args: spec.args,
        memoryBytes: spec.memoryBytes ?? config.scripts.run_memory_bytes,
        deadlineMs: spec.deadlineMs ?? config.scripts.run_deadline,
        consoleLimitBytes: config.scripts.console_limit_bytes,
        principal: spec.countsAgainst,
        authority: authorityOf(spec.principal),
        resolveLibrary: (name) =>
          afterConfirmation(spec.confirmed, () => resolveLibrarySource(imports === 'current' ? store.resolveLibrary(name) : store.resolvePinned(imports, name))),
        host: new PlatformHost(session, this.fetchPolicy, spec.entry, spec.confirmed),
      });
    } finally {
      if (session.opened) await session.close();
    }
  }

  /** Runs `main()` (execute), then records and audits the run. */
  async run(spec: RunSpec): Promise<RunAnswer> {
    const id = uuidv7();
    const startedAt = new Date(this.clock());
    const imports: RunImports = spec.script ? { scriptId: spec.script.id, version: spec.script.version } : 'current';
    // A draft run counts against whoever started it; a scheduled run against its script.
    const outcome = await this.execute({ source: spec.source, principal: spec.principal, entry: 'main', args: [], sessionId: `script-run:${id}`, countsAgainst: spec.starter.subject, imports });
    const finishedAt = new Date(this.clock());
    await recordScriptRun(this.opts.db, this.opts.config, {
      id,
      ...(spec.script ? { script: spec.script } : {}),
      trigger: spec.trigger,
      ...(spec.scheduledAt ? { scheduledAt: spec.scheduledAt } : {}),
      ...(spec.retryOf ? { retryOf: spec.retryOf } : {}),
      outcome,
      startedAt,
      finishedAt,
      starter: spec.starter,
      principal: spec.principal.subject,
    });
    return {
      run_id: id,
      status: outcome.status,
      ...(outcome.status === 'ok' ? { result: outcome.result } : { error: outcome.error }),
      console: outcome.console,
      duration_ms: outcome.durationMs,
    };
  }
}

function starterOf(actor: { subject: string; email?: string; authType: string; persona?: string }): RunStarter {
  return { subject: actor.subject, ...(actor.email ? { email: actor.email } : {}), authType: actor.authType, ...(actor.persona ? { persona: actor.persona } : {}) };
}

/** A library's source for the sandbox: undefined when there is none; a library that may not be imported is an error naming why. */
async function resolveLibrarySource(resolving: Promise<ResolvedLibrary>): Promise<string | undefined> {
  try {
    return (await resolving).source;
  } catch (error) {
    if (error instanceof ScriptError && error.code === 'not_found') return undefined;
    throw error instanceof ScriptError ? new Error(error.message) : error;
  }
}

/** Authorities of frozen principals (an endpoint hands in one such principal for every request of a version). */
const authorities = new WeakMap<CallerContext, string>();

/** A principal and its roles as one key: runs with equal keys act with the same authority. */
function authorityOf(principal: CallerContext): string {
  // Only a principal that cannot change may keep its key.
  const frozen = Object.isFrozen(principal) && Object.isFrozen(principal.roles);
  let authority = frozen ? authorities.get(principal) : undefined;
  if (authority === undefined) {
    authority = JSON.stringify([principal.subject, [...principal.roles].sort()]);
    if (frozen) authorities.set(principal, authority);
  }
  return authority;
}
