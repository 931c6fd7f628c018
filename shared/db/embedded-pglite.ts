import { processAlive } from '../toolchain/index.js';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmbeddedLog, EmbeddedPostgres } from './embedded-types.js';

/**
 * PGlite (Postgres compiled to WASM) persisted under `<root>/pglite`, served to `pg` clients on a
 * random 127.0.0.1 port by @electric-sql/pglite-socket.
 *
 * Limits callers must respect: every connection shares one backend, so session state (advisory
 * locks, SET) is shared, and while one connection holds a transaction open the others wait. Code
 * must never wait on a second connection from inside a transaction.
 */

/** Data dirs open in this process. */
const openHere = new Set<string>();

/** PGlite's files must be opened by one process at a time; a pid file guards that. */
async function acquireLock(lockFile: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
        throw new Error(`embedded PGlite database is in use by process ${pid} (${lockFile})`);
      }
      // Our own pid here means a previous run with the same pid (containers restart as pid 1):
      // stale, since opening twice within this process is refused by the caller.
      await unlink(lockFile).catch(() => undefined); // stale: its process is gone
    }
  }
  throw new Error(`cannot lock embedded PGlite database (${lockFile})`);
}


export async function startPglite(opts: {
  root: string;
  log: EmbeddedLog;
  maxConnections: number;
}): Promise<EmbeddedPostgres> {
  const dir = join(opts.root, 'pglite');
  const lockFile = join(opts.root, 'pglite.lock');
  if (openHere.has(dir)) throw new Error(`embedded PGlite database ${dir} is already open in this process`);
  openHere.add(dir);
  let locked = false;
  try {
    await mkdir(dir, { recursive: true });
    await acquireLock(lockFile);
    locked = true;
    // Loaded lazily: the WASM module is large and unused when a real cluster is available.
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    // Extensions the migrations create (pg_trgm: search's name similarity, migrations/0021).
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    // pgvector: the vectors of semantic search (migrations/0022; search stays lexical without it).
    const { vector } = await import('@electric-sql/pglite-pgvector');
    const db = await PGlite.create(dir, { extensions: { pg_trgm, vector } });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: opts.maxConnections });
    try {
      await server.start();
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
    // getServerConn() is "host:port" once listening (port 0 is replaced by the assigned one).
    const port = Number(server.getServerConn().split(':').pop());
    opts.log.info({ dir, port }, 'embedded PGlite started');
    let stopped = false;
    return {
      dsn: `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
      kind: 'pglite',
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await server.stop();
          await db.close();
        } finally {
          openHere.delete(dir);
          await unlink(lockFile).catch(() => undefined);
        }
        opts.log.info({ dir }, 'embedded PGlite stopped');
      },
    };
  } catch (err) {
    openHere.delete(dir);
    if (locked) await unlink(lockFile).catch(() => undefined);
    throw err;
  }
}
