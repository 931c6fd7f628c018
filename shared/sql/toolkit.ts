/**
 * The SQL toolkit from configuration: engines for every `toolkits.sql.<instance>`, the sql_* tools
 * over them, and the embedded default of `platform dev`.
 */
import path from 'node:path';
import { duckdbPath, platformConfigSchema, type PlatformConfig, type SqlInstanceConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import type { ToolDefinition } from '../mcp-tools/index.js';
import { createSqlEngine, defaultConnectionName, resolveConnection, type EngineBuildOptions, type SqlConnection } from './connections.js';
import type { ElicitationTrigger } from '../elicitation/index.js';
import { sqlElicitationTriggers, type PiiTagProvider } from './elicitation.js';
import { sqlTools } from './tools.js';

export interface SqlToolkitDeps {
  log: Logger;
  /** Column tags for the PII consent trigger; the catalog toolkit provides one. Default: no tags. */
  piiTags?: PiiTagProvider;
  /** Monotonic clock in ms for reported durations (default performance.now). */
  now?: () => number;
  /** Directories DuckDB SQL may read files under (none by default). */
  duckdbAllowedDirectories?: readonly string[];
}

export interface SqlToolkit {
  /** Empty when no SQL connection is configured. */
  tools: ToolDefinition[];
  connections: ReadonlyMap<string, SqlConnection>;
  defaultConnection: string | undefined;
  /** The named (or default) connection; throws SqlConnectionError for an unknown name. */
  connection(name?: string): SqlConnection;
  /**
   * The cost and PII triggers of sql_query for the elicitation framework (buildMcpSurface's
   * `elicitationTriggers`); each follows its `elicitation.*` switch. Empty without connections.
   */
  elicitationTriggers: ElicitationTrigger[];
  /** Per-instance `descriptions`, to merge under `tools.description_overrides` in the listing rules. */
  descriptionOverrides: Record<string, string>;
  /** Closes every engine (releases DuckDB files). */
  close(): Promise<void>;
}

/**
 * Per-instance `descriptions` merged into one map (tools are shared by all connections): the
 * default connection's text wins, the others fill in tools it does not describe.
 */
export function sqlDescriptionOverrides(config: PlatformConfig): Record<string, string> {
  const names = Object.keys(config.toolkits.sql).sort();
  const first = defaultConnectionName(names);
  const ordered = first ? [first, ...names.filter((n) => n !== first)] : names;
  const out: Record<string, string> = {};
  for (const name of ordered.reverse()) Object.assign(out, config.toolkits.sql[name]?.descriptions ?? {});
  return out;
}

/**
 * Builds the toolkit. Engines are created now (configuration errors surface at startup: a Trino
 * password without ssl fails closed) but connect lazily on first use.
 */
export function createSqlToolkit(config: PlatformConfig, deps: SqlToolkitDeps): SqlToolkit {
  const engineOptions: EngineBuildOptions = deps.duckdbAllowedDirectories ? { duckdbAllowedDirectories: deps.duckdbAllowedDirectories } : {};
  const connections = new Map<string, SqlConnection>();
  for (const [name, instance] of Object.entries(config.toolkits.sql)) {
    connections.set(name, {
      name,
      displayName: instance.connection_name ?? name,
      config: instance,
      engine: createSqlEngine(config, name, engineOptions),
    });
  }
  const defaultConnection = defaultConnectionName(connections.keys());
  for (const c of connections.values()) {
    // Where each connection points, never its password.
    const where = c.config.engine === 'duckdb' ? { path: duckdbPath(config, c.name) } : { host: c.config.host, port: c.config.port, ssl: c.config.ssl };
    deps.log.info({ connection: c.name, engine: c.config.engine, read_only: c.config.read_only, default: c.name === defaultConnection, ...where }, 'sql connection');
  }
  const descriptionOverrides = sqlDescriptionOverrides(config);
  const tools =
    connections.size === 0
      ? []
      : sqlTools({
          connections,
          defaultConnection,
          descriptions: descriptionOverrides,
          ...(deps.now ? { now: deps.now } : {}),
        });
  const connection = (name?: string) => resolveConnection(connections, defaultConnection, name);
  return {
    tools,
    connections,
    defaultConnection,
    connection,
    elicitationTriggers:
      connections.size === 0
        ? []
        : sqlElicitationTriggers({ connection, settings: config.elicitation, ...(deps.piiTags ? { piiTags: deps.piiTags } : {}) }),
    descriptionOverrides,
    async close() {
      await Promise.all([...connections.values()].map((c) => c.engine.close()));
    },
  };
}

/** The name of the embedded connection `platform dev` offers when none is configured. */
export const EMBEDDED_SQL_CONNECTION = 'local';

/**
 * `toolkits.sql.local` for `platform dev` with nothing configured: DuckDB in
 * `<dataDir>/sql/local.duckdb` (catalog `local`; schemas `main`, `scratch` and the generated
 * `sample`), every other key at its spec default.
 */
export function embeddedSqlInstance(dataDir: string): SqlInstanceConfig {
  // Through the config schema, so every other key gets exactly its spec default.
  const instance = platformConfigSchema.parse({
    toolkits: {
      sql: {
        [EMBEDDED_SQL_CONNECTION]: {
          engine: 'duckdb',
          path: path.join(dataDir, 'sql', `${EMBEDDED_SQL_CONNECTION}.duckdb`),
          description: 'Embedded DuckDB database in the data directory, with a generated sample dataset (schema sample).',
        },
      },
    },
  }).toolkits.sql[EMBEDDED_SQL_CONNECTION];
  if (!instance) throw new Error('embedded SQL instance did not parse');
  return instance;
}
