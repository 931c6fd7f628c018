/**
 * The table locks (migrations/0027_resource_table_locks.sql): a lease row per key, taken, renewed
 * and released by single short statements, so holding one pins no pooled connection, and it is a
 * real lock on embedded PGlite too (whose connections share one backend). Callers of one pool queue
 * in process first, so only holders in other processes are polled for (with a growing delay). The
 * lease is renewed while the work runs; a holder that dies frees its keys when its lease expires.
 */
import { randomUUID } from 'node:crypto';
import { reconnectDelay, type Backoff, type Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';

type Queryable = Pick<Db, 'query'>;

export interface TableLockOptions {
  /** How long a lease lasts without renewal: how long a dead holder keeps others waiting. */
  leaseMs: number;
  /** How often a holder renews its lease (well inside `leaseMs`). */
  renewEveryMs: number;
  /** Wait between attempts while another process holds the key. */
  wait: Backoff;
  /** Called each time an attempt finds the key held by another process (tests, diagnostics). */
  onWait?: (key: string) => void;
}

export const TABLE_LOCK_DEFAULTS: TableLockOptions = {
  leaseMs: 120_000,
  renewEveryMs: 30_000,
  wait: { initialMs: 20, maxMs: 1_000 },
};

/** The lock of one file's tables: registrations, corrections and follow-ups never interleave. */
export function fileLockKey(resourceId: string): string {
  return `file:${resourceId}`;
}

/** The lock of one table name on a connection: two files never register it at once. */
export function nameLockKey(connection: string, table: string): string {
  return `name:${connection}:${table}`;
}

/** In-process queues per pool and key: callers here wait their turn without polling the row. */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

async function localTurn(db: object, key: string): Promise<() => void> {
  let byKey = queues.get(db);
  if (!byKey) queues.set(db, (byKey = new Map()));
  const previous = byKey.get(key) ?? Promise.resolve();
  let done!: () => void;
  const tail = previous.then(() => new Promise<void>((resolve) => (done = resolve)));
  byKey.set(key, tail);
  await previous;
  return () => {
    done();
    if (byKey.get(key) === tail) byKey.delete(key);
  };
}

async function tryLease(db: Queryable, key: string, holder: string, leaseMs: number): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO resource_table_locks (key, holder, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
     ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
     WHERE resource_table_locks.expires_at <= clock_timestamp()`,
    [key, holder, leaseMs],
  );
  return res.rowCount === 1;
}

interface Held {
  key: string;
  holder: string;
  leave: () => void;
  released: boolean;
}

/** Takes `key`: its turn in process, then its lease. */
async function acquire(db: Queryable, key: string, opts: TableLockOptions): Promise<Held> {
  const leave = await localTurn(db, key);
  const holder = randomUUID();
  try {
    for (let attempt = 0; !(await tryLease(db, key, holder, opts.leaseMs)); attempt++) {
      opts.onWait?.(key);
      await new Promise((resolve) => setTimeout(resolve, reconnectDelay(attempt, opts.wait)));
    }
  } catch (error) {
    leave();
    throw error;
  }
  return { key, holder, leave, released: false };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs `work` holding every key of `keys`, taken in the order given (callers take a file's lock
 * before a name's, so two callers never wait on each other in a cycle), released in reverse.
 */
export async function withTableLocks<T>(
  deps: { db: Queryable; log?: Pick<Logger, 'warn'> },
  keys: readonly string[],
  work: () => Promise<T>,
  opts: TableLockOptions = TABLE_LOCK_DEFAULTS,
): Promise<T> {
  const held: Held[] = [];
  const renew = setInterval(() => {
    for (const lock of held) {
      deps.db.query(`UPDATE resource_table_locks SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE key = $1 AND holder = $2`, [lock.key, lock.holder, opts.leaseMs]).then(
        (res) => {
          if (res.rowCount !== 1 && !lock.released) deps.log?.warn({ key: lock.key }, 'table lock lease lost while its work ran (renewed after it expired)');
        },
        (error: unknown) => deps.log?.warn({ key: lock.key, err: { message: message(error) } }, 'table lock lease not renewed'),
      );
    }
  }, opts.renewEveryMs).unref();
  try {
    for (const key of keys) held.push(await acquire(deps.db, key, opts));
    return await work();
  } finally {
    clearInterval(renew);
    for (const lock of held.reverse()) {
      lock.released = true;
      try {
        await deps.db.query(`DELETE FROM resource_table_locks WHERE key = $1 AND holder = $2`, [lock.key, lock.holder]);
      } catch (error) {
        // The database failed us: the lease expires on its own.
        deps.log?.warn({ key: lock.key, err: { message: message(error) } }, 'table lock not released; its lease will expire');
      }
      lock.leave();
    }
  }
}
