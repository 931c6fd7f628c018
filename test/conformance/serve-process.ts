/**
 * `platform serve` as a child process, observed through its JSON log lines (stderr), and HTTP
 * requests that each open a connection of their own and learn which process accepted it (from
 * /proc, so the server exposes nothing new).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import type { Json } from './wire.js';

export class ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #lines: Json[] = [];
  readonly #waiters: Array<{ match: (line: Json) => boolean; resolve: (line: Json) => void }> = [];
  #ended = false;

  constructor(configFile: string) {
    this.child = spawn(process.execPath, [platformBin, 'serve', '--config', configFile], { cwd: repoRoot, env: cliEnv({ LOG_LEVEL: 'info' }) });
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
    createInterface({ input: this.child.stderr }).on('line', (text) => {
      let line: Json;
      try {
        line = JSON.parse(text);
      } catch {
        line = { msg: text };
      }
      this.#lines.push(line);
      for (const waiter of this.#waiters.filter((w) => w.match(line))) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    });
    void this.exited.then(() => {
      this.#ended = true;
      for (const waiter of this.#waiters.splice(0)) waiter.resolve(undefined);
    });
  }

  /** The first log line (already written or still to come) that matches; fails if the process exits first. */
  async log(match: (line: Json) => boolean, what: string): Promise<Json> {
    const seen = this.#lines.find(match);
    if (seen) return seen;
    const line = this.#ended ? undefined : await new Promise<Json>((resolve) => this.#waiters.push({ match, resolve }));
    if (line === undefined) throw new Error(`platform exited before logging ${what}:\n${this.#lines.map((l) => JSON.stringify(l)).join('\n')}`);
    return line;
  }

  /** Every log line with this message so far. */
  logged(msg: string): Json[] {
    return this.#lines.filter((l) => l.msg === msg);
  }

  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.#ended) this.child.kill('SIGTERM');
    return this.exited;
  }
}

/** The inode of the server's end of the TCP connection from `clientPort` to `serverPort`. */
async function serverSocketInode(serverPort: number, clientPort: number): Promise<string | undefined> {
  const hexPort = (address: string) => parseInt(address.split(':')[1]!, 16);
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = (await readFile(table, 'utf8')).trim().split('\n').slice(1);
    for (const row of rows) {
      const fields = row.trim().split(/\s+/);
      if (hexPort(fields[1]!) === serverPort && hexPort(fields[2]!) === clientPort) return fields[9];
    }
  }
  return undefined;
}

/** Which of `pids` holds the socket with this inode. */
async function holderOf(inode: string, pids: readonly number[]): Promise<number | undefined> {
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === `socket:[${inode}]`) return pid;
    }
  }
  return undefined;
}

export interface ServedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The pid among the candidates that accepted the connection. */
  servedBy: number | undefined;
}

/** One request on a connection of its own; which process served it is read while the connection is open. */
export async function requestOnNewConnection(
  url: string,
  opts: { method: string; headers?: Record<string, string>; body?: string; pids: readonly number[] },
): Promise<ServedResponse> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  try {
    return await new Promise<ServedResponse>((resolve, reject) => {
      const request = http.request(target, { method: opts.method, headers: opts.headers ?? {}, agent }, (response) => {
        const clientPort = response.socket.localPort!;
        const servedBy = serverSocketInode(Number(target.port), clientPort).then((inode) => (inode ? holderOf(inode, opts.pids) : undefined));
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          servedBy.then((pid) => resolve({ status: response.statusCode!, headers: response.headers, body, servedBy: pid }), reject);
        });
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(opts.body);
    });
  } finally {
    agent.destroy();
  }
}
