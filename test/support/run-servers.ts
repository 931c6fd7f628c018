/**
 * Servers shared by every test process of one run (one Trino, one MinIO): the first caller starts
 * the server under the run's directory (PLATFORM_TEST_RUN_DIR, which test/global-setup.ts creates)
 * and records it as `<name>.json`; the others read the record. At the end of the run the global
 * teardown stops every recorded server. Outside such a run (no run directory), each process starts
 * its own and stops it on exit.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, readFile, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const runDirVariable = 'PLATFORM_TEST_RUN_DIR';

/** What a shared server's record holds: at least the process to stop (a process-group leader). */
export interface ServerRecord {
  pid: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Stops a detached server (its whole process group). */
export function stopProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

const own = new Map<string, Promise<ServerRecord>>();

/**
 * The run's server `name`, started by `start(dir)` on first use: `start` launches it detached
 * under `dir` and answers its record once it is ready.
 */
export function sharedServer<T extends ServerRecord>(name: string, start: (dir: string) => Promise<T>): Promise<T> {
  const runDir = process.env[runDirVariable];
  if (!runDir) {
    let started = own.get(name) as Promise<T> | undefined;
    if (!started) {
      started = (async () => {
        const dir = mkdtempSync(join(tmpdir(), `platform-${name}-`));
        const record = await start(dir);
        process.once('exit', () => {
          stopProcessGroup(record.pid);
          rmSync(dir, { recursive: true, force: true });
        });
        return record;
      })();
      own.set(name, started);
    }
    return started;
  }
  return withLock(join(runDir, `${name}.lock`), async () => {
    const known = join(runDir, `${name}.json`);
    if (existsSync(known)) return JSON.parse(await readFile(known, 'utf8')) as T;
    const dir = join(runDir, name);
    mkdirSync(dir, { recursive: true });
    const record = await start(dir);
    await writeFile(known, JSON.stringify(record));
    return record;
  });
}

/** For the run's teardown: stops every server recorded under `runDir`. */
export function stopSharedServers(runDir: string): void {
  for (const file of readdirSync(runDir).filter((f) => f.endsWith('.json'))) {
    const record = JSON.parse(readFileSync(join(runDir, file), 'utf8')) as Partial<ServerRecord>;
    if (typeof record.pid === 'number') stopProcessGroup(record.pid);
  }
}
