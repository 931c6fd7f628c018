import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPool,
  defaultMigrationsDir,
  findMigrationsDir,
  loadMigrations,
  migrate,
  MigrationError,
  MIGRATION_LOCK_KEY,
  type Db,
} from '../../shared/db/index.js';
import { createTestDatabase } from '../support/postgres.js';

const repoRoot = resolve(fileURLToPath(import.meta.url), '../../..');

let database: { dsn: string; drop(): Promise<void> };
let pools: Db[];
let dirs: string[];
let db: Db;

function pool(): Db {
  const p = createPool({ dsn: database.dsn, maxOpenConns: 4, applicationName: 'db-migrate-test' });
  pools.push(p);
  return p;
}

async function tempMigrations(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'db-migrations-'));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
  return dir;
}

async function tableExists(name: string): Promise<boolean> {
  const res = await db.query('SELECT to_regclass($1) IS NOT NULL AS ok', [name]);
  return res.rows[0].ok === true;
}

async function recorded(): Promise<string[]> {
  const res = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
  return res.rows.map((r) => r.version);
}

beforeEach(async () => {
  database = await createTestDatabase();
  pools = [];
  dirs = [];
  db = pool();
});

afterEach(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await database.drop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('migrate() with the repository migrations', () => {
  it('finds migrations/ next to package.json from the module location', () => {
    expect(defaultMigrationsDir()).toBe(join(repoRoot, 'migrations'));
  });

  it('resolves the same folder from a compiled dist/ tree', async () => {
    const pkg = await mkdtemp(join(tmpdir(), 'db-pkg-'));
    dirs.push(pkg);
    await writeFile(join(pkg, 'package.json'), '{}');
    await mkdir(join(pkg, 'migrations'));
    await mkdir(join(pkg, 'dist', 'shared', 'db'), { recursive: true });
    // dist/ has no package.json, and a stray migrations/ without one is not the repository's.
    await mkdir(join(pkg, 'dist', 'migrations'));
    expect(findMigrationsDir(join(pkg, 'dist', 'shared', 'db'))).toBe(join(pkg, 'migrations'));
    expect(findMigrationsDir(tmpdir())).toBeNull();
  });

  it('applies every file in order, records checksums, and applies nothing the second time', async () => {
    const files = await loadMigrations(defaultMigrationsDir());
    const names = files.map((f) => `${f.version}_${f.name}`);
    expect(names.slice(0, 2)).toEqual(['0001_mcp_sessions', '0002_api_keys']);

    const logged: object[] = [];
    const first = await migrate(db, { log: { info: (o) => logged.push(o) } });
    expect(first).toEqual({ applied: names, alreadyApplied: [] });
    expect(logged).toHaveLength(names.length);
    expect(await tableExists('mcp_sessions')).toBe(true);
    expect(await tableExists('api_keys')).toBe(true);

    const rows = await db.query<{ version: string; name: string; checksum: string; applied_at: Date }>(
      'SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version',
    );
    expect(rows.rows.map((r) => r.version)).toEqual(files.map((f) => f.version));
    const bytes = await readFile(join(repoRoot, 'migrations', '0001_mcp_sessions.sql'));
    expect(rows.rows[0]!.name).toBe('mcp_sessions');
    expect(rows.rows[0]!.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(rows.rows[0]!.applied_at).toBeInstanceOf(Date);

    const second = await migrate(db);
    expect(second).toEqual({ applied: [], alreadyApplied: names });
    expect(await recorded()).toEqual(files.map((f) => f.version));
  });
});

describe('migrate() with a temporary migrations folder', () => {
  it('refuses a migration edited after it was applied, and applies nothing further', async () => {
    const dir = await tempMigrations({ '0001_a.sql': 'CREATE TABLE a (id int);' });
    expect((await migrate(db, { dir })).applied).toEqual(['0001_a']);

    await writeFile(join(dir, '0001_a.sql'), 'CREATE TABLE a (id bigint);');
    await writeFile(join(dir, '0002_b.sql'), 'CREATE TABLE b (id int);');
    const err = await migrate(db, { dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toBe('migration 0001_a.sql was edited after it was applied (checksum mismatch)');
    expect(await tableExists('b')).toBe(false);
    expect(await recorded()).toEqual(['0001']);
  });

  it('refuses when an applied migration file is missing, and applies nothing further', async () => {
    const dir = await tempMigrations({
      '0001_a.sql': 'CREATE TABLE a (id int);',
      '0002_b.sql': 'CREATE TABLE b (id int);',
    });
    await migrate(db, { dir });
    await unlink(join(dir, '0002_b.sql'));
    await writeFile(join(dir, '0003_c.sql'), 'CREATE TABLE c (id int);');

    await expect(migrate(db, { dir })).rejects.toThrow(MigrationError);
    await expect(migrate(db, { dir })).rejects.toThrow(/0002_b\.sql was applied but its file is missing/);
    expect(await tableExists('c')).toBe(false);
    expect(await recorded()).toEqual(['0001', '0002']);
  });

  it('rolls back a failing migration together with its record, then applies it once fixed', async () => {
    const dir = await tempMigrations({
      '0001_a.sql': 'CREATE TABLE a (id int);',
      '0002_bad.sql': 'CREATE TABLE half (id int);\nSELECT * FROM no_such_table;',
      '0003_c.sql': 'CREATE TABLE c (id int);',
    });
    const err = await migrate(db, { dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toMatch(/^migration 0002_bad\.sql failed: .*no_such_table/);
    expect(await tableExists('a')).toBe(true);
    expect(await tableExists('half')).toBe(false);
    expect(await tableExists('c')).toBe(false);
    expect(await recorded()).toEqual(['0001']);

    // Never applied, so it may still be edited.
    await writeFile(join(dir, '0002_bad.sql'), 'CREATE TABLE half (id int);');
    expect(await migrate(db, { dir })).toEqual({ applied: ['0002_bad', '0003_c'], alreadyApplied: ['0001_a'] });
  });

  it('releases the advisory lock and its client after a failure', async () => {
    const dir = await tempMigrations({ '0001_bad.sql': 'SELECT * FROM no_such_table;' });
    await expect(migrate(db, { dir })).rejects.toThrow(MigrationError);
    const other = pool();
    const res = await other.query('SELECT pg_try_advisory_lock($1::bigint) AS got', [MIGRATION_LOCK_KEY]);
    expect(res.rows[0].got).toBe(true);
    expect(db.totalCount).toBe(db.idleCount);
  });

  it('fails closed on misnamed or duplicate migration files', async () => {
    const misnamed = await tempMigrations({ '1_a.sql': 'SELECT 1;' });
    await expect(migrate(db, { dir: misnamed })).rejects.toThrow(/1_a\.sql is not named NNNN_name\.sql/);
    const duplicate = await tempMigrations({ '0001_a.sql': 'SELECT 1;', '0001_b.sql': 'SELECT 1;' });
    await expect(migrate(db, { dir: duplicate })).rejects.toThrow(/share version 0001/);
    // Other files in the folder (notes, READMEs) are ignored.
    const withReadme = await tempMigrations({ '0001_a.sql': 'SELECT 1;', 'README.md': '# notes' });
    expect((await migrate(db, { dir: withReadme })).applied).toEqual(['0001_a']);
  });

  it('lets two concurrent runs (two replicas) both succeed, applying each file exactly once', async () => {
    // No IF NOT EXISTS: applying any file twice would fail the run.
    const dir = await tempMigrations({
      '0001_a.sql': 'CREATE TABLE a (id int);',
      '0002_slow.sql': 'SELECT pg_sleep(0.3);\nCREATE TABLE slow (id int);',
      '0003_c.sql': 'CREATE TABLE c (id int);',
      '0004_d.sql': 'CREATE TABLE d (id int);',
    });
    const replicaA = pool();
    const replicaB = pool();
    const [a, b] = await Promise.all([migrate(replicaA, { dir }), migrate(replicaB, { dir })]);

    const all = ['0001_a', '0002_slow', '0003_c', '0004_d'];
    expect([...a.applied, ...b.applied].sort()).toEqual(all);
    // Under the lock one run applies everything; the other finds it all recorded.
    expect([a.applied.length, b.applied.length].sort()).toEqual([0, 4]);
    expect([...a.alreadyApplied, ...b.alreadyApplied].sort()).toEqual(all);
    expect(await recorded()).toEqual(['0001', '0002', '0003', '0004']);
  });
});
