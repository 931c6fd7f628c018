/**
 * The table locks (shared/tables/lock.ts; migrations/0027): a file's and a table name's lock is a
 * lease row, so holding one pins no pooled connection, and it is a real lock between two
 * processes (two pools) on Postgres and on embedded PGlite, whose connections share one backend
 * (the session advisory lock it replaced was re-entrant there). A dead holder's lease expires.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, startEmbeddedPostgres, type Db, type EmbeddedPostgres } from '../../shared/db/index.js';
import { TABLE_LOCK_DEFAULTS, withTableLocks, type TableLockOptions } from '../../shared/tables/lock.js';
import { createTestDatabase } from '../support/postgres.js';

/** Resolves with the value of whichever settles first, naming it. */
function first<A, B>(a: Promise<A>, b: Promise<B>): Promise<'first' | 'second'> {
  return Promise.race([a.then(() => 'first' as const), b.then(() => 'second' as const)]);
}

/** Two "processes" take one key: the second waits (it polls the lease) until the first released it. */
async function serialisesAcrossPools(one: Db, two: Db): Promise<void> {
  const order: string[] = [];
  let waited!: () => void;
  const secondWaits = new Promise<void>((resolve) => (waited = resolve));
  const waiting: TableLockOptions = { ...TABLE_LOCK_DEFAULTS, wait: { initialMs: 5, maxMs: 20 }, onWait: () => waited() };
  let entered!: () => void;
  const secondEntered = new Promise<void>((resolve) => (entered = resolve));
  let second: Promise<void> | undefined;
  await withTableLocks({ db: one }, ['file:r1'], async () => {
    order.push('one in');
    second = withTableLocks(
      { db: two },
      ['file:r1'],
      async () => {
        entered();
        order.push('two in');
      },
      waiting,
    );
    // The second must be seen waiting, not inside.
    expect(await first(secondWaits, secondEntered)).toBe('first');
    order.push('one out');
  });
  await second;
  expect(order).toEqual(['one in', 'one out', 'two in']);
  expect((await one.query(`SELECT count(*)::int AS n FROM resource_table_locks`)).rows).toEqual([{ n: 0 }]);
}

describe('table locks on Postgres', () => {
  let database: { dsn: string; drop(): Promise<void> };
  const pools: Db[] = [];
  const pool = (max: number) => {
    const db = createPool({ dsn: database.dsn, maxOpenConns: max });
    pools.push(db);
    return db;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(pool(2));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await database?.drop();
  });

  it('holding a lock pins no pooled connection: work on a pool of one connection still queries it', async () => {
    const db = pool(1);
    const answer = await withTableLocks({ db }, ['file:a', 'name:local:sales_a'], async () => (await db.query<{ n: number }>(`SELECT 1 AS n`)).rows[0]!.n);
    expect(answer).toBe(1);
  });

  it('two processes taking one key are served one after the other', async () => {
    await serialisesAcrossPools(pool(2), pool(2));
  });

  it('callers of one pool queue in process: one after the other, in order', async () => {
    const db = pool(2);
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => withTableLocks({ db }, ['file:q'], async () => void order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });

  it('a dead holder frees its key when its lease expires; a live lease is renewed while its work runs', async () => {
    const db = pool(2);
    await db.query(`INSERT INTO resource_table_locks (key, holder, expires_at) VALUES ('file:dead', 'gone', clock_timestamp() - interval '1 second')`);
    expect(await withTableLocks({ db }, ['file:dead'], async () => 'taken')).toBe('taken');
    let renewed!: () => void;
    const renewal = new Promise<void>((resolve) => (renewed = resolve));
    const short: TableLockOptions = { ...TABLE_LOCK_DEFAULTS, leaseMs: 60_000, renewEveryMs: 10 };
    await withTableLocks({ db }, ['file:live'], async () => {
      const before = (await db.query<{ e: Date }>(`SELECT expires_at AS e FROM resource_table_locks WHERE key = 'file:live'`)).rows[0]!.e;
      // Await the renewal the interval sends: the expiry moves on.
      const watch = setInterval(() => {
        void db.query<{ e: Date }>(`SELECT expires_at AS e FROM resource_table_locks WHERE key = 'file:live'`).then((res) => {
          if (res.rows[0] && res.rows[0].e > before) renewed();
        });
      }, 5);
      await renewal;
      clearInterval(watch);
    }, short);
  });
});

describe('table locks on embedded PGlite', () => {
  let dir: string;
  let pg: EmbeddedPostgres;
  const pools: Db[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tables-locks-pglite-'));
    await chmod(dir, 0o755);
    pg = await startEmbeddedPostgres({ dataDir: dir, prefer: 'pglite' });
    for (let i = 0; i < 2; i++) pools.push(createPool({ dsn: pg.dsn, maxOpenConns: 2 }));
    await migrate(pools[0]!);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await pg?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('two processes taking one key are served one after the other (an advisory lock there is shared by every connection)', async () => {
    await serialisesAcrossPools(pools[0]!, pools[1]!);
  });
});
