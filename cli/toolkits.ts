import type { PlatformConfig } from '../shared/config/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { ToolDefinition } from '../shared/mcp-tools/index.js';
import type { ElicitationTrigger } from '../shared/elicitation/index.js';
import { createSqlToolkit, type SqlToolkit } from '../shared/sql/index.js';
import { createObjstoreConnections, objstoreTools, type ObjstoreConnections } from '../shared/objstore/index.js';
import { purposeKey } from '../shared/crypto/index.js';
import { createCatalogToolkit, type CatalogToolkit, type PlatformConnectionSummary } from '../shared/catalog/index.js';
import { buildEnrichment, catalogPiiTags, familyReach, semanticProviderFor, type SemanticProvider } from '../shared/enrichment/index.js';
import { createSessionDedup } from '../shared/enrichment/dedup/index.js';
import { personaToolAccess } from '../shared/personas/index.js';
import type { Db } from '../shared/db/index.js';
import { exportTools, type ExportToolsDeps } from '../shared/exports/index.js';

/** The configured toolkits' tools and the hooks they add to the MCP surface. */
export interface Toolkits {
  tools: ToolDefinition[];
  elicitationTriggers: ElicitationTrigger[];
  /** Per-instance tool descriptions; `tools.description_overrides` still wins over them. */
  descriptionOverrides: Record<string, string>;
  /** The platform's handles on object storage; the objstore tools and the presign route get only `objstore.tools`. */
  objstore: ObjstoreConnections;
  /** The SQL connections (the platform's own uses: webhook tables in their scratch catalogs). */
  sql: SqlToolkit;
  /** The catalog instances and their clients (the enrichment providers' source of metadata). */
  catalog: CatalogToolkit;
  /** `semantic.provider: catalog` over its instance: enrichment's and the PII consent trigger's source. */
  semantic?: SemanticProvider;
  /** sql_export, api_export and graphql_export over these toolkits, once the resources they write exist. */
  exportTools(deps: Omit<ExportToolsDeps, 'config' | 'sql'>): ToolDefinition[];
  close(): Promise<void>;
}

export interface ToolkitOptions {
  /** The api's public base URL, for presigned filesystem URLs; known only once the api listens. */
  publicUrl: () => string;
  /** Buckets created on first use, per objstore connection (the embedded `local/default`). */
  seedBuckets?: Record<string, readonly string[]>;
}

export async function buildToolkits(config: PlatformConfig, log: Logger, opts: ToolkitOptions): Promise<Toolkits> {
  // The catalog first: its semantic provider is the PII consent trigger's tag source.
  const catalog = createCatalogToolkit(config, { log: log.child({ toolkit: 'catalog' }), platformConnections: () => platformConnections() });
  const semantic = semanticProviderFor(config, (instance) => catalog.connections.connection(instance).client);
  const sql = createSqlToolkit(config, { log: log.child({ toolkit: 'sql' }), ...(semantic ? { piiTags: catalogPiiTags(semantic) } : {}) });
  const objstore = createObjstoreConnections(config, {
    presign: {
      baseUrl: () => config.portal.public_base_url || opts.publicUrl(),
      key: await purposeKey({
        dataDir: config.data_dir,
        purpose: 'objstore-presign',
        ...(config.secrets.encryption_key ? { encryptionKey: config.secrets.encryption_key } : {}),
      }),
    },
    ...(opts.seedBuckets ? { seedBuckets: opts.seedBuckets } : {}),
  });
  // What catalog_list_connections shows beside the catalogs: where data can be queried or stored.
  const platformConnections = (): PlatformConnectionSummary[] => [
    ...[...sql.connections.values()].map((c) => ({
      kind: 'sql' as const,
      name: c.name,
      ...(c.displayName !== c.name ? { display_name: c.displayName } : {}),
      engine: c.config.engine,
      is_default: c.name === sql.defaultConnection,
      read_only: c.config.read_only,
    })),
    ...objstore.tools.list().map((c) => ({
      kind: 'objstore' as const,
      name: c.name,
      ...(c.displayName !== c.name ? { display_name: c.displayName } : {}),
      engine: c.driver,
      is_default: c.name === objstore.tools.defaultConnection,
      read_only: c.readOnly,
    })),
  ];
  return {
    tools: [...sql.tools, ...objstoreTools(objstore.tools), ...catalog.tools],
    elicitationTriggers: [...sql.elicitationTriggers],
    descriptionOverrides: { ...catalog.descriptionOverrides, ...sql.descriptionOverrides },
    objstore,
    sql,
    catalog,
    ...(semantic ? { semantic } : {}),
    exportTools: (deps) => exportTools({ ...deps, config, sql }),
    async close() {
      await sql.close();
      await objstore.close();
    },
  };
}

/**
 * Cross-enrichment over the toolkits (docs/enrichment.md), for every MCP surface (api and stdio):
 * the providers, the middleware and the `resources.enabled` resources; a family's context reaches
 * only callers whose persona may use that family's tools; session de-duplication in the session
 * store's place (memory, or the database with `sessions.store: database`) — none for `sessions:
 * 'none'` (stdio has no session id to keep it by).
 */
export function toolkitEnrichment(config: PlatformConfig, log: Logger, toolkits: Toolkits, sessions: { db: Db | undefined } | 'none') {
  const catalogs = toolkits.catalog.connections;
  return buildEnrichment({
    config,
    ...(toolkits.semantic ? { semantic: toolkits.semantic } : {}),
    ...(toolkits.sql.connections.size ? { sqlConnection: (name?: string) => toolkits.sql.connection(name) } : {}),
    ...(toolkits.objstore.tools.list().length ? { objstoreConnection: (name?: string) => toolkits.objstore.tools.get(name) } : {}),
    ...(catalogs.connections.size ? { catalogClient: (instance?: string) => catalogs.connection(instance).client } : {}),
    reach: familyReach(toolkits.tools, personaToolAccess(config.personas)),
    ...(sessions === 'none' ? {} : { dedup: createSessionDedup(config, sessions.db, log.child({ component: 'enrichment-dedup' })) }),
    log: log.child({ component: 'enrichment' }),
  });
}
