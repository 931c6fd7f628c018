import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Db, DbLog } from './pool.js';

/** A migration could not be applied, or the recorded history disagrees with the files. */
export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

export interface MigrationResult {
  /** Versions+names (`0003_foo`) applied by this run, in order. */
  applied: string[];
  /** Versions+names that were already recorded before this run (or by a concurrent run). */
  alreadyApplied: string[];
}

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
  sql: string;
  /** sha256 hex of the file's bytes. */
  checksum: string;
}

export interface AppliedMigration {
  version: string;
  name: string;
  checksum: string;
}

/**
 * Fixed key of the session-level advisory lock that serialises migration runs across replicas
 * (first 8 bytes of sha256("agent-data-platform:schema_migrations") as a signed bigint).
 */
export const MIGRATION_LOCK_KEY = '1538849071150152398';

const fileNamePattern = /^(\d{4})_([A-Za-z0-9][A-Za-z0-9_-]*)\.sql$/;

/** `0001_mcp_sessions.sql` → `{ version: '0001', name: 'mcp_sessions' }`; null when not a migration name. */
export function parseMigrationFileName(file: string): { version: string; name: string } | null {
  const m = fileNamePattern.exec(file);
  return m ? { version: m[1]!, name: m[2]! } : null;
}

export function migrationFileName(m: { version: string; name: string }): string {
  return `${m.version}_${m.name}.sql`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The nearest `migrations/` folder that sits next to a `package.json`, walking up from `start`.
 * Null when there is none up to the filesystem root.
 */
export function findMigrationsDir(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, 'migrations');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate) && statSync(candidate).isDirectory()) {
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The repository's `migrations/` folder, found from this module's location so it resolves both
 * from the sources (`shared/db/`) and from a compiled build (`dist/shared/db/`).
 */
export function defaultMigrationsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const dir = findMigrationsDir(here);
  if (!dir) throw new MigrationError(`no migrations/ folder next to a package.json above ${here}`);
  return dir;
}

/** Reads every `NNNN_name.sql` file of `dir`, sorted by version. Misnamed or duplicate files fail closed. */
export async function loadMigrations(dir: string): Promise<MigrationFile[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    throw new MigrationError(`cannot read migrations folder ${dir}`, { cause: err });
  }
  const byVersion = new Map<string, MigrationFile>();
  for (const file of entries.sort()) {
    if (!file.endsWith('.sql')) continue;
    const parsed = parseMigrationFileName(file);
    if (!parsed) {
      throw new MigrationError(`migration file ${file} is not named NNNN_name.sql`);
    }
    const existing = byVersion.get(parsed.version);
    if (existing) {
      throw new MigrationError(`migrations ${existing.file} and ${file} share version ${parsed.version}`);
    }
    const bytes = await readFile(join(dir, file));
    byVersion.set(parsed.version, { ...parsed, file, sql: bytes.toString('utf8'), checksum: sha256Hex(bytes) });
  }
  return [...byVersion.values()].sort((a, b) => a.version.localeCompare(b.version));
}

/**
 * Compares the recorded history with the files. Throws when a recorded migration's file is missing
 * or was edited; otherwise returns the files still to apply, in order.
 */
export function planMigrations(
  files: readonly MigrationFile[],
  applied: readonly AppliedMigration[],
): { pending: MigrationFile[]; alreadyApplied: string[] } {
  const byVersion = new Map(files.map((f) => [f.version, f]));
  const recorded = [...applied].sort((a, b) => a.version.localeCompare(b.version));
  for (const row of recorded) {
    const file = byVersion.get(row.version);
    if (!file) {
      throw new MigrationError(
        `migration ${migrationFileName(row)} was applied but its file is missing (forward-only: restore the file)`,
      );
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(`migration ${file.file} was edited after it was applied (checksum mismatch)`);
    }
  }
  const done = new Set(recorded.map((r) => r.version));
  return {
    pending: files.filter((f) => !done.has(f.version)),
    alreadyApplied: files.filter((f) => done.has(f.version)).map((f) => `${f.version}_${f.name}`),
  };
}

const createTableSql = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version    text PRIMARY KEY,
  name       text NOT NULL,
  checksum   text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

async function readApplied(client: pg.PoolClient): Promise<AppliedMigration[]> {
  const res = await client.query<AppliedMigration>('SELECT version, name, checksum FROM schema_migrations');
  return res.rows;
}

/**
 * Applies pending migrations in order. Safe to run from several replicas at once:
 *
 * - One dedicated client takes a session-level advisory lock, and that same client runs every
 *   transaction. Nothing waits on a second connection while a transaction is open, which matters
 *   for embedded PGlite (its connections share one backend, so a second connection would block).
 * - Because PGlite's connections share one session, the advisory lock does not exclude them from
 *   each other there; each migration therefore re-checks its row inside its own transaction, which
 *   PGlite runs exclusively, so a file is still applied exactly once.
 * - Each migration runs in its own transaction together with its `schema_migrations` row, so a
 *   file must not contain BEGIN/COMMIT or statements that cannot run in a transaction
 *   (e.g. CREATE INDEX CONCURRENTLY).
 * - Before anything is applied, every recorded migration must still have its file, unchanged.
 */
export async function migrate(db: Db, opts: { dir?: string; log?: DbLog } = {}): Promise<MigrationResult> {
  const dir = resolve(opts.dir ?? defaultMigrationsDir());
  const files = await loadMigrations(dir);
  const client = await db.connect();
  let broken: Error | undefined;
  try {
    try {
      // Session-level, on the client that then runs the transactions (see above).
      await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    } catch (err) {
      broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    }
    try {
      return await applyLocked(client, files, opts.log);
    } finally {
      try {
        await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      } catch (err) {
        // The session is unusable; destroying it also drops the lock.
        broken = err instanceof Error ? err : new Error(String(err));
      }
    }
  } finally {
    client.release(broken);
  }
}

async function applyLocked(client: pg.PoolClient, files: MigrationFile[], log?: DbLog): Promise<MigrationResult> {
  await client.query(createTableSql);
  const plan = planMigrations(files, await readApplied(client));
  const result: MigrationResult = { applied: [], alreadyApplied: [...plan.alreadyApplied] };
  for (const m of plan.pending) {
    const id = `${m.version}_${m.name}`;
    await client.query('BEGIN');
    try {
      const row = await client.query<AppliedMigration>(
        'SELECT version, name, checksum FROM schema_migrations WHERE version = $1',
        [m.version],
      );
      if (row.rows[0]) {
        // Applied meanwhile by a run sharing this session (embedded PGlite); verify, don't re-run.
        planMigrations([m], row.rows);
        await client.query('ROLLBACK');
        result.alreadyApplied.push(id);
        continue;
      }
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        m.checksum,
      ]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (err instanceof MigrationError) throw err;
      const msg = err instanceof Error ? err.message : String(err);
      throw new MigrationError(`migration ${m.file} failed: ${msg}`, { cause: err });
    }
    result.applied.push(id);
    log?.info({ version: m.version, name: m.name, checksum: m.checksum }, 'migration applied');
  }
  return result;
}
