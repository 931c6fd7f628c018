import pg from 'pg';

export type Db = pg.Pool;

/** Minimal logger shape used by this module (pino's Logger satisfies it). */
export interface DbLog {
  info(o: object, msg: string): void;
  warn?(o: object, msg: string): void;
}

export interface CreatePoolOptions {
  /** Connection string (`database.dsn`). Parameters in the DSN win over the defaults below. */
  dsn: string;
  /** `database.max_open_conns`: the pool never opens more connections than this. */
  maxOpenConns: number;
  applicationName?: string;
  /** How long a checkout may wait for a new connection before failing (ms). */
  connectionTimeoutMs?: number;
  log?: DbLog;
  /**
   * The connections share one backend session (embedded PGlite multiplexes them onto its single
   * backend): a statement prepared by name on one exists on all, and a second connection preparing
   * it fails. Named queries then run unnamed (parsed each time).
   */
  sharedBackend?: boolean;
}

/** A query config without its statement name (pg prepares a named statement once per connection). */
function unnamed(query: unknown): unknown {
  if (query === null || typeof query !== 'object' || !('name' in query)) return query;
  const { name: _name, ...rest } = query as { name?: string };
  return rest;
}

/**
 * A connection pool sized by `database.max_open_conns`.
 * Sessions run in UTC so SQL-side date arithmetic agrees with the application's clock.
 */
export function createPool(opts: CreatePoolOptions): Db {
  if (!Number.isInteger(opts.maxOpenConns) || opts.maxOpenConns < 1) {
    throw new Error(`database.max_open_conns must be a positive integer, got ${String(opts.maxOpenConns)}`);
  }
  const pool = new pg.Pool({
    connectionString: opts.dsn,
    max: opts.maxOpenConns,
    application_name: opts.applicationName ?? 'platform',
    options: '-c TimeZone=UTC',
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 10_000,
  });
  // An idle client that loses its server (restart, network) emits 'error' on the pool; without a
  // listener Node would crash the process. The pool already discards that client; the next
  // checkout reconnects or reports the failure to its caller.
  pool.on('error', (err) => {
    opts.log?.warn?.({ err: { message: err.message } }, 'idle database connection failed');
  });
  if (opts.sharedBackend) {
    // Every client, whether checked out or used by pool.query, goes through its own query method.
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((config: unknown, ...rest: unknown[]) => query(unnamed(config), ...rest)) as typeof client.query;
    });
  }
  return pool;
}

/**
 * Runs `fn` inside BEGIN/COMMIT on one pooled client; ROLLBACK when it throws.
 * The client always goes back to the pool; a client whose ROLLBACK failed is destroyed instead,
 * because its session state is unknown.
 */
export async function withTransaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let broken: Error | undefined;
  try {
    try {
      await client.query('BEGIN');
    } catch (err) {
      broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    }
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackErr) {
        broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
      }
      throw err;
    }
  } finally {
    client.release(broken);
  }
}

/**
 * Readiness probe: true when `SELECT 1` answers within `timeoutMs`.
 * Never throws; a refused, hung or failing connection is simply "not ready".
 */
export async function pingDb(db: Db, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = db.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
