import { resourceStoreName, type PlatformConfig } from '../shared/config/index.js';
import type { Db } from '../shared/db/index.js';
import type { Logger } from '../shared/logging/index.js';
import { createMetrics, type Metrics } from '../shared/metrics/index.js';
import { pdfReader } from '../shared/pdf/index.js';
import { createResourceService, ResourceJobDispatcher, resourceJobMetrics, type ResourceService } from '../shared/resources/index.js';
import type { TemporalHandle } from '../shared/temporal/index.js';
import { temporalJobStarter } from '../worker/index.js';
import { EndpointStore } from '../shared/endpoints/index.js';
import { botCheckSettingsSection, publicBindingRefusal } from '../shared/botcheck/index.js';
import { PlatformSettings } from '../shared/settings/index.js';
import { createSandbox, ScriptStore, type Sandbox } from '../shared/scripts/index.js';
import { openEmbeddings, type Embedder } from '../shared/search/index.js';
import { platformScratchStorage } from '../shared/sql/scratch/index.js';
import { tableReferences, type TableDeps } from '../shared/tables/index.js';
import { buildToolkits, type Toolkits } from './toolkits.js';
import { assetReferences, createAssetService, type AssetService } from '../shared/assets/index.js';
import { createWebhookServices, type WebhookServices } from './webhooks.js';
import type { PromptDefinition } from '../shared/mcp-content/index.js';
import { configuredPrompts, createPromptService, loadPromptsDir, promptReferences, PromptsDirError, reservedPromptNames, type PromptService } from '../shared/prompts/index.js';

/**
 * The services the api and the worker roles share: the toolkits (SQL, object storage), managed
 * resources and the dispatcher of their jobs, inbound webhooks, managed scripts and their sandbox, and the metrics registry. `platform dev` opens them once for both
 * roles (one process may hold an embedded DuckDB file only once); `serve` and `worker` each open
 * their own.
 */
export interface PlatformServices {
  metrics: Metrics;
  toolkits: Toolkits;
  /** Needs the platform database and an object store for its bytes. */
  resources?: ResourceService;
  /**
   * Starts the workflows of resource jobs (indexing, …) right after a write commits, and sweeps
   * the outbox for jobs a crash or a failed start left; needs the database and a Temporal client.
   */
  resourceJobs?: ResourceJobDispatcher;
  /** Needs the platform database and the platform storage. */
  webhooks?: WebhookServices;
  /** Semantic search's embedder: needs managed resources, an embedding provider and pgvector (else search is lexical only). */
  embedder?: Embedder;
  /** Table registration (manage_table, the upload and follow hooks, registerTable's activity): needs managed resources. */
  tables?: TableDeps;
  /** Assets and their shares (issue 38): `portal.enabled`, the platform database and an object store. */
  assets?: AssetService;
  /** Prompts people and agents store, with resources attached (issue 40): needs managed resources. */
  prompts?: PromptService;
  /** The operator's prompts: server.prompts, then `tuning.prompts_dir`'s, read at start-up (a bad file stops the start). */
  operatorPrompts: PromptDefinition[];
  /** Managed scripts and libraries; needs the platform database. */
  scripts?: ScriptStore;
  /** Scripts' endpoint bindings; needs the platform database. A public one is bound as the bot-check settings allow. */
  endpoints?: EndpointStore;
  /** Runs scripts (one per process, at most `scripts.max_concurrent_runs` at once, capped per caller and with slots kept for handlers); its threads start on first run. */
  sandbox: Sandbox;
  /** The api's public base URL, known once it listens (presigned filesystem URLs). */
  publicUrl: { current: string };
  close(): Promise<void>;
}

export async function openPlatformServices(opts: {
  config: PlatformConfig;
  log: Logger;
  db?: Db;
  /** This process's Temporal client: with it (and a database), resource jobs start from here. */
  temporal?: TemporalHandle;
  /** Buckets created on first use, per objstore connection (the embedded default bucket). */
  seedBuckets?: Record<string, readonly string[]>;
}): Promise<PlatformServices> {
  const { config, log, db, temporal } = opts;
  const operatorPrompts = [...configuredPrompts(config), ...(await operatorDirPrompts(config))];
  const metrics = createMetrics();
  const publicUrl = { current: '' };
  const toolkits = await buildToolkits(config, log, { publicUrl: () => publicUrl.current, ...(opts.seedBuckets ? { seedBuckets: opts.seedBuckets } : {}) });
  const sandbox = createSandbox({
    maxConcurrent: config.scripts.max_concurrent_runs,
    maxPerPrincipal: config.scripts.max_runs_per_caller,
    reservedForHandlers: config.scripts.handler_reserved_runs,
  });
  // One PDF reader per process (shared/pdf), for search extraction, fetch and thumbnails alike.
  pdfReader.configure(config.resources.pdf);
  // Without Temporal, a write's jobs wait in the outbox for a process that has it (docs/resources.md, "Jobs").
  const resourceJobs =
    db && temporal
      ? new ResourceJobDispatcher({
          db,
          starter: temporalJobStarter(temporal.client),
          platformQueue: config.temporal.task_queue,
          log: log.child({ component: 'resource-jobs' }),
          metrics: resourceJobMetrics(metrics.registry),
        })
      : undefined;
  try {
    // Registered tables read the resources' bytes through the connections' scratch catalogs, and hold a delete up.
    const tableStorage = db && Object.keys(config.toolkits.objstore).length > 0 ? await platformScratchStorage(config, toolkits.objstore) : undefined;
    const resources =
      db && Object.keys(config.toolkits.objstore).length > 0
        ? createResourceService({
            config,
            db,
            objstore: toolkits.objstore,
            log: log.child({ component: 'resources' }),
            ...(resourceJobs ? { jobs: resourceJobs } : {}),
            // Registered tables and assets hold a delete up (and assets name themselves under Used by).
            references: [...(tableStorage ? [tableReferences({ db, sql: toolkits.sql, storage: tableStorage })] : []), assetReferences(db), promptReferences(db)],
          })
        : undefined;
    const assets =
      db && config.portal.enabled && Object.keys(config.toolkits.objstore).length > 0
        ? createAssetService({
            config,
            db,
            objstore: toolkits.objstore,
            ...(resources ? { resources } : {}),
            log: log.child({ component: 'assets' }),
            publicBaseUrl: () => publicUrl.current || undefined,
          })
        : undefined;
    // Stored prompts may not take the names of the operator's prompts or of any workflow prompt.
    const reserved = reservedPromptNames(operatorPrompts);
    const prompts = db && resources ? createPromptService({ config, db, resources, reservedNames: () => reserved }) : undefined;
    const tables: TableDeps | undefined =
      db && resources && tableStorage
        ? { db, resources, sql: toolkits.sql, storage: tableStorage, log: log.child({ component: 'tables' }), ...(resourceJobs ? { jobs: resourceJobs } : {}) }
        : undefined;
    const embedder = db && resources ? await openEmbeddings(config.resources.search.embeddings, db, log.child({ component: 'search' })) : undefined;
    const webhooks =
      db && resourceStoreName(config) !== undefined
        ? await createWebhookServices({ config, db, objstore: toolkits.objstore, sql: toolkits.sql, metrics, log })
        : undefined;
    resourceJobs?.startSweeping();
    return {
      metrics,
      toolkits,
      ...(resources ? { resources } : {}),
      ...(resourceJobs ? { resourceJobs } : {}),
      ...(webhooks ? { webhooks } : {}),
      ...(embedder ? { embedder } : {}),
      ...(tables ? { tables } : {}),
      ...(assets ? { assets } : {}),
      ...(prompts ? { prompts } : {}),
      operatorPrompts,
      ...(db ? { scripts: new ScriptStore({ db, config }), endpoints: endpointStore(db, config) } : {}),
      sandbox,
      publicUrl,
      async close() {
        // Dispatches under way finish first: their rows are settled before the pool closes.
        await resourceJobs?.close();
        await sandbox.close();
        await toolkits.close();
      },
    };
  } catch (error) {
    await sandbox.close().catch(() => undefined);
    await toolkits.close().catch(() => undefined);
    throw error;
  }
}

/** tuning.prompts_dir's prompts; a name a server.prompts entry has is a start-up error too. */
async function operatorDirPrompts(config: PlatformConfig): Promise<PromptDefinition[]> {
  if (!config.tuning.prompts_dir) return [];
  const prompts = await loadPromptsDir(config.tuning.prompts_dir);
  const configured = new Set(config.server.prompts.map((p) => p.name));
  const clash = prompts.find((p) => configured.has(p.name));
  if (clash) throw new PromptsDirError(`prompt name "${clash.name}" is also a server.prompts entry's`);
  return prompts;
}

/** The binding store, refusing a public endpoint while the bot-check settings cannot protect it. */
function endpointStore(db: Db, config: PlatformConfig): EndpointStore {
  const settings = new PlatformSettings(db);
  return new EndpointStore({ db, config, publicEndpointRefusal: async () => publicBindingRefusal(await settings.read(botCheckSettingsSection)) });
}
