/**
 * One process at a time for a job several processes may start at once (parallel test files, api +
 * worker, `npm install` beside `npm start`): an exclusive lock file holding the owner's pid. A
 * waiter polls, and skips the job when the winner has done it; a lock whose owner is gone (or too
 * old to be a live job) is broken.
 */
import { open, readFile, rm, stat } from 'node:fs/promises';

/** A lock older than this belongs to a job that died without cleaning up (a cold Temporal build takes minutes). */
const staleLockMs = 60 * 60_000;
const lockPollMs = 1_000;

/** Whether a process with this pid exists (EPERM: it does, but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the lock file's owner is gone or the lock is too old to be a live job. */
async function lockIsStale(lockPath: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    const pid = Number.parseInt(text.trim(), 10);
    if (Date.now() - info.mtimeMs > staleLockMs) return true;
    return Number.isInteger(pid) && pid > 0 ? !processAlive(pid) : false;
  } catch {
    return false; // vanished or unreadable mid-write: let the next poll decide
  }
}

export interface FileLockJob {
  /** Whether the job's result is already there (checked before and after taking the lock). */
  done(): boolean | Promise<boolean>;
  run(): Promise<void>;
  /** Called once when another process holds the lock. */
  onWait?: () => void;
}

/** Runs `job.run` under the lock at `lockPath` unless `job.done()` (its directory must exist). */
export async function withFileLock(lockPath: string, job: FileLockJob): Promise<void> {
  let announcedWait = false;
  for (;;) {
    if (await job.done()) return;
    let handle;
    try {
      handle = await open(lockPath, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await lockIsStale(lockPath)) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (!announcedWait) {
        job.onWait?.();
        announcedWait = true;
      }
      await new Promise((r) => setTimeout(r, lockPollMs));
      continue;
    }
    try {
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      // Another process may have finished between our check and taking the lock.
      if (await job.done()) return;
      await job.run();
      return;
    } finally {
      await rm(lockPath, { force: true });
    }
  }
}
