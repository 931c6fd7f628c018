import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPool, pingDb, withTransaction, type Db } from '../../shared/db/index.js';
import { createTestDatabase } from '../support/postgres.js';

let database: { dsn: string; drop(): Promise<void> };
const pools: Db[] = [];

function pool(maxOpenConns: number, applicationName = 'db-pool-test', dsn = database.dsn): Db {
  const p = createPool({ dsn, maxOpenConns, applicationName, connectionTimeoutMs: 5_000 });
  pools.push(p);
  return p;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = pool(1);
  await db.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

afterAll(async () => {
  await database.drop();
});

describe('createPool', () => {
  it('never opens more connections than database.max_open_conns', async () => {
    const app = `pool-size-${process.pid}`;
    const db = pool(3, app);
    expect(db.options.max).toBe(3);

    const held = await Promise.all([db.connect(), db.connect(), db.connect()]);
    let fourthReady = false;
    const fourth = db.connect().then((c) => {
      fourthReady = true;
      return c;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(fourthReady).toBe(false);
    expect(db.waitingCount).toBe(1);

    const observer = pool(1, 'db-pool-observer');
    const seen = await observer.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [app],
    );
    expect(seen.rows[0]!.n).toBe(3);

    held[0]!.release();
    const c4 = await fourth;
    expect(db.totalCount).toBe(3);
    c4.release();
    for (const c of held.slice(1)) c.release();
  });

  it('runs sessions in UTC and names them', async () => {
    const db = pool(1, 'named-app');
    const res = await db.query("SELECT current_setting('TimeZone') AS tz, current_setting('application_name') AS app");
    expect(res.rows[0]).toEqual({ tz: 'UTC', app: 'named-app' });
  });

  it('rejects a pool size below one', () => {
    expect(() => createPool({ dsn: database.dsn, maxOpenConns: 0 })).toThrow(/max_open_conns/);
  });
});

describe('withTransaction', () => {
  it('commits and returns the callback result', async () => {
    const db = pool(2);
    const out = await withTransaction(db, async (c) => {
      await c.query("INSERT INTO items VALUES (1, 'one')");
      return 'done';
    });
    expect(out).toBe('done');
    const res = await db.query('SELECT label FROM items WHERE id = 1');
    expect(res.rows).toEqual([{ label: 'one' }]);
    expect(db.idleCount).toBe(db.totalCount);
  });

  it('rolls back everything when the callback throws, rethrows, and releases the client', async () => {
    const db = pool(1);
    const boom = new Error('boom');
    await expect(
      withTransaction(db, async (c) => {
        await c.query("INSERT INTO items VALUES (2, 'two')");
        throw boom;
      }),
    ).rejects.toBe(boom);
    const res = await db.query('SELECT count(*)::int AS n FROM items WHERE id = 2');
    expect(res.rows[0].n).toBe(0);
    // With a pool of one, this would hang if the client had not been released.
    expect(db.idleCount).toBe(1);
  });

  it('rolls back on a failing statement', async () => {
    const db = pool(1);
    await expect(
      withTransaction(db, async (c) => {
        await c.query("INSERT INTO items VALUES (3, 'three')");
        await c.query("INSERT INTO items VALUES (3, 'duplicate')");
      }),
    ).rejects.toThrow(/duplicate key/);
    const res = await db.query('SELECT count(*)::int AS n FROM items WHERE id = 3');
    expect(res.rows[0].n).toBe(0);
  });
});

describe('pingDb', () => {
  it('is true for a live database', async () => {
    expect(await pingDb(pool(1))).toBe(true);
  });

  it('is false, quickly, for a refused connection', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const db = pool(1, 'dead', `postgresql://postgres@127.0.0.1:${port}/postgres`);
    const started = Date.now();
    expect(await pingDb(db, 500)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('is false after the timeout for a server that never answers', async () => {
    const sockets: Socket[] = [];
    const blackhole: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', () => r()));
    const { port } = blackhole.address() as AddressInfo;
    const db = pool(1, 'hung', `postgresql://postgres@127.0.0.1:${port}/postgres`);
    const started = Date.now();
    expect(await pingDb(db, 200)).toBe(false);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(2_000);
    // Let the pending connection attempt fail so the pool can end.
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => blackhole.close(() => r()));
  });
});
