/** Small derived facts about a parsed config that several components need. */

import path from 'node:path';
import type { PlatformConfig } from './schema.js';

/**
 * Whether audit records are actually written. `audit.enabled` keeps the value the
 * file gave; without database.dsn the loader warns and audit is a no-op
 * (spec document 1, Errors: "warning logged; no-op audit logger").
 */
export function auditActive(config: PlatformConfig): boolean {
  return config.audit.enabled && config.database.dsn !== undefined;
}

/** DuckDB file of a `toolkits.sql.<name>` instance with engine duckdb: its `path`, else `<data_dir>/sql/<name>.duckdb`. */
export function duckdbPath(config: PlatformConfig, name: string): string {
  return config.toolkits.sql[name]?.path ?? path.join(config.data_dir, 'sql', `${name}.duckdb`);
}

/** Root directory of a `toolkits.objstore.<name>` instance with driver filesystem: its `root`, else `<data_dir>/objstore/<name>`. */
export function objstoreRoot(config: PlatformConfig, name: string): string {
  return config.toolkits.objstore[name]?.root ?? path.join(config.data_dir, 'objstore', name);
}

/**
 * The objstore instance holding managed-resource bytes: `resources.managed.connection`, else
 * `portal.s3_connection`, else the alphabetically first instance; undefined when none is configured.
 */
export function resourceStoreName(config: PlatformConfig): string | undefined {
  return config.resources.managed.connection ?? config.portal.s3_connection ?? Object.keys(config.toolkits.objstore).sort()[0];
}
