import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, open, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { ClusterUnavailableError, type EmbeddedLog, type EmbeddedPostgres } from './embedded-types.js';
import { findPgBinaries, type PgBinaries } from './pg-binaries.js';

/**
 * A private PostgreSQL cluster under `<root>/data`, reachable only through a Unix socket.
 *
 * Layout (root = `<dataDir>/postgres`):
 *   data/              PGDATA (owned by the OS user running the server)
 *   data/platform.conf settings rewritten on every start (socket dir, no TCP)
 *   data/server.log    server log written by pg_ctl
 *   run/               Unix socket directory — or, when that path is too long for a socket
 *                      (sun_path holds 107 bytes), `<os.tmpdir()>/platform-pg-<hash of PGDATA>`.
 */

const PORT = 5432;
const DATABASE = 'platform';
/** sizeof(sockaddr_un.sun_path) is 108 on Linux, including the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 107;

/** How commands are run: directly, or as the `postgres` OS user when we are root (initdb refuses root). */
interface Runner {
  prefix: string[];
  /** Owner for the directories the server writes to; undefined when running as ourselves. */
  owner?: { uid: number; gid: number };
}

interface ExecResult {
  stdout: string;
  stderr: string;
}

function run(runner: Runner, cmd: string, args: string[], timeoutMs = 120_000): Promise<ExecResult> {
  const [file, ...rest] = [...runner.prefix, cmd, ...args];
  return new Promise((resolve, reject) => {
    // cwd '/': the server user may not be allowed into our working directory.
    execFile(file!, rest, { cwd: '/', timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        const detail = String(stderr || stdout || err.message).trim();
        reject(new Error(`${cmd.split('/').pop()} ${args[0] ?? ''} failed: ${detail}`, { cause: err }));
      } else {
        resolve({ stdout: String(stdout), stderr: String(stderr) });
      }
    });
  });
}

async function canRun(prefix: string[]): Promise<boolean> {
  try {
    await run({ prefix }, 'true', [], 10_000);
    return true;
  } catch {
    return false;
  }
}

async function resolveRunner(): Promise<Runner> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { prefix: [] };
  let uid: number;
  let gid: number;
  try {
    uid = Number((await run({ prefix: [] }, 'id', ['-u', 'postgres'], 10_000)).stdout.trim());
    gid = Number((await run({ prefix: [] }, 'id', ['-g', 'postgres'], 10_000)).stdout.trim());
  } catch (err) {
    throw new ClusterUnavailableError('running as root and there is no "postgres" OS user to run the server', {
      cause: err,
    });
  }
  const owner = { uid, gid };
  for (const prefix of [
    ['runuser', '-u', 'postgres', '--'],
    ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--init-groups', '--'],
  ]) {
    if (await canRun(prefix)) return { prefix, owner };
  }
  throw new ClusterUnavailableError('running as root and neither runuser nor setpriv can switch to "postgres"');
}

/** Socket directory: `<root>/run` unless the socket path would exceed sun_path. */
export function chooseSocketDir(root: string, pgdata: string, port = PORT): string {
  const socketName = `.s.PGSQL.${port}`;
  const preferred = join(root, 'run');
  if (Buffer.byteLength(join(preferred, socketName)) <= MAX_SOCKET_PATH_BYTES) return preferred;
  // Stable per data dir, so a restarted server and a reused one agree on the DSN.
  const short = `platform-pg-${createHash('sha256').update(pgdata).digest('hex').slice(0, 16)}`;
  const inTmp = join(tmpdir(), short);
  if (Buffer.byteLength(join(inTmp, socketName)) <= MAX_SOCKET_PATH_BYTES) return inTmp;
  return join('/tmp', short);
}

export function clusterDsn(socketDir: string, port = PORT, database = DATABASE): string {
  const portPart = port === 5432 ? '' : `:${port}`;
  return `postgresql://postgres@localhost${portPart}/${database}?host=${encodeURIComponent(socketDir)}`;
}

/** Quotes a value for postgresql.conf. */
function confString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

interface PidFile {
  pid: number;
  port: number;
  socketDir: string;
}

/** postmaster.pid: pid, data dir, start time, port, first socket dir, listen address, shmem key, status. */
export function parsePostmasterPid(text: string): PidFile | null {
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, port: Number(lines[3]) || PORT, socketDir: (lines[4] ?? '').trim() };
}

/** True when `pid` is a live postmaster of this data dir (not a dead one whose pid was reused). */
async function isOurPostmaster(pid: number, pgdata: string): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone. EPERM: someone else's process — never our server, which runs as us or as postgres.
    return false;
  }
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    const exe = (cmdline[0] ?? '').split('/').pop() ?? '';
    return (exe === 'postgres' || exe === 'postmaster') && cmdline.includes(pgdata);
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

async function tail(path: string, bytes = 4_000): Promise<string> {
  try {
    const fh = await open(path, 'r');
    try {
      const { size } = await fh.stat();
      const start = Math.max(0, size - bytes);
      const buf = Buffer.alloc(size - start);
      await fh.read(buf, 0, buf.length, start);
      return buf.toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}

async function ownDir(path: string, runner: Runner): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  await chmod(path, 0o700);
  if (runner.owner) await chown(path, runner.owner.uid, runner.owner.gid);
}

async function pickBinaries(existingMajor: number | null): Promise<PgBinaries> {
  const all = await findPgBinaries();
  if (existingMajor === null) {
    const first = all[0];
    if (!first) throw new ClusterUnavailableError('no local PostgreSQL binaries (initdb, pg_ctl, postgres) found');
    return first;
  }
  const match = all.find((b) => b.major === existingMajor);
  if (!match) {
    throw new Error(
      `the embedded cluster was created by PostgreSQL ${existingMajor}, but no local binaries of that version were found` +
        (all.length ? ` (found ${all.map((b) => b.major).join(', ')})` : ''),
    );
  }
  return match;
}

async function initCluster(bins: PgBinaries, runner: Runner, pgdata: string, log: EmbeddedLog): Promise<void> {
  // A folder without PG_VERSION is a failed earlier initdb; start over.
  await rm(pgdata, { recursive: true, force: true });
  await ownDir(pgdata, runner);
  const base = ['-D', pgdata, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8'];
  try {
    await run(runner, bins.initdb, [...base, '--locale=C.UTF-8']);
  } catch {
    // Not every system has C.UTF-8; the plain C locale always exists. initdb cleaned up after itself.
    await run(runner, bins.initdb, [...base, '--locale=C']);
  }
  // Our settings live in platform.conf so they can be rewritten on every start.
  const conf = join(pgdata, 'postgresql.conf');
  const current = await readFile(conf, 'utf8');
  await writeFile(conf, `${current}\n# Written by the platform's embedded Postgres.\ninclude_if_exists = 'platform.conf'\n`);
  log.info({ pgdata, version: bins.major }, 'initialised embedded postgres cluster');
}

async function writePlatformConf(pgdata: string, socketDir: string, runner: Runner): Promise<void> {
  const path = join(pgdata, 'platform.conf');
  await writeFile(
    path,
    [
      '# Rewritten by the platform at every start.',
      "listen_addresses = ''",
      `port = ${PORT}`,
      `unix_socket_directories = ${confString(socketDir)}`,
      'unix_socket_permissions = 0700',
      "timezone = 'UTC'",
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  if (runner.owner) await chown(path, runner.owner.uid, runner.owner.gid);
}

async function ensureDatabase(socketDir: string, port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ host: socketDir, port, user: 'postgres', database: 'postgres' });
    try {
      await client.connect();
      const res = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (res.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
      return;
    } catch (err) {
      // "starting up" right after a reused server's launch: wait; anything else past the deadline: fail.
      if (Date.now() > deadline) throw err;
      await sleep(200);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

async function removeStaleLocks(pgdata: string, socketDirs: string[], port: number): Promise<void> {
  await unlink(join(pgdata, 'postmaster.pid')).catch(() => undefined);
  for (const dir of socketDirs) {
    if (!dir) continue;
    await unlink(join(dir, `.s.PGSQL.${port}.lock`)).catch(() => undefined);
    await unlink(join(dir, `.s.PGSQL.${port}`)).catch(() => undefined);
  }
}

async function pgCtlStart(bins: PgBinaries, runner: Runner, pgdata: string, logFile: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await run(runner, bins.pgCtl, ['start', '-D', pgdata, '-l', logFile, '-w', '-t', '60', '-s']);
      return;
    } catch (err) {
      const logTail = await tail(logFile, 2_000);
      // Backends orphaned by a killed postmaster hold the old shared memory until they notice and exit.
      if (attempt < 10 && /pre-existing shared memory block/.test(logTail)) {
        await sleep(1_000);
        continue;
      }
      const msg = err instanceof Error ? err.message : String(err);
      throw new Error(`embedded postgres did not start: ${msg}\n${logTail}`, { cause: err });
    }
  }
}

/**
 * Starts (or reuses) the private cluster under `root`. Throws ClusterUnavailableError when a fresh
 * cluster cannot be set up here, so the caller may fall back to PGlite; any failure of an existing
 * cluster is a plain Error, because falling back would silently hide its data.
 */
export async function startCluster(opts: { root: string; log: EmbeddedLog }): Promise<EmbeddedPostgres> {
  const { root, log } = opts;
  const pgdata = join(root, 'data');
  const versionFile = join(pgdata, 'PG_VERSION');
  const existing = existsSync(versionFile);
  const existingMajor = existing ? Number((await readFile(versionFile, 'utf8')).trim()) : null;

  const bins = await pickBinaries(existingMajor);
  const runner = await resolveRunner();
  await mkdir(root, { recursive: true });

  if (!existing) {
    try {
      await initCluster(bins, runner, pgdata, log);
    } catch (err) {
      await rm(pgdata, { recursive: true, force: true }).catch(() => undefined);
      throw new ClusterUnavailableError(`initdb failed: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
  }

  const socketDir = chooseSocketDir(root, pgdata);
  const logFile = join(pgdata, 'server.log');
  let dsnSocketDir = socketDir;
  let port = PORT;

  const pidText = await readFile(join(pgdata, 'postmaster.pid'), 'utf8').catch(() => null);
  const pidFile = pidText ? parsePostmasterPid(pidText) : null;
  if (pidFile && (await isOurPostmaster(pidFile.pid, pgdata))) {
    // Left running by an earlier process (pg_ctl detaches the server): reuse it as it is.
    dsnSocketDir = pidFile.socketDir || socketDir;
    port = pidFile.port;
    log.info({ pgdata, pid: pidFile.pid }, 'reusing running embedded postgres cluster');
  } else {
    if (pidText !== null) {
      log.warn({ pgdata, pid: pidFile?.pid }, 'removing stale postmaster.pid of a server that is not running');
      await removeStaleLocks(pgdata, [socketDir, pidFile?.socketDir ?? ''], PORT);
    }
    await ownDir(socketDir, runner);
    await writePlatformConf(pgdata, socketDir, runner);
    await pgCtlStart(bins, runner, pgdata, logFile);
    log.info({ pgdata, socketDir }, 'embedded postgres cluster started');
  }

  try {
    await ensureDatabase(dsnSocketDir, port);
  } catch (err) {
    throw new Error(`embedded postgres is not answering on ${dsnSocketDir}`, { cause: err });
  }

  let stopped = false;
  return {
    dsn: clusterDsn(dsnSocketDir, port),
    kind: 'cluster',
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await run(runner, bins.pgCtl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60', '-s']);
        log.info({ pgdata }, 'embedded postgres cluster stopped');
      } catch (err) {
        // Already gone is fine; anything else is reported.
        if (!/no server running|PID file .* does not exist/i.test(err instanceof Error ? err.message : '')) throw err;
      }
    },
  };
}
