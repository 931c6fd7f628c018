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
