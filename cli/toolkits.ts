import type { PlatformConfig } from '../shared/config/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { ToolDefinition } from '../shared/mcp-tools/index.js';
import type { ElicitationTrigger } from '../shared/elicitation/index.js';
import { createSqlToolkit, type SqlToolkit } from '../shared/sql/index.js';
import { createObjstoreConnections, objstoreTools, type ObjstoreConnections } from '../shared/objstore/index.js';
import { purposeKey } from '../shared/crypto/index.js';
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
  const sql = createSqlToolkit(config, { log: log.child({ toolkit: 'sql' }) });
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
  return {
    tools: [...sql.tools, ...objstoreTools(objstore.tools)],
    elicitationTriggers: [...sql.elicitationTriggers],
    descriptionOverrides: { ...sql.descriptionOverrides },
    objstore,
    sql,
    exportTools: (deps) => exportTools({ ...deps, config, sql }),
    async close() {
      await sql.close();
      await objstore.close();
    },
  };
}
