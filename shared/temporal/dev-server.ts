/**
 * Temporal's dev server (`temporal server start-dev`) as a child process: the embedded durable-jobs
 * backend for `platform dev`, and the real server integration tests run against.
 *
 * Only a server this process started is ever used. A port found free can be taken by another
 * process before the child binds it — and then whatever answers there is someone else's Temporal.
 * So the child creates the data dir's own identity namespace (`platform-dev-<random>`, kept in
 * `<dataDir>/temporal/identity`), and the server counts as started only when the server answering
 * at its address has that namespace and the child is still running. A child that lost its ports
 * exits (the CLI refuses a port in use); with ports we chose, another pair is tried, a few times.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Connection, isGrpcServiceError } from '@temporalio/client';
import type { Logger } from '../logging/index.js';
import { ensureBinary } from '../toolchain/index.js';

export type DevServerLog = Pick<Logger, 'info' | 'warn'>;

export interface DevServerOptions {
  /** State lives in `<dataDir>/temporal/temporal.db` (SQLite), so workflows survive restarts. */
  dataDir: string;
  /** gRPC frontend port, and nothing else (a port in use fails the start); 0 or undefined picks one. */
  port?: number;
  /** Web UI port, and nothing else; 0 or undefined picks one. */
  uiPort?: number;
  /** Without `port`: the ports tried first (`platform dev`: 7233 and 8233); when taken, free ones are picked. */
  preferredPorts?: { port: number; uiPort?: number };
  log?: DevServerLog;
  /** The CLI binary; defaults to `ensureBinary('temporal')`. */
  binaryPath?: string;
  /** No Web UI (tests): starts faster and binds one port fewer. */
  headless?: boolean;
  /** Bound on waiting for the frontend to answer (default 60s). */
  readyTimeoutMs?: number;
  /** After SIGTERM, how long before SIGKILL (default 10s). */
  stopTimeoutMs?: number;
}

export interface DevServer {
  /** host:port of the gRPC frontend, for `temporal.address`. */
  address: string;
  /** The Web UI, or '' when headless. */
  uiUrl: string;
  stop(): Promise<void>;
}

const host = '127.0.0.1';
/** gRPC's NOT_FOUND status: the server answering has no such namespace. */
const GRPC_NOT_FOUND = 5;

/** A port the OS just reported free on loopback. Another process could still take it before we bind. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('could not read a free port'))));
    });
  });
}

/** Starts with ports this many times at most when the ones tried were taken meanwhile (only ports we chose). */
const START_ATTEMPTS = 3;

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const binary = opts.binaryPath ?? (await ensureBinary('temporal', opts.log ? { log: opts.log } : {}));
  const dbDir = join(opts.dataDir, 'temporal');
  await mkdir(dbDir, { recursive: true });
  const identity = await identityNamespace(dbDir);
  // Only ports we chose ourselves may be changed when another process holds them.
  const fixed = Boolean(opts.port) || (!opts.headless && Boolean(opts.uiPort));
  const attempts = fixed ? 1 : START_ATTEMPTS;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const preferred = attempt === 1 ? opts.preferredPorts : undefined;
    const port = opts.port || preferred?.port || (await freePort());
    const uiPort = opts.headless ? 0 : opts.uiPort || preferred?.uiPort || (await freePort());
    try {
      return await launch(binary, { dbFile: join(dbDir, 'temporal.db'), identity, port, uiPort }, opts);
    } catch (err) {
      lastError = err;
      if (!(err instanceof EarlyExit)) break;
      if (attempt < attempts) opts.log?.warn({ port, uiPort, attempt }, 'temporal dev server did not get its ports; retrying with others');
    }
  }
  throw lastError;
}

/** The data dir's identity namespace: made once, then created by every dev server started on this data dir. */
async function identityNamespace(dbDir: string): Promise<string> {
  const file = join(dbDir, 'identity');
  const kept = await readFile(file, 'utf8').catch(() => '');
  if (/^platform-dev-[0-9a-f]{16}$/.test(kept.trim())) return kept.trim();
  const made = `platform-dev-${randomBytes(8).toString('hex')}`;
  await writeFile(file, `${made}\n`, { mode: 0o600 });
  return made;
}

/** The child exited while starting: most often, another process held one of its ports. */
class EarlyExit extends Error {}

interface Launch {
  dbFile: string;
  identity: string;
  port: number;
  uiPort: number;
}

async function launch(binary: string, { dbFile, identity, port, uiPort }: Launch, opts: DevServerOptions): Promise<DevServer> {
  const args = ['server', 'start-dev', '--db-filename', dbFile, '--port', String(port), '--ip', host, '--namespace', identity, '--log-level', 'warn'];
  if (opts.headless) args.push('--headless');
  else args.push('--ui-port', String(uiPort));
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const address = `${host}:${port}`;
  let stderrTail = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-4000);
    for (const line of chunk.split('\n')) if (line.trim()) opts.log?.warn({ temporal: line.trim() }, 'temporal dev server');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If this process dies without calling stop(), don't leave an orphan server holding the ports and the DB.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.stopTimeoutMs ?? 10_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitReady({ address, identity, child, exited, tail: () => stderrTail }, opts.readyTimeoutMs ?? 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  const uiUrl = opts.headless ? '' : `http://${host}:${uiPort}`;
  opts.log?.info({ address, uiUrl: uiUrl || undefined, dbFile }, 'temporal dev server started');
  return { address, uiUrl, stop };
}

interface Starting {
  address: string;
  identity: string;
  child: ChildProcess;
  exited: Promise<void>;
  tail: () => string;
}

/**
 * Polls until the server at the address has the identity namespace — and the child still runs —,
 * the child exits, or the deadline passes. A server without it is not ours: polling goes on until
 * our child (which cannot bind a port in use) exits, or its own namespace appears.
 */
async function waitReady({ address, identity, child, exited, tail }: Starting, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  const exitedEarly = () => new EarlyExit(`temporal dev server exited (code ${child.exitCode ?? child.signalCode}):\n${tail().trim()}`);
  let lastError = '';
  while (Date.now() < deadline) {
    if (gone) throw exitedEarly();
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1_000 });
      await connection.withDeadline(Date.now() + 2_000, () => connection!.workflowService.describeNamespace({ namespace: identity }));
      // Answered with our namespace while our child holds the port: the server is the child.
      if (child.exitCode !== null || child.signalCode !== null) throw exitedEarly();
      return;
    } catch (err) {
      if (err instanceof EarlyExit) throw err;
      lastError = isGrpcServiceError(err) && err.code === GRPC_NOT_FOUND ? `the server at ${address} is not the one started here (no namespace ${identity})` : (err as Error).message;
      await Promise.race([new Promise((r) => setTimeout(r, 200)), exited]);
    } finally {
      await connection?.close().catch(() => undefined);
    }
  }
  throw new Error(`temporal dev server at ${address} did not answer within ${timeoutMs}ms (${lastError}):\n${tail().trim()}`);
}
