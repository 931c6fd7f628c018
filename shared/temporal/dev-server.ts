/**
 * Temporal's dev server (`temporal server start-dev`) as a child process: the embedded durable-jobs
 * backend for `platform dev`, and the real server integration tests run against.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import type { Logger } from '../logging/index.js';
import { ensureBinary } from '../toolchain/index.js';

export type DevServerLog = Pick<Logger, 'info' | 'warn'>;

export interface DevServerOptions {
  /** State lives in `<dataDir>/temporal/temporal.db` (SQLite), so workflows survive restarts. */
  dataDir: string;
  /** gRPC frontend port; 0 or undefined picks a free one. */
  port?: number;
  /** Web UI port; 0 or undefined picks a free one. */
  uiPort?: number;
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

/** `preferred` when nothing listens on it (e.g. 7233/8233 for `platform dev`), else a free port. */
export async function preferredPort(preferred: number): Promise<number> {
  const free = await new Promise<boolean>((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(preferred, host, () => srv.close(() => resolve(true)));
  });
  return free ? preferred : freePort();
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const binary = opts.binaryPath ?? (await ensureBinary('temporal', opts.log ? { log: opts.log } : {}));
  const dbDir = join(opts.dataDir, 'temporal');
  await mkdir(dbDir, { recursive: true });
  // Only ports we picked ourselves may be re-picked when another process grabbed them first.
  const autoPorts = !opts.port && (opts.headless || !opts.uiPort);
  const attempts = autoPorts ? 3 : 1;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const port = opts.port || (await freePort());
    const uiPort = opts.headless ? 0 : opts.uiPort || (await freePort());
    try {
      return await launch(binary, join(dbDir, 'temporal.db'), port, uiPort, opts);
    } catch (err) {
      lastError = err;
      if (!(err instanceof EarlyExit)) break;
      opts.log?.warn({ port, uiPort, attempt }, 'temporal dev server exited during start; retrying');
    }
  }
  throw lastError;
}

class EarlyExit extends Error {}

async function launch(binary: string, dbFile: string, port: number, uiPort: number, opts: DevServerOptions): Promise<DevServer> {
  const args = ['server', 'start-dev', '--db-filename', dbFile, '--port', String(port), '--ip', host, '--log-level', 'warn'];
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
    await waitReady(address, child, exited, opts.readyTimeoutMs ?? 60_000, () => stderrTail);
  } catch (err) {
    await stop();
    throw err;
  }
  const uiUrl = opts.headless ? '' : `http://${host}:${uiPort}`;
  opts.log?.info({ address, uiUrl: uiUrl || undefined, dbFile }, 'temporal dev server started');
  return { address, uiUrl, stop };
}

/** Polls until the frontend answers for the "default" namespace, the child exits, or the deadline passes. */
async function waitReady(
  address: string,
  child: ChildProcess,
  exited: Promise<void>,
  timeoutMs: number,
  tail: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  let lastError = '';
  while (Date.now() < deadline) {
    if (gone) throw new EarlyExit(`temporal dev server exited (code ${child.exitCode ?? child.signalCode}):\n${tail().trim()}`);
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1_000 });
      await connection.withDeadline(Date.now() + 2_000, () =>
        connection!.workflowService.describeNamespace({ namespace: 'default' }),
      );
      return;
    } catch (err) {
      lastError = (err as Error).message;
      await Promise.race([new Promise((r) => setTimeout(r, 200)), exited]);
    } finally {
      await connection?.close().catch(() => undefined);
    }
  }
  throw new Error(`temporal dev server at ${address} did not answer within ${timeoutMs}ms (${lastError}):\n${tail().trim()}`);
}
