import type { PlatformConfig } from '../shared/config/index.js';
import { createPool, migrate, pingDb, type Db } from '../shared/db/index.js';
import { connectTemporal, temporalReachable, temporalWorkflowUrl, type TemporalHandle } from '../shared/temporal/index.js';
import { compactWorkflowId } from '../workflows/index.js';
import { databaseApiKeys } from '../shared/identity/index.js';
import type { Logger } from '../shared/logging/index.js';
import { buildMcpSurface } from '../api/mcp/surface.js';
import { buildMcpServer, offeredPlatformPrompts, type McpSurface } from '../api/mcp/server.js';
import { followPromptChanges, managePromptTool, reservedPromptNames, storedPrompts, type PromptChanges } from '../shared/prompts/index.js';
import { promptRoutes } from '../api/portal/prompts.js';
import { databaseGatingStore, memoryGatingStore } from '../shared/workflow-gating/index.js';
import { toolCallAudit } from './audit.js';
import { ToolRegistry, toolMetricsMiddleware, type ToolDefinition } from '../shared/mcp-tools/index.js';
import { objstoreRoutes } from '../api/objstore/routes.js';
import { resourceRoutes, type ResourceRoutesOptions } from '../api/resources/index.js';
import { scriptRoutes } from '../api/portal/scripts.js';
import { manageScriptTool, RUN_TOOLS_PERMISSION, runningScript, runTools, ScriptRunner, ScriptSchedules } from '../shared/scripts/index.js';
import { endpointCommands, readPublicEndpoint } from '../shared/endpoints/index.js';
import { unauthenticated, type RestAuthenticator } from '../api/http/rest-auth.js';
import { followResourceChanges, manageResourceTool, resourceActor, resourceConnectionName, type ResourceActor, type ResourceRequests, type ResourceService } from '../shared/resources/index.js';
import type { CallerContext } from '../shared/identity/index.js';
import { startApi, type RunningApi } from '../api/start.js';
import type { DevSignIn } from '../api/portal-auth/index.js';
import { startMetricsListener } from '../api/http/app.js';
import { createMetrics } from '../shared/metrics/index.js';
import { createPlatformWorker, resourceRequestClient, scriptScheduleClient, webhookJobs, type PlatformWorker } from '../worker/index.js';
import { manageTableTool, registeredTables, tableHooks } from '../shared/tables/index.js';
import { openPlatformServices, type PlatformServices } from './platform-services.js';
import { combineAttachedTables, fetchTool, searchTool } from '../shared/search/index.js';
import { compactedWindowTables, parseWindowName } from '../shared/webhooks/index.js';
import { webhookActivityDeps } from './webhooks.js';
import { createBotCheckServices, registerBotCheckRoutes } from './botcheck.js';
import { endpointRoutes } from '../api/endpoints/routes.js';
import { endpointAuditLog, endpointMetrics, EndpointRecords, type BotCheckGate } from '../shared/endpoints/index.js';
import { toolkitEnrichment } from './toolkits.js';
import { manageAssetTool, saveArtifactTool } from '../shared/assets/index.js';
import { adminAuthorizer } from '../api/admin/authorize.js';
import { adminPlatformRoutes } from '../api/admin/platform.js';
import { apiKeyNames, connectionViews, systemView } from './admin-info.js';
import { createKnowledge, type Knowledge } from '../shared/knowledge/index.js';
import { insightRoutes } from '../api/portal/insights.js';

/**
 * The platform database: pool sized by config, migrations applied (under the advisory lock) before
 * use. `sharedBackend`: the embedded PGlite, whose connections share one session (createPool).
 */
export async function openDatabase(config: PlatformConfig, log: Logger, opts: { sharedBackend?: boolean } = {}): Promise<Db | undefined> {
  if (!config.database.dsn) return undefined;
  const db = createPool({ dsn: config.database.dsn, maxOpenConns: config.database.max_open_conns, applicationName: 'platform', ...(opts.sharedBackend ? { sharedBackend: true } : {}) });
  try {
    const result = await migrate(db, { log });
    if (result.applied.length) log.info({ applied: result.applied }, 'migrations applied');
    return db;
  } catch (error) {
    await db.end().catch(() => undefined);
    throw error;
  }
}

export async function openTemporal(config: PlatformConfig): Promise<TemporalHandle | undefined> {
  return config.temporal.address ? connectTemporal(config.temporal) : undefined;
}

/** The running api role; its script runner (endpoint requests and tests call handlers through it). */
export interface RunningApiRole extends RunningApi {
  scriptRunner?: ScriptRunner;
  /** The records of endpoint requests (audit rows, failed requests); flush() writes what is queued. */
  endpointRecords?: EndpointRecords;
}

/** The api role: HTTP surfaces over the platform services (its own unless `services` are given). */
export async function startApiRole(opts: {
  config: PlatformConfig;
  log: Logger;
  db?: Db;
  temporal?: TemporalHandle;
  /** Shared with the worker (`platform dev`); the caller closes them. */
  services?: PlatformServices;
  /** Buckets created on first use, per objstore connection (the embedded default bucket). */
  seedBuckets?: Record<string, readonly string[]>;
  /** The bot check of public endpoints (default: the deployment's, cli/botcheck.ts); none, their checked requests answer 503. */
  botCheck?: BotCheckGate;
  /** `platform dev`'s one-time sign-in link (api/portal-auth/dev-sign-in.ts). */
  signIn?: DevSignIn;
}): Promise<RunningApiRole> {
  const { config, log, db, temporal } = opts;
  const readinessChecks: Record<string, () => Promise<boolean>> = {};
  if (db) readinessChecks.database = () => pingDb(db, 2000);
  if (temporal) readinessChecks.temporal = () => temporalReachable(temporal.client, 2000);
  const services =
    opts.services ??
    (await openPlatformServices({ config, log, ...(db ? { db } : {}), ...(temporal ? { temporal } : {}), ...(opts.seedBuckets ? { seedBuckets: opts.seedBuckets } : {}) }));
  const { metrics, toolkits, resources, webhooks, scripts, endpoints } = services;
  const { log: audit, middleware: auditCalls, onRefused: refusals } = toolCallAudit({ config, log, ...(db ? { db } : {}), metrics });
  // Every replica's changes reach this one's sessions (one LISTEN connection, closed on stop).
  const resourceChanges =
    resources && config.database.dsn
      ? await followResourceChanges({ service: resources, dsn: config.database.dsn, log: log.child({ component: 'resource-changes' }) })
      : undefined;
  const promptChanges =
    services.prompts && config.database.dsn
      ? await followPromptChanges({ service: services.prompts, dsn: config.database.dsn, log: log.child({ component: 'prompt-changes' }) })
      : undefined;
  const scheduling = temporal ? scheduleClient(config, temporal, log) : undefined;
  // Folder renames and archive extraction run as workflows the request awaits (docs/resources.md).
  const requests = temporal ? resourceRequests(config, temporal) : undefined;
  const schedules = scripts && db ? new ScriptSchedules({ db, config, ...(scheduling ? { sync: scheduling } : {}) }) : undefined;
  // The bot check of public endpoints and its challenge route read the bindings (docs/botcheck.md).
  const botCheck = db ? await createBotCheckServices({ config, db, log, endpoints: { publicEndpoint: (name) => readPublicEndpoint(db, name) } }) : undefined;
  const { surface, runner, knowledge } = buildPlatformSurface({
    config,
    log,
    services,
    middlewares: [auditCalls, toolMetricsMiddleware(metrics)],
    flushAudit: () => audit.flush(),
    ...(refusals ? { onRefused: refusals } : {}),
    ...(db ? { db } : {}),
    ...(schedules ? { schedules } : {}),
    ...(resourceChanges ? { resourceChanges } : {}),
    ...(promptChanges ? { promptChanges } : {}),
    ...(requests ? { requests } : {}),
  });
  // Scripted endpoints answer on every replica with a database and a sandbox (docs/endpoints.md, "Requests").
  const endpointRecords = runner && db ? new EndpointRecords({ db, audit: endpointAuditLog({ config, db, log, metrics }), log }) : undefined;
  const gate = opts.botCheck ?? botCheck?.check;
  const api = await startApi({
    config,
    log,
    metrics,
    surface,
    ...(opts.signIn ? { signIn: opts.signIn } : {}),
    ...(services.assets ? { assets: services.assets } : {}),
    ...(db ? { db, storedApiKeys: databaseApiKeys(db) } : {}),
    readinessChecks,
    // Retries and deletions start their workflows at once through this api's Temporal client.
    ...(webhooks
      ? { webhooks: { ...webhooks, ...(temporal ? { jobs: webhookJobs(temporal.client, config) } : {}), ...(config.temporal.ui_url ? { workflowUrl: compactionUrl(config) } : {}) } }
      : {}),
    routes: async (app, ctx) => {
      // The tools' view: presigned URLs never reach internal connections or platform buckets.
      await app.register(objstoreRoutes, { connections: toolkits.objstore.tools });
      if (resources) await app.register(resourceRoutes, { ...resourceRouteOptions(config, resources, ctx.authenticate, requests), ...(services.tables ? { tables: tableHooks(services.tables), tableRegistration: services.tables } : {}), ...(db ? { search: { db, publicBaseUrl: config.portal.public_base_url || undefined, ...(services.embedder ? { embedder: services.embedder } : {}) } } : {}) });
      if (services.prompts) await app.register(promptRoutes, { service: services.prompts, config, authenticate: ctx.authenticate });
      if (scripts) {
        await app.register(scriptRoutes, { prefix: '/api/v1/portal/scripts', store: scripts, config, authenticate: ctx.authenticate, ...(runner ? { runner } : {}), ...(schedules ? { schedules } : {}), ...(scheduling ? { retryRun: (run) => scheduling.retry(run) } : {}), ...(endpoints ? { endpoints } : {}) });
      }
      // The portal's knowledge review page (docs/knowledge.md), for administrators.
      if (knowledge) await app.register(insightRoutes, { prefix: '/api/v1/portal/admin/insights', insights: knowledge.insights, authorize: adminAuthorizer(config, ctx.authenticate) });
      // The administrators' pages: audit trail, personas, connections, system (api/admin/platform.ts).
      if (config.admin.enabled) {
        await app.register(adminPlatformRoutes, {
          prefix: config.admin.path_prefix,
          config,
          authorize: adminAuthorizer(config, ctx.authenticate),
          ...(db ? { db } : {}),
          toolNames: () => surface.registry.all().map((tool) => tool.name),
          apiKeys: apiKeyNames(config, db),
          connections: connectionViews(config, toolkits),
          system: systemView(config, { ...(db ? { db } : {}), ...(temporal ? { temporal } : {}) }),
        });
      }
      const endpointSeries = endpointMetrics(metrics.registry);
      if (botCheck) await registerBotCheckRoutes(app, ctx, { config, services: botCheck, rateLimited: endpointSeries.rateLimited });
      if (endpointRecords && runner && db) {
        const publicBaseUrl = config.portal.public_base_url || config.oauth.issuer;
        await app.register(endpointRoutes, {
          db,
          runner,
          records: endpointRecords,
          metrics: endpointSeries,
          log: log.child({ component: 'endpoints' }),
          authenticate: ctx.authenticate,
          ...(gate ? { botCheck: gate } : {}),
          ...(publicBaseUrl ? { publicBaseUrl } : {}),
        });
      }
    },
  });
  services.publicUrl.current = api.url;
  return {
    ...api,
    ...(runner ? { scriptRunner: runner } : {}),
    ...(endpointRecords ? { endpointRecords } : {}),
    async stop() {
      await api.stop();
      await endpointRecords?.close();
      surface.close?.();
      await resourceChanges?.close();
      await promptChanges?.close();
      // After the drain, so calls that finished during it are written too.
      await audit.close();
      if (!opts.services) await services.close();
    },
  };
}

/** The Temporal UI's page of a window's compaction (`webhook-compact:{source}:{window}`). */
function compactionUrl(config: PlatformConfig): (source: string, window: string) => string {
  return (source, window) => {
    const partition = parseWindowName(window);
    const id = partition ? compactWorkflowId({ source, ...partition }) : `webhook-compact:${source}:${window}`;
    return temporalWorkflowUrl(config.temporal.ui_url, config.temporal.namespace, id);
  };
}

/** The Temporal side of script schedules, through this process's client. */
function resourceRequests(config: PlatformConfig, temporal: TemporalHandle): ResourceRequests {
  return resourceRequestClient(temporal.client, { taskQueue: config.temporal.task_queue });
}

function scheduleClient(config: PlatformConfig, temporal: TemporalHandle, log: Logger) {
  return scriptScheduleClient(temporal.client, { taskQueue: config.temporal.task_queue, runDeadlineMs: config.scripts.run_deadline }, log.child({ component: 'script-schedules' }));
}

/**
 * The platform's MCP surface over the services, and the ScriptRunner whose runs call the platform
 * through it (each run's platform.* calls are tool calls on this surface, audited and gated).
 */
function buildPlatformSurface(opts: {
  config: PlatformConfig;
  log: Logger;
  services: PlatformServices;
  db?: Db;
  middlewares: Parameters<typeof buildMcpSurface>[0]['middlewares'];
  /** Writes the queued tool-call audit rows (an artifact's provenance reads its session's calls). */
  flushAudit?: () => Promise<void>;
  onRefused?: Parameters<typeof buildMcpSurface>[0]['onRefused'];
  schedules?: ScriptSchedules;
  resourceChanges?: Parameters<typeof buildMcpSurface>[0]['resourceChanges'];
  /** Every replica's stored-prompt changes (else this process's). */
  promptChanges?: PromptChanges;
  /** Requests answered by a workflow (manage_resource extract), through a Temporal client. */
  requests?: ResourceRequests;
}): { surface: McpSurface; runner?: ScriptRunner; knowledge?: Knowledge } {
  const { config, log, db, services } = opts;
  const { toolkits, resources, scripts, endpoints, sandbox } = services;
  // Runs start after the surface below is built.
  const served: { surface?: McpSurface; mainRuns?: McpSurface } = {};
  const runner =
    scripts && db
      ? new ScriptRunner({
          db,
          config,
          store: scripts,
          sandbox,
          serverFor(caller, sessionId, entry) {
            if (!served.surface) throw new Error('the MCP surface is not built yet');
            return buildMcpServer(entry === 'main' && served.mainRuns ? served.mainRuns : served.surface, { caller, sessionId });
          },
        })
      : undefined;
  const enrichment = toolkitEnrichment(config, log, services.toolkits, { db });
  // Knowledge capture and apply (knowledge.enabled with a database), writing to the catalog instances.
  const knowledge = createKnowledge({ config, ...(db ? { db } : {}), catalog: toolkits.catalog.connections });
  const tables = services.tables ? tableHooks(services.tables) : undefined;
  const reserved = reservedPromptNames(services.operatorPrompts);
  // Exports (tools and scripts' platform.export/publish_data) move the tables that follow the file.
  const followTables = tables ? { followTables: tables.followNewVersion } : {};
  const surface = buildMcpSurface({
    config,
    log,
    tools: [
      ...toolkits.tools,
      ...(resources ? [manageResourceTool(resources, { config, actorOf: agentActor(config), ...(opts.requests ? { requests: opts.requests } : {}), ...(tables ? { tables } : {}) })] : []),
      ...(resources ? toolkits.exportTools({ resources, actorOf: agentActor(config), ...followTables }) : []),
      ...(services.tables ? [manageTableTool(services.tables, { config, actorOf: agentActor(config) })] : []),
      ...(services.assets
        ? [
            saveArtifactTool(services.assets, { actorOf: agentActor(config), ...(opts.flushAudit ? { flushAudit: opts.flushAudit } : {}) }),
            manageAssetTool(services.assets, { actorOf: agentActor(config), ...(opts.flushAudit ? { flushAudit: opts.flushAudit } : {}) }),
          ]
        : []),
      ...(resources && db
        ? [
            searchTool({
              config,
              db,
              actorOf: agentActor(config),
              attachedTables: combineAttachedTables(registeredTables(db), compactedWindowTables(db)),
              ...(services.embedder ? { embedder: services.embedder } : {}),
            }),
          ]
        : []),
      ...(resources ? [fetchTool(resources, { actorOf: agentActor(config) })] : []),
      ...(services.prompts
        ? [
            managePromptTool(services.prompts, {
              actorOf: agentActor(config),
              platformPrompts: (caller) => (served.surface ? offeredPlatformPrompts(served.surface, caller) : []),
            }),
          ]
        : []),
      ...(scripts
        ? [
            manageScriptTool(scripts, {
              config,
              ...(runner ? { runner } : {}),
              ...(opts.schedules ? { schedules: opts.schedules } : {}),
              ...(endpoints ? { endpoints: endpointCommands(endpoints) } : {}),
            }),
          ]
        : []),
      ...(knowledge?.tools ?? []),
    ],
    elicitationTriggers: toolkits.elicitationTriggers,
    descriptionOverrides: toolkits.descriptionOverrides,
    // Audit outermost so its duration and outcome cover gating and elicitation too.
    middlewares: opts.middlewares,
    ...(opts.onRefused ? { onRefused: opts.onRefused } : {}),
    ...(db && config.sessions.store === 'database'
      ? { gatingStore: databaseGatingStore(db, memoryGatingStore(config.sessions.idle_timeout)) }
      : {}),
    ...(resources ? { resources: { service: resources, actorOf: agentActor(config) } } : {}),
    ...(opts.resourceChanges ? { resourceChanges: opts.resourceChanges } : {}),
    // Cross-enrichment runs next to the handler, after gating and elicitation (docs/enrichment.md).
    ...(enrichment.middleware ? { innerMiddlewares: [enrichment.middleware] } : {}),
    ...(enrichment.resources ? { templatedResources: [enrichment.resources] } : {}),
    operatorPrompts: services.operatorPrompts,
    ...(services.prompts ? { storedPrompts: storedPrompts(services.prompts, { actorOf: agentActor(config), reserved: () => reserved, ...(opts.promptChanges ? { changes: opts.promptChanges } : {}) }) } : {}),
    ...(knowledge && config.knowledge.apply.enabled ? { reviewQueue: () => knowledge.insights.queue() } : {}),
    hasDatabase: db !== undefined,
  });
  served.surface = surface;
  if (resources && runner) {
    const fetch = config.scripts.fetch;
    served.mainRuns = withRunTools(surface, runTools({ resources, actorOf: agentActor(config), fetchPolicy: { allowHosts: fetch.allow_hosts, timeoutMs: fetch.timeout }, ...followTables }));
  }
  return { surface, ...(runner ? { runner } : {}), ...(knowledge ? { knowledge } : {}) };
}

/**
 * The surface of a main() run's session: every tool plus the run tools (platform.export,
 * platform.publish_data), which whoever may call manage_resource may call.
 */
function withRunTools(surface: McpSurface, tools: ToolDefinition[]): McpSurface {
  const names = new Set(tools.map((t) => t.name));
  const permission = surface.registry.get(RUN_TOOLS_PERMISSION);
  return {
    ...surface,
    registry: new ToolRegistry().register(...surface.registry.all(), ...tools),
    access: {
      ...surface.access,
      mayUse: (tool, caller) => (names.has(tool.name) ? permission !== undefined && surface.access.mayUse(permission, caller) : surface.access.mayUse(tool, caller)),
    },
  };
}

/**
 * MCP callers act as agents: writer records name their session; they cannot move files between
 * libraries. A saved script's run (principal script:<name>) is recorded as that script.
 */
function agentActor(config: PlatformConfig) {
  return (caller: CallerContext, sessionId?: string): ResourceActor => {
    const actor = resourceActor(caller, { config, ...(sessionId ? { sessionId } : {}), origin: 'agent' });
    const script = runningScript(caller);
    return script ? { ...actor, writer: { kind: 'script', scriptId: script.id, name: script.name } } : actor;
  };
}

/** The resource REST routes authenticate as every REST surface does (RouteContext); their callers act as persons. */
function resourceRouteOptions(config: PlatformConfig, service: ResourceService, authenticate: RestAuthenticator, requests: ResourceRequests | undefined): ResourceRoutesOptions {
  return {
    service,
    ...(requests ? { requests } : {}),
    maxUploadBytes: config.resources.managed.max_upload_bytes,
    async actorOf(request) {
      const decision = await authenticate(request);
      if (!decision.ok) return decision;
      // Anonymous callers have no library of their own to act in.
      if (decision.caller.authType === 'anonymous') return unauthenticated();
      return { ok: true, actor: resourceActor(decision.caller, { config, origin: 'person' }) };
    },
  };
}

/**
 * What the worker's scheduled runs need: a ScriptRunner over the worker's own MCP surface (calls
 * inside a run audited like the api's), and the reconcile of the schedules through its client.
 */
function workerScripts(opts: { config: PlatformConfig; log: Logger; db: Db; temporal: TemporalHandle; services: PlatformServices }) {
  const { config, log, db, services } = opts;
  const { log: audit, middleware: auditCalls, onRefused: refusals } = toolCallAudit({ config, log, db, metrics: services.metrics });
  const { surface, runner } = buildPlatformSurface({
    config,
    log,
    services,
    db,
    middlewares: [auditCalls, toolMetricsMiddleware(services.metrics)],
    flushAudit: () => audit.flush(),
    ...(refusals ? { onRefused: refusals } : {}),
    requests: resourceRequests(config, opts.temporal),
  });
  const schedules = new ScriptSchedules({ db, config });
  const client = scheduleClient(config, opts.temporal, log);
  return {
    deps: { runner: runner!, reconcile: async () => client.reconcile(await schedules.all()) },
    async close() {
      surface.close?.();
      await audit.close();
    },
  };
}

/** A worker role started: the worker, and the URL of its /metrics listener when it serves one. */
export interface WorkerRole extends PlatformWorker {
  metricsUrl?: string;
}

/**
 * The worker role: Temporal worker plus Schedules; needs the database and a Temporal address. With
 * the platform services (its own unless given: `platform dev` shares the api's) it runs scheduled
 * script runs (a ScriptRunner over its own MCP surface) and reconciles their Schedules, and
 * compacts webhook windows when `webhooks.compactor.enabled`. Run on its own (`platform worker`) with
 * `metrics.address` set, it serves its /metrics there (the compaction metrics live in this
 * process); sharing the api's services, the api serves them.
 */
export async function startWorkerRole(opts: {
  config: PlatformConfig;
  log: Logger;
  db: Db;
  temporal: TemporalHandle;
  services?: PlatformServices;
}): Promise<WorkerRole> {
  const { config, db, temporal } = opts;
  const log = opts.log.child({ role: 'worker' });
  // Scheduled script runs need the services (scripts, sandbox, tools), so the worker always has them.
  const owned = opts.services ? undefined : await openPlatformServices({ config, log, db, temporal });
  const services = (opts.services ?? owned)!;
  const webhooks =
    services.webhooks && services.resources
      ? webhookActivityDeps({ config, webhooks: services.webhooks, resources: services.resources, metrics: services.metrics, jobs: webhookJobs(temporal.client, config) })
      : undefined;
  const scripts = services.scripts ? workerScripts({ config, log, db, temporal, services }) : undefined;
  // Search indexing reads resource bytes from their store (resources.managed.connection).
  const search = services.resources
    ? { config, db, resources: services.resources, store: services.toolkits.objstore.get(resourceConnectionName(config)).store, ...(services.embedder ? { embedder: services.embedder } : {}) }
    : undefined;
  // Thumbnails draw from and store beside the resource bytes likewise.
  const thumbnails = services.resources ? { config, db, objstore: services.toolkits.objstore, log: log.child({ component: 'thumbnails' }) } : undefined;
  // Archive extraction and folder renames (the resource requests' activities) likewise.
  const resourceRequestDeps = services.resources
    ? { service: services.resources, store: services.toolkits.objstore.get(resourceConnectionName(config)).store, maxUploadBytes: config.resources.managed.max_upload_bytes, ...(services.tables ? { tables: tableHooks(services.tables) } : {}) }
    : undefined;
  let worker: PlatformWorker;
  try {
    worker = await createPlatformWorker({
      config,
      db,
      temporal: { connection: temporal.connection, client: temporal.client },
      log,
      ...(webhooks ? { webhooks } : {}),
      ...(scripts ? { scripts: scripts.deps } : {}),
      ...(search ? { search } : {}),
      ...(thumbnails ? { thumbnails } : {}),
      ...(resourceRequestDeps ? { resources: resourceRequestDeps } : {}),
      ...(services.tables ? { tables: services.tables } : {}),
    });
  } catch (error) {
    await scripts?.close();
    await owned?.close();
    throw error;
  }
  // A change whose push to Temporal was lost (a crash, Temporal away) is pushed now, not at the first pass.
  if (scripts) void scripts.deps.reconcile().catch((error: unknown) => log.warn({ err: error }, 'script schedules not reconciled at start'));
  void worker.run().catch((error: unknown) => log.error({ err: error }, 'temporal worker stopped with an error'));
  const metricsListener =
    !opts.services && config.metrics.address ? await startMetricsListener(owned?.metrics ?? createMetrics(), config.metrics.address, log) : undefined;
  return {
    ...worker,
    ...(metricsListener ? { metricsUrl: metricsListener.url } : {}),
    async shutdown() {
      await metricsListener?.close();
      await worker.shutdown();
      await scripts?.close();
      await owned?.close();
    },
  };
}
