/**
 * The shared, neutral harness (`../shared/bench/mcp/` beside the repository, or BENCH_HARNESS_DIR):
 * its equivalent configurations of our platform (ours.yaml) and the anchor (anchor.yaml), and its
 * Go load generator, which drives either server with the same requests and reports the rate,
 * latencies, errors and the server's CPU over the measured window (-pid).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { benchObject, type PlatformWorkload } from '../mcp/options.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The harness folder: BENCH_HARNESS_DIR, else the shared folder laid beside the repository. */
export function harnessDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.BENCH_HARNESS_DIR ? resolve(env.BENCH_HARNESS_DIR) : join(repoRoot, '..', 'shared', 'bench', 'mcp');
  for (const file of ['ours.yaml', 'anchor.yaml', 'loadgen/main.go', 'barego/main.go']) {
    if (!existsSync(join(dir, file))) throw new Error(`the shared MCP harness is not at ${dir} (no ${file}); set BENCH_HARNESS_DIR to its folder`);
  }
  return dir;
}

/** The anchor runs the platform benchmark's four workloads. */
export type AnchorWorkload = PlatformWorkload;

export const anchorWorkloadTitles: Record<AnchorWorkload, string> = {
  W1: 'tools/call platform_info',
  W2: 'session churn (initialize, call, DELETE)',
  W3: 'tools/list',
  W4: 'get a 64 KiB object (objstore_get_object / s3_get_object)',
};

/** The measured servers: the platform (audit off as in ours.yaml, or on), and the anchor. */
export type ServerKind = 'ours' | 'ours-audit' | 'anchor';

export const serverLabels: Record<ServerKind, string> = { ours: 'ours', 'ours-audit': 'ours, audit on', anchor: 'anchor' };

const isOurs = (kind: ServerKind) => kind !== 'anchor';

/** The loadgen's arguments for a workload against a server (the tools differ only in W4's name). */
export function workloadArgs(workload: AnchorWorkload, kind: ServerKind): string[] {
  const objectArgs = JSON.stringify({ bucket: benchObject.bucket, key: benchObject.key });
  switch (workload) {
    case 'W1':
      return ['-w', 'call', '-tool', 'platform_info'];
    case 'W2':
      return ['-w', 'churn', '-tool', 'platform_info'];
    case 'W3':
      return ['-w', 'list'];
    case 'W4':
      return ['-w', 'call', '-tool', isOurs(kind) ? 'objstore_get_object' : 's3_get_object', '-args', objectArgs];
  }
}

/** Both servers serve Streamable HTTP at /mcp (the anchor at every path but its own routes). */
export const mcpPath = '/mcp';

/** Sets `path` in the document, refusing a path the harness's file does not have (its shape changed). */
function setExisting(doc: ReturnType<typeof parseDocument>, file: string, path: string[], value: unknown): void {
  if (!doc.hasIn(path)) throw new Error(`${file} has no ${path.join('.')}: the shared harness changed, update test/bench/mcp-anchor/harness.ts`);
  doc.setIn(path, value);
}

/**
 * The harness's configuration for `kind`, written to `file` with the server on `port` and the
 * objstore/s3 instance on `minioEndpoint` (the harness's fixed ports could be taken on a shared
 * machine); everything else as the harness has it. Its `${VAR}`s are filled by serverEnv.
 * `audit` turns audit on, tool calls included, into that database (ours only).
 */
export function writeServerConfig(opts: { harness: string; kind: ServerKind; file: string; port: number; minioEndpoint: string; connections: number; auditDsn?: string }): void {
  const source = join(opts.harness, isOurs(opts.kind) ? 'ours.yaml' : 'anchor.yaml');
  const doc = parseDocument(readFileSync(source, 'utf8'));
  setExisting(doc, source, ['server', 'address'], `127.0.0.1:${opts.port}`);
  const endpoint = isOurs(opts.kind) ? ['toolkits', 'objstore', 'bench', 'endpoint'] : ['toolkits', 's3', 'instances', 'bench', 'endpoint'];
  setExisting(doc, source, endpoint, opts.minioEndpoint);
  if (opts.kind === 'ours-audit') {
    if (!opts.auditDsn) throw new Error('ours with audit on needs a database');
    setExisting(doc, source, ['audit', 'enabled'], true);
    doc.setIn(['audit', 'log_tool_calls'], true);
    doc.setIn(['database', 'dsn'], opts.auditDsn);
  }
  // Ours refuses sessions beyond sessions.max_per_subject (64 unless set); the loadgen holds one per worker.
  if (isOurs(opts.kind) && opts.connections > 64) doc.setIn(['sessions', 'max_per_subject'], opts.connections);
  writeFileSync(opts.file, doc.toString());
}

/** The variables the harness's configurations name. */
export function serverEnv(opts: { key: string; dir: string; accessKeyId: string; secretAccessKey: string }): NodeJS.ProcessEnv {
  return { BENCH_KEY: opts.key, BENCH_DIR: opts.dir, S3_ACCESS_KEY: opts.accessKeyId, S3_SECRET_KEY: opts.secretAccessKey };
}

/** What the loadgen prints for a run (the fields read here). */
export interface LoadgenResult {
  rate: number;
  ops: number;
  errors: number;
  p50_ms: number;
  p99_ms: number;
  /** Present with -pid while the process lived through the window. */
  server_cpu_ms_per_op?: number;
  loadavg_start: string;
  loadavg_end: string;
  last_error?: string;
}

export type LoadgenOutcome = { ok: true; result: LoadgenResult } | { ok: false; reason: string };

export interface LoadgenSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** The harness's load generator, one run at a time; stop() ends a run in progress and refuses later ones (cleanup). */
export class Loadgen {
  #running: ChildProcess | undefined;
  #stopped = false;

  constructor(
    readonly binary: string,
    readonly settings: LoadgenSettings,
  ) {}

  /** One measured run against `url`, sampling `pid`'s CPU. */
  async measure(url: string, key: string, args: string[], pid: number): Promise<LoadgenOutcome> {
    const { connections, seconds, warmupSeconds } = this.settings;
    const outcome = await this.#run(['-url', url, '-key', key, ...args, '-c', String(connections), '-d', `${seconds}s`, '-warmup', `${warmupSeconds}s`, '-pid', String(pid)], warmupSeconds + seconds);
    if (!outcome.ok) return outcome;
    try {
      return { ok: true, result: JSON.parse(outcome.stdout.trim().split('\n').at(-1) ?? '') as LoadgenResult };
    } catch {
      return { ok: false, reason: `unreadable loadgen output: ${outcome.stdout.slice(-500)}` };
    }
  }

  /** One exchange of the workload (-check): undefined when it succeeds, else why not. */
  async check(url: string, key: string, args: string[]): Promise<string | undefined> {
    const outcome = await this.#run(['-url', url, '-key', key, ...args, '-check'], 0);
    return outcome.ok ? undefined : outcome.reason;
  }

  stop(): void {
    this.#stopped = true;
    this.#running?.kill('SIGKILL');
  }

  /** Runs the loadgen; a run that outlasts its window by far (its own timeouts failed) is killed. */
  #run(args: string[], windowSeconds: number): Promise<{ ok: true; stdout: string } | { ok: false; reason: string }> {
    if (this.#stopped) return Promise.resolve({ ok: false, reason: 'the benchmark is stopping' });
    return new Promise((resolvePromise) => {
      const child = spawn(this.binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      this.#running = child;
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
      const timer = setTimeout(() => child.kill('SIGKILL'), (windowSeconds + 90) * 1000);
      child.on('error', (error) => {
        clearTimeout(timer);
        resolvePromise({ ok: false, reason: error.message });
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        this.#running = undefined;
        if (code === 0) resolvePromise({ ok: true, stdout });
        else resolvePromise({ ok: false, reason: `loadgen ${signal ?? `exit ${code}`}: ${(stderr || stdout).trim().slice(-500)}` });
      });
    });
  }
}

/**
 * The cause a dead server's log gives: a Go runtime's last `panic:` / `fatal error:` line with the
 * first frame outside the standard library (a module path's first element has a dot), else the
 * log's last lines.
 */
export function deathCause(log: string): string {
  const lines = log.split('\n');
  const cause = lines.map((line) => /^(panic|fatal error):/.test(line)).lastIndexOf(true);
  if (cause < 0) return `its log ends: ${lines.filter(Boolean).slice(-3).join(' | ')}`;
  const frame = lines.slice(cause + 1).find((line) => /^[^\s/]+\.[^\s/]+\//.test(line));
  return `${lines[cause]}${frame ? ` in ${frame.replace(/\(.*$/, '')}` : ''}`;
}
