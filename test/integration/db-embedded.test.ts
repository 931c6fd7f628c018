import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPool,
  migrate,
  pingDb,
  startEmbeddedPostgres,
  type Db,
  type EmbeddedPostgres,
  type StartEmbeddedOptions,
} from '../../shared/db/index.js';
import { findPgBinaries } from '../../shared/db/pg-binaries.js';

const haveBinaries = (await findPgBinaries()).length > 0;

const started: EmbeddedPostgres[] = [];
const pools: Db[] = [];
const dirs: string[] = [];

/**
 * A fresh data dir. mkdtemp makes it 0700; widen it so that, when tests run as root, the
 * `postgres` OS user the cluster runs as can reach the folders below it.
 */
async function dataDir(prefix = 'db-embedded-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  dirs.push(dir);
  return dir;
}

async function start(opts: StartEmbeddedOptions): Promise<EmbeddedPostgres> {
  const pg = await startEmbeddedPostgres(opts);
  started.push(pg);
  return pg;
}

function pool(dsn: string, maxOpenConns = 4, sharedBackend = false): Db {
  const p = createPool({ dsn, maxOpenConns, applicationName: 'db-embedded-test', sharedBackend });
  pools.push(p);
  return p;
}

async function endPools(): Promise<void> {
  await Promise.all(pools.splice(0).map((p) => p.end()));
}

afterEach(async () => {
  await endPools();
  for (const pg of started.splice(0).reverse()) await pg.stop().catch(() => undefined);
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** start → migrate → write → stop → start again on the same dir → the data is still there. */
async function roundTrip(kind: 'cluster' | 'pglite', dir: string): Promise<void> {
  const first = await start({ dataDir: dir, prefer: kind });
  expect(first.kind).toBe(kind);
  let db = pool(first.dsn);
  expect(await pingDb(db)).toBe(true);
  const result = await migrate(db);
  expect(result.applied).toContain('0001_mcp_sessions');
  await db.query("INSERT INTO mcp_sessions (id, subject, protocol_version) VALUES ('s1', 'alice', '2025-06-18')");
  await endPools();
  await first.stop();
  await first.stop(); // idempotent

  const second = await start({ dataDir: dir, prefer: kind });
  expect(second.kind).toBe(kind);
  db = pool(second.dsn);
  const rows = await db.query('SELECT id, subject FROM mcp_sessions');
  expect(rows.rows).toEqual([{ id: 's1', subject: 'alice' }]);
  expect((await migrate(db)).applied).toEqual([]);
  await endPools();
  await second.stop();
}

describe.skipIf(!haveBinaries)('embedded postgres: private cluster', () => {
  it('initialises under <dataDir>/postgres, serves only a Unix socket, and keeps data across restarts', async () => {
    const dir = await dataDir();
    const pg = await start({ dataDir: dir, prefer: 'cluster' });
    const socketDir = join(dir, 'postgres', 'run');
    expect(pg.dsn).toBe(`postgresql://postgres@localhost/platform?host=${encodeURIComponent(socketDir)}`);
    expect(existsSync(join(dir, 'postgres', 'data', 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(socketDir, '.s.PGSQL.5432'))).toBe(true);
    const db = pool(pg.dsn);
    const res = await db.query(
      "SELECT current_database() AS db, current_setting('listen_addresses') AS listen, inet_server_addr() AS addr",
    );
    expect(res.rows[0]).toEqual({ db: 'platform', listen: '', addr: null });
    await endPools();
    await pg.stop();

    await roundTrip('cluster', dir);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'falls back to PGlite when, as root, the postgres OS user cannot reach the data dir',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'db-embedded-private-')); // 0700, owned by root
      dirs.push(dir);
      const warnings: string[] = [];
      const pg = await start({ dataDir: dir, log: { info: () => undefined, warn: (_o, msg) => warnings.push(msg) } });
      expect(pg.kind).toBe('pglite');
      expect(warnings).toEqual(['private Postgres cluster unavailable here; using embedded PGlite']);
      expect(existsSync(join(dir, 'postgres', 'data'))).toBe(false);
      expect(await pingDb(pool(pg.dsn))).toBe(true);
    },
  );

  it('is the default for a fresh data dir when binaries exist', async () => {
    const pg = await start({ dataDir: await dataDir() });
    expect(pg.kind).toBe('cluster');
  });

  it('recovers from a stale postmaster.pid left by a killed server', async () => {
    const dir = await dataDir();
    const pg = await start({ dataDir: dir, prefer: 'cluster' });
    let db = pool(pg.dsn);
    await db.query('CREATE TABLE t (v text)');
    await db.query("INSERT INTO t VALUES ('kept')");
    await endPools();

    const pidFile = join(dir, 'postgres', 'data', 'postmaster.pid');
    const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
        await sleep(50);
      } catch {
        break;
      }
    }
    expect(existsSync(pidFile)).toBe(true); // the dead server could not clean up

    const again = await start({ dataDir: dir, prefer: 'cluster' });
    db = pool(again.dsn);
    const rows = await db.query('SELECT v FROM t');
    expect(rows.rows).toEqual([{ v: 'kept' }]);
    const newPid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    expect(newPid).not.toBe(pid);
  });

  it('reuses a server left running by an earlier process', async () => {
    const dir = await dataDir();
    await start({ dataDir: dir, prefer: 'cluster' }); // never stopped, like a crashed platform
    const pid = (await readFile(join(dir, 'postgres', 'data', 'postmaster.pid'), 'utf8')).split('\n')[0];
    const reused = await start({ dataDir: dir, prefer: 'cluster' });
    expect((await readFile(join(dir, 'postgres', 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]).toBe(pid);
    expect(await pingDb(pool(reused.dsn))).toBe(true);
  });

  it('moves the socket to a short folder under the temp dir when the data dir path is too long', async () => {
    let dir = await dataDir();
    while (Buffer.byteLength(join(dir, 'postgres', 'run', '.s.PGSQL.5432')) <= 107) dir = join(dir, 'long-segment');
    await mkdir(dir, { recursive: true, mode: 0o755 });
    const pg = await start({ dataDir: dir, prefer: 'cluster' });
    const host = decodeURIComponent(new URL(pg.dsn).searchParams.get('host') ?? '');
    expect(host.startsWith(join(tmpdir(), 'platform-pg-'))).toBe(true);
    expect(Buffer.byteLength(join(host, '.s.PGSQL.5432'))).toBeLessThanOrEqual(107);
    expect(await pingDb(pool(pg.dsn))).toBe(true);
    await pg.stop();
    await rm(host, { recursive: true, force: true });
  });
});

describe('embedded postgres: PGlite', () => {
  it('serves PGlite on loopback, migrates, and keeps data across restarts', async () => {
    const dir = await dataDir();
    await roundTrip('pglite', dir);
    expect(existsSync(join(dir, 'postgres', 'pglite', 'PG_VERSION'))).toBe(true);
  });

  it('applies each migration once when two runs share its single backend', async () => {
    const pg = await start({ dataDir: await dataDir(), prefer: 'pglite' });
    expect(pg.dsn).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres\?sslmode=disable$/);
    const [a, b] = await Promise.all([migrate(pool(pg.dsn)), migrate(pool(pg.dsn))]);
    const applied = [...a.applied, ...b.applied].sort();
    expect(new Set(applied).size).toBe(applied.length);
    expect(applied).toEqual([...new Set([...a.applied, ...a.alreadyApplied])].sort());
    const db = pool(pg.dsn);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(rows.rows[0]!.n).toBe(applied.length);
  });

  it('named statements work on every connection of its shared backend (the pool runs them unnamed)', async () => {
    const pg = await start({ dataDir: await dataDir(), prefer: 'pglite' });
    const named = { name: 'shared-backend-probe', text: 'SELECT $1::int + 1 AS n', values: [1] };
    // Two connections at once: one held, the other serving pool.query.
    const both = async (db: Db) => {
      const held = await db.connect();
      try {
        return await Promise.all([held.query(named), db.query(named)]);
      } finally {
        held.release();
      }
    };
    await expect(both(pool(pg.dsn, 2))).rejects.toThrow(/already exists/);
    for (const result of await both(pool(pg.dsn, 2, true))) expect(result.rows).toEqual([{ n: 2 }]);
  });

  it('refuses to open the same store twice, and reuses an existing PGlite store by default', async () => {
    const dir = await dataDir();
    const pg = await start({ dataDir: dir, prefer: 'pglite' });
    await expect(startEmbeddedPostgres({ dataDir: dir, prefer: 'pglite' })).rejects.toThrow(/already open/);
    await pg.stop();
    const reused = await start({ dataDir: dir });
    expect(reused.kind).toBe('pglite');
  });
});
