// Platform database: connection pool, transactions, a LISTEN connection, forward-only migrations, and the embedded
// Postgres that `platform dev` uses when `database.dsn` is not configured.
export { createPool, withTransaction, pingDb, type Db, type DbLog, type CreatePoolOptions } from './pool.js';
export { listen, reconnectDelay, type ListenOptions, type Listening, type Backoff } from './listen.js';
export {
  migrate,
  MigrationError,
  defaultMigrationsDir,
  findMigrationsDir,
  loadMigrations,
  planMigrations,
  parseMigrationFileName,
  MIGRATION_LOCK_KEY,
  type MigrationResult,
  type MigrationFile,
  type AppliedMigration,
} from './migrate.js';
export { startEmbeddedPostgres, type StartEmbeddedOptions } from './embedded.js';
export type { EmbeddedPostgres, EmbeddedLog } from './embedded-types.js';
