/**
 * Finds (or builds) the external binaries the platform and its tests start: the Temporal CLI
 * (its dev server is the embedded durable-jobs backend) and MinIO (object-store contract tests).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../logging/index.js';
import {
  executableName,
  locateBinary,
  locateGo,
  missingToolMessage,
  toolSpecs,
  type LookupDeps,
  type ToolName,
} from './lookup.js';

export type ToolLog = Pick<Logger, 'info' | 'warn'>;

export interface EnsureBinaryOptions {
  log?: ToolLog;
  /** Build with `go install` when nothing is found (default true). */
  allowBuild?: boolean;
  /** Injected for tests; defaults to the real process environment. */
  env?: NodeJS.ProcessEnv;
}

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function realDeps(env: NodeJS.ProcessEnv): LookupDeps {
  return { env, homedir: homedir(), platform: process.platform, isExecutable: isExecutableFile };
}

/** Returns the absolute path of `name`, building it into the tool cache when needed and allowed. */
export async function ensureBinary(name: ToolName, opts: EnsureBinaryOptions = {}): Promise<string> {
  const deps = realDeps(opts.env ?? process.env);
  const found = locateBinary(name, deps);
  if (found.kind === 'found') return found.path;
  if (found.kind === 'bad-env') {
    throw new Error(`${found.envVar} is set to "${found.value}", which is not an absolute path to an executable file.`);
  }
  if (opts.allowBuild === false) throw new Error(missingToolMessage(name, 'building is disabled'));
  const go = locateGo(deps);
  if (!go) throw new Error(missingToolMessage(name, 'Go is not installed, so it cannot be built'));
  await buildWithLock(name, go, found.cacheBin, found.cachePath, deps, opts.log);
  return found.cachePath;
}

/** A lock older than this belongs to a build that died without cleaning up (a cold Temporal build takes minutes). */
const staleLockMs = 60 * 60_000;
const lockPollMs = 1_000;

/** Whether a process with this pid exists (EPERM: it does, but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the lock file's owner is gone or the lock is too old to be a live build. */
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

/**
 * Builds under an exclusive lock file so that two processes (parallel test files, api + worker)
 * never run the same `go install` at once; a waiter reuses the winner's binary.
 */
async function buildWithLock(
  name: ToolName,
  go: string,
  cacheBin: string,
  cachePath: string,
  deps: LookupDeps,
  log?: ToolLog,
): Promise<void> {
  await mkdir(cacheBin, { recursive: true });
  const lockPath = join(cacheBin, `.${name}.lock`);
  let announcedWait = false;
  for (;;) {
    if (deps.isExecutable(cachePath)) return;
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
        log?.info({ tool: name, lockPath }, 'waiting for another process to finish building the tool');
        announcedWait = true;
      }
      await new Promise((r) => setTimeout(r, lockPollMs));
      continue;
    }
    try {
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      // Another process may have finished between our check and taking the lock.
      if (deps.isExecutable(cachePath)) return;
      await goInstall(name, go, cacheBin, cachePath, deps, log);
      return;
    } finally {
      await rm(lockPath, { force: true });
    }
  }
}

async function goInstall(
  name: ToolName,
  go: string,
  cacheBin: string,
  cachePath: string,
  deps: LookupDeps,
  log?: ToolLog,
): Promise<void> {
  const spec = toolSpecs[name];
  // Build into a private directory, then rename: readers never see a half-written binary.
  const stage = join(cacheBin, `.build-${name}-${process.pid}`);
  await rm(stage, { recursive: true, force: true });
  await mkdir(stage, { recursive: true });
  log?.info({ tool: name, package: spec.goPackage, into: cacheBin }, 'building tool with go install (takes a few minutes the first time)');
  const started = Date.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(go, ['install', spec.goPackage], {
        env: { ...deps.env, GOBIN: stage },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let tail = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        tail = (tail + chunk).slice(-4000);
      });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(`go install ${spec.goPackage} failed (${signal ?? `exit ${code}`}):\n${tail.trim()}`));
      });
    });
    const built = join(stage, executableName(name, deps.platform));
    if (!deps.isExecutable(built)) throw new Error(`go install ${spec.goPackage} produced no ${built}`);
    await rename(built, cachePath);
    log?.info({ tool: name, path: cachePath, seconds: Math.round((Date.now() - started) / 1000) }, 'tool built');
  } catch (err) {
    throw new Error(missingToolMessage(name, (err as Error).message));
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
