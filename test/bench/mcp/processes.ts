/**
 * The benchmark's processes: the platform (`platform serve` from the sources), the bare-route
 * server and the load generator, each a child of the orchestrator, and how each is stopped.
 * bench:mcp-anchor starts its Go servers (the anchor, barego) with startServer too.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledBuildIsFresh } from '../../../bin/source-stamp.js';
import { isExecutableFile, locateGo, toolCacheDir } from '../../../shared/toolchain/index.js';
import type { LoadMessage, RoundRequest, RoundResult } from './workloads.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..');
/** The forked TypeScript scripts run through tsx's loader, resolved here so the cwd does not matter. */
const tsxLoader = import.meta.resolve('tsx');

export const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Children started as leaders of their own process group (the platform and its cluster workers). */
const groupLeaders = new WeakSet<ChildProcess>();

/** SIGTERM (the platform drains and stops its own workers), then SIGKILL after `graceMs` — to the whole group of a group leader. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(groupLeaders.has(child) ? -child.pid : child.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

/** Rejects when the child exits: raced against what we wait for, so a crash never leaves us waiting. */
function exitAsError(child: ChildProcess, describe: () => string): { promise: Promise<never>; dispose(): void } {
  let onExit: (code: number | null, signal: NodeJS.Signals | null) => void = () => undefined;
  const promise = new Promise<never>((_, reject) => {
    onExit = (code, signal) => reject(new Error(`${describe()} exited (${signal ?? `code ${code}`}) before it was ready`));
    child.once('exit', onExit);
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => child.off('exit', onExit) };
}

function lastLines(file: string, count: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Whether `init` to `url` answers 200 (a readiness probe). */
export async function answers200(url: string, init: RequestInit = {}): Promise<boolean> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Spawns a server logging to `logFile` and resolves once `isReady` (default: GET <url>/readyz
 * answers 200). A group leader can be stopped together with its children (the platform's cluster
 * workers).
 */
export async function startServer(opts: {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  logFile: string;
  url: string;
  group: boolean;
  timeoutMs?: number;
  isReady?: () => Promise<boolean>;
  /** Called as soon as the process exists, before it is ready (to register its stop). */
  onSpawn?: (child: ChildProcess) => void;
}): Promise<ChildProcess> {
  const log = openSync(opts.logFile, 'a');
  const child = spawn(opts.command, opts.args, { env: opts.env ?? process.env, stdio: ['ignore', log, log], detached: opts.group });
  closeSync(log);
  opts.onSpawn?.(child);
  if (opts.group) groupLeaders.add(child);
  const crashed = exitAsError(child, () => `${opts.name} (log ${opts.logFile}):\n${lastLines(opts.logFile, 20)}\n`);
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  const isReady = opts.isReady ?? (() => answers200(`${opts.url}/readyz`));
  try {
    while (!(await Promise.race([isReady(), crashed.promise]))) {
      if (Date.now() > deadline) throw new Error(`${opts.name} did not become ready at ${opts.url}/readyz; its log:\n${lastLines(opts.logFile, 20)}`);
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), crashed.promise]);
    }
    return child;
  } catch (error) {
    await stopChild(child);
    throw error;
  } finally {
    crashed.dispose();
  }
}

/** What `platform` runs: the TypeScript sources through tsx, or the compiled build (dist/, `npm run build`). */
export type PlatformCode = 'sources' | 'compiled';

/**
 * Compiles dist/ unless it was compiled from the sources as they are now (bin/source-stamp.js),
 * so a compiled run never measures stale code.
 */
export function ensureCompiledBuild(): void {
  if (compiledBuildIsFresh(repoRoot)) return;
  const built = spawnSync(process.execPath, ['--import', tsxLoader, join(repoRoot, 'scripts', 'build-server.ts')], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0 || !compiledBuildIsFresh(repoRoot)) throw new Error('npm run build failed: the compiled platform cannot be measured');
}

/**
 * Starts `platform serve -c <configFile>` — from the TypeScript sources unless `code` is
 * `compiled` (then ensureCompiledBuild first) — logging to `logFile` at the default level, and
 * resolves once GET /readyz answers 200. It leads a process group of its own, so its cluster
 * workers can be found (CPU) and stopped with it. `env` adds variables (those the configuration's
 * `${VAR}`s name).
 */
export async function startPlatform(opts: {
  configFile: string;
  logFile: string;
  url: string;
  code?: PlatformCode;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  onSpawn?: (child: ChildProcess) => void;
}): Promise<ChildProcess> {
  if (opts.code === 'compiled') ensureCompiledBuild();
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env, PLATFORM_FROM_SOURCE: opts.code === 'compiled' ? '0' : '1' };
  // The configuration file decides: default log level, its own data_dir.
  delete env.LOG_LEVEL;
  delete env.PLATFORM_DATA_DIR;
  return startServer({
    name: 'the platform',
    command: process.execPath,
    args: [join(repoRoot, 'bin', 'platform.js'), 'serve', '-c', opts.configFile],
    env,
    logFile: opts.logFile,
    url: opts.url,
    group: true,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
  });
}

/** The Go anchor's module (test/bench/go-anchor): mark3labs/mcp-go serving the workloads' tools. */
const goAnchorDir = join(here, '..', 'go-anchor');

/**
 * Builds the Go anchor into the tool cache (`go build` is incremental) and starts it on `port`;
 * the reason instead when it cannot (no Go toolchain, a failed build).
 */
export async function startGoAnchor(opts: { port: number; key: string; objectFile: string; bucket: string; logFile: string }): Promise<ChildProcess | string> {
  const deps = { env: process.env, homedir: homedir(), platform: process.platform, isExecutable: isExecutableFile };
  const go = locateGo(deps);
  if (!go) return 'no Go toolchain found (PATH, GOROOT, /usr/local/go)';
  const binary = join(toolCacheDir(process.env, homedir()), 'bin', 'mcp-go-anchor');
  const build = spawn(go, ['build', '-o', binary, '.'], { cwd: goAnchorDir, stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(build, 'exit')) as [number | null];
  if (code !== 0) return `go build of ${goAnchorDir} failed (exit ${code})`;
  return startServer({
    name: 'the Go anchor',
    command: binary,
    args: ['-addr', `127.0.0.1:${opts.port}`, '-key', opts.key, '-object', opts.objectFile, '-bucket', opts.bucket],
    logFile: opts.logFile,
    url: `http://127.0.0.1:${opts.port}`,
    group: false,
  });
}

function forkScript(name: string, args: string[]): ChildProcess {
  return fork(join(here, name), args, { execArgv: ['--import', tsxLoader], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The bare-route baseline in its own process; resolves once it listens on `port`. */
export async function startBareServer(port: number): Promise<ChildProcess> {
  const child = forkScript('bare-server.ts', [String(port)]);
  const crashed = exitAsError(child, () => 'the bare-route server');
  try {
    await Promise.race([once(child, 'message'), crashed.promise]);
    return child;
  } finally {
    crashed.dispose();
  }
}

/** Hooks called when the load generator's timed window opens and closes. */
export interface WindowHooks {
  onStart(): void;
  onEnd(): void;
}

/** The load-generator process: runs one round at a time on request. */
export class LoadGenerator {
  private constructor(readonly child: ChildProcess) {}

  static async start(): Promise<LoadGenerator> {
    const child = forkScript('load-generator.ts', []);
    await once(child, 'spawn');
    return new LoadGenerator(child);
  }

  run(request: RoundRequest, hooks: WindowHooks): Promise<RoundResult> {
    return new Promise((resolve, reject) => {
      const settle = () => {
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      const onMessage = (message: LoadMessage) => {
        if (message.type === 'window-start') hooks.onStart();
        else if (message.type === 'window-end') hooks.onEnd();
        else {
          settle();
          if (message.type === 'result') resolve(message.result);
          else reject(new Error(message.message));
        }
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        settle();
        reject(new Error(`the load generator exited (${signal ?? `code ${code}`})`));
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send(request);
    });
  }
}
