/**
 * Migrations 0028 and 0029 on rows written before them. 0028 (script_version_pins): each version
 * is pinned to what it was saved against — every library it reaches, at the version that was that
 * library's newest when the importing version was written — so a library changed after its
 * importer was saved is not what the importer runs. 0029 (retired_script_names): the names of
 * scripts deleted before it, as their runs still carry them, are not given to new scripts.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPool, defaultMigrationsDir, migrate, type Db } from '../../shared/db/index.js';
import { createTestDatabase } from '../support/postgres.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let before: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 2 });
  before = await mkdtemp(join(tmpdir(), 'pins-migration-'));
  const dir = defaultMigrationsDir();
  for (const file of await readdir(dir)) if (file.endsWith('.sql') && file < '0028') await cp(join(dir, file), join(before, file));
  await migrate(db, { dir: before });
});
afterAll(async () => {
  await db?.end();
  await database?.drop();
  if (before) await rm(before, { recursive: true, force: true });
});

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

async function script(id: string, name: string, kind: 'script' | 'library', versions: Array<{ imports: string[]; minute: number }>): Promise<void> {
  await db.query(`INSERT INTO scripts (id, name, owner_subject, kind, current_version, created_at, updated_at) VALUES ($1, $2, 'apikey:alice', $3, $4, $5, $5)`, [
    id,
    name,
    kind,
    versions.length,
    at(versions[0]!.minute),
  ]);
  for (const [i, v] of versions.entries()) {
    await db.query(
      `INSERT INTO script_versions (script_id, number, source, sha256, author_subject, author_roles, kind, entry_points, imports, created_at)
       VALUES ($1, $2, '', '', 'apikey:alice', '{}', $3, $4, $5, $6)`,
      [id, i + 1, kind, kind === 'script' ? ['main'] : [], v.imports, at(v.minute)],
    );
  }
}

it('pins each existing version to the library versions that were newest when it was saved, through the libraries it reaches', async () => {
  await script('00000000-0000-7000-8000-00000000000d', 'deep', 'library', [
    { imports: [], minute: 0 },
    { imports: [], minute: 30 },
  ]);
  await script('00000000-0000-7000-8000-00000000000f', 'fmt', 'library', [
    { imports: ['deep'], minute: 10 },
    { imports: [], minute: 40 },
  ]);
  // Saved at minute 20: fmt v1 and deep v1 were the newest then; both changed afterwards.
  await script('00000000-0000-7000-8000-00000000000a', 'job', 'script', [{ imports: ['fmt'], minute: 20 }]);
  // Imports a name no library had (never pinned: its run fails as an unknown library).
  await script('00000000-0000-7000-8000-00000000000b', 'orphan', 'script', [{ imports: ['gone'], minute: 50 }]);
  // Runs of a deleted script (script_id cleared, its name kept) and of a live one.
  for (const [id, name] of [
    [null, 'deleted-job'],
    ['00000000-0000-7000-8000-00000000000a', 'job'],
  ] as const) {
    await db.query(
      `INSERT INTO script_runs (id, script_id, script_name, version, trigger, status, duration_ms, started_at, finished_at, caller_subject, principal)
       VALUES (gen_random_uuid()::text, $1, $2, 1, 'draft', 'ok', 1, $3, $3, 'apikey:alice', $4)`,
      [id, name, at(55), `script:${name}`],
    );
  }

  await migrate(db);

  const { rows } = await db.query<{ name: string; number: number; library: string; library_version: number }>(
    `SELECT s.name, p.number, p.library, p.library_version FROM script_version_pins p JOIN scripts s ON s.id = p.script_id ORDER BY s.name, p.number, p.library`,
  );
  expect(rows).toEqual([
    { name: 'fmt', number: 1, library: 'deep', library_version: 1 },
    { name: 'job', number: 1, library: 'deep', library_version: 1 },
    { name: 'job', number: 1, library: 'fmt', library_version: 1 },
  ]);
});

// The rows above were migrated by the test before this one (tests of a file run in order).
it("retires the names of scripts deleted before it, and only those", async () => {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM retired_script_names ORDER BY name');
  expect(rows).toEqual([{ name: 'deleted-job' }]);
});
