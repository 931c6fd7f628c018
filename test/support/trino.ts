/**
 * A real Trino server for the tests: the coordinator-only server `scripts/install-tools.sh trino`
 * installs into the tool cache (or `$TRINO_HOME`), with the catalogs `tpch` (sample data) and
 * `memory` (writable). One per test run, shared by every file that asks (`sharedTrino()`): the
 * first caller starts it under the run's directory (test/global-setup.ts creates it and stops the
 * server at the end), the others find its URL there. Outside such a run (no run directory), each
 * process starts its own and stops it on exit.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import { open, readFile, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const runDirVariable = 'PLATFORM_TEST_RUN_DIR';
const startTimeoutMs = 180_000;

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** The Trino home: `$TRINO_HOME`, else what the install script finds or fetches into the tool cache. */
async function trinoHome(): Promise<string> {
  const script = resolve(import.meta.dirname, '../../scripts/install-tools.sh');
  const { stdout } = await promisify(execFile)('bash', [script, 'trino'], { maxBuffer: 1 << 20, timeout: 15 * 60_000 });
  return stdout.trim().split('\n').pop()!;
}

function writeEtc(dir: string, port: number): void {
  const etc = join(dir, 'etc');
  mkdirSync(join(etc, 'catalog'), { recursive: true });
  writeFileSync(join(etc, 'node.properties'), `node.environment=test\nnode.id=platform-test\nnode.data-dir=${join(dir, 'data')}\n`);
  // A 2-core, 24 GiB machine: a 2 GiB heap leaves room for the rest of the suite.
  writeFileSync(join(etc, 'jvm.config'), ['-server', '-Xmx2G', '-XX:+UseG1GC', '-XX:+ExitOnOutOfMemoryError', '-Djdk.attach.allowAttachSelf=true'].join('\n') + '\n');
  writeFileSync(
    join(etc, 'config.properties'),
    [
      'coordinator=true',
      'node-scheduler.include-coordinator=true',
      `http-server.http.port=${port}`,
      `discovery.uri=http://127.0.0.1:${port}`,
      'query.max-memory=1GB',
      'query.max-memory-per-node=512MB',
      `catalog.config-dir=${join(etc, 'catalog')}`,
    ].join('\n') + '\n',
  );
  writeFileSync(join(etc, 'catalog', 'tpch.properties'), 'connector.name=tpch\n');
  writeFileSync(join(etc, 'catalog', 'memory.properties'), 'connector.name=memory\n');
}

/**
 * Runs a query that scans a connector through the client protocol; true once it finishes (the
 * node has joined and its catalogs are schedulable — a bare `SELECT 1` runs before that).
 */
async function answersQueries(url: string): Promise<boolean> {
  const headers = { 'x-trino-user': 'platform-test' };
  let answer = (await (await fetch(`${url}/v1/statement`, { method: 'POST', headers, body: 'SELECT count(*) FROM tpch.tiny.region', signal: AbortSignal.timeout(5_000) })).json()) as {
    nextUri?: string;
    error?: unknown;
    stats?: { state?: string };
  };
  while (answer.nextUri && !answer.error) {
    answer = (await (await fetch(answer.nextUri, { headers, signal: AbortSignal.timeout(5_000) })).json()) as typeof answer;
  }
  return !answer.error && answer.stats?.state === 'FINISHED';
}

async function waitReady(url: string, log: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      // `starting: false` comes before the coordinator has registered itself as a worker
      // (NO_NODES_AVAILABLE): ready means a query over a catalog runs.
      const info = (await (await fetch(`${url}/v1/info`, { signal: AbortSignal.timeout(2_000) })).json()) as { starting?: boolean };
      if (info.starting === false && (await answersQueries(url))) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-30).join('\n') : '';
  throw new Error(`Trino did not start within ${startTimeoutMs / 1000} s:\n${tail}`);
}

/** Starts a Trino server under `dir`, detached (it outlives the caller); answers its URL and pid. */
async function startTrino(dir: string): Promise<{ url: string; pid: number }> {
  const home = await trinoHome();
  const javaHome = readFileSync(join(home, 'java-home'), 'utf8').trim();
  const port = await freePort();
  writeEtc(dir, port);
  const log = join(dir, 'trino.log');
  const out = openSync(log, 'a');
  const child = spawn(join(home, 'bin', 'launcher'), ['run', `--etc-dir=${join(dir, 'etc')}`, `--data-dir=${join(dir, 'data')}`], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, JAVA_HOME: javaHome, PATH: `${join(javaHome, 'bin')}:${process.env.PATH ?? ''}` },
  });
  child.unref();
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, log, Date.now() + startTimeoutMs);
  return { url, pid: child.pid! };
}

/** Stops a server started by startTrino (its whole process group). */
export function stopTrino(pid: number): void {
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

let own: Promise<string> | undefined;

/** The URL of the run's Trino server, started on first use. */
export function sharedTrino(): Promise<string> {
  const runDir = process.env[runDirVariable];
  if (!runDir) {
    own ??= (async () => {
      const dir = mkdtempSync(join(tmpdir(), 'platform-trino-'));
      const { url, pid } = await startTrino(dir);
      process.once('exit', () => {
        stopTrino(pid);
        rmSync(dir, { recursive: true, force: true });
      });
      return url;
    })();
    return own;
  }
  return withLock(join(runDir, 'trino.lock'), async () => {
    const known = join(runDir, 'trino.json');
    if (existsSync(known)) return (JSON.parse(await readFile(known, 'utf8')) as { url: string }).url;
    const dir = join(runDir, 'trino');
    mkdirSync(dir, { recursive: true });
    const started = await startTrino(dir);
    await writeFile(known, JSON.stringify(started));
    return started.url;
  });
}

/** For the run's teardown: stops the shared server if one was started under `runDir`. */
export function stopSharedTrino(runDir: string): void {
  const known = join(runDir, 'trino.json');
  if (!existsSync(known)) return;
  stopTrino((JSON.parse(readFileSync(known, 'utf8')) as { pid: number }).pid);
}
