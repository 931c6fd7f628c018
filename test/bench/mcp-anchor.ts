/**
 * Benchmark (a script, not a test) of the MCP request path against the Go project the
 * specification comes from — the anchor, txn2/mcp-data-platform at a pinned commit — with the
 * shared, neutral harness (../shared/bench/mcp/: its Go load generator and equivalent
 * configurations ours.yaml / anchor.yaml), as issue 41 states its goals:
 *   W1  tools/call platform_info              goal ours/anchor >= 1.2
 *   W2  session churn (initialize, call, DELETE)  >= 1.0
 *   W3  tools/list                            ahead, and ours never fails
 *   W4  get a 64 KiB object from MinIO        stay ahead
 * plus the harness's bare net/http route (barego) for scale.
 *
 * Go builds the anchor, the loadgen and barego into the tool cache on first use
 * (test/bench/mcp-anchor/build.ts). MinIO comes from the tool cache with a `bench` bucket holding
 * the 64 KiB object. Every run starts its server afresh (`platform serve` from the compiled build,
 * or the anchor's binary), measures one workload, and stops it: one server at a time, ours and the
 * anchor interleaved, the order alternating round by round. A server that dies during a run is
 * reported as such; the script goes on.
 *
 *   npm run bench:mcp-anchor
 *   BENCH_ROUNDS=3 BENCH_SECONDS=10 BENCH_WARMUP=2 BENCH_CONNECTIONS=16   (the defaults)
 *   BENCH_WORKLOADS=W1,W3   a subset
 *   BENCH_AUDIT=1           also ours with audit on (tool calls audited into a fresh Postgres database)
 *   BENCH_JSON=1            also every figure as one JSON line
 *   BENCH_BUILD_ONLY=1      only build the Go programs into the tool cache and print their paths
 *   ANCHOR_SOURCES=DIR      the four txn2 repositories (mcp-data-platform, mcp-trino, mcp-datahub,
 *                           mcp-s3) are in DIR instead of on GitHub
 *   BENCH_HARNESS_DIR=DIR   the shared harness is in DIR instead of ../shared/bench/mcp
 *   BENCH_SOURCES=1         ours from the TypeScript sources through tsx instead of the compiled
 *                           build (dist/, compiled first when it does not match the sources), which
 *                           is what a production deployment runs
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3ObjectStore } from '../../shared/objstore/index.js';
import { startTestMinio } from '../support/minio.js';
import { createTestDatabase } from '../support/postgres.js';
import { runBench, type Cleanups } from './mcp/cleanup.js';
import { benchApiKey, benchObject, benchObjectBytes, freePort, positiveInt, workloadsFrom } from './mcp/options.js';
import { answers200, ensureCompiledBuild, hasExited, startPlatform, startServer, stopChild, type PlatformCode } from './mcp/processes.js';
import { anchorLabel, ensureAnchorBinary, ensureHarnessBinary } from './mcp-anchor/build.js';
import {
  Loadgen,
  deathCause,
  harnessDir,
  mcpPath,
  serverEnv,
  serverLabels,
  workloadArgs,
  writeServerConfig,
  type LoadgenOutcome,
  type ServerKind,
} from './mcp-anchor/harness.js';
import { formatAnchorReport, jsonAnchorReport, oursFailures, type AnchorReport, type RunRecord, type WorkloadRuns } from './mcp-anchor/report.js';

function anchorOptions(env: NodeJS.ProcessEnv = process.env) {
  return {
    rounds: positiveInt(env, 'BENCH_ROUNDS', 3),
    seconds: positiveInt(env, 'BENCH_SECONDS', 10),
    warmupSeconds: positiveInt(env, 'BENCH_WARMUP', 2),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 16),
    workloads: workloadsFrom(env.BENCH_WORKLOADS),
    audit: env.BENCH_AUDIT === '1',
    json: env.BENCH_JSON === '1',
    buildOnly: env.BENCH_BUILD_ONLY === '1',
    code: (env.BENCH_SOURCES === '1' ? 'sources' : 'compiled') as PlatformCode,
  };
}

const progress = (line: string) => process.stderr.write(`${line}\n`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** A started server: where its MCP endpoint is, its process and log. */
interface Running {
  url: string;
  child: ChildProcess;
  logFile: string;
}

/** How a server ended: its exit, and the cause its log gives. */
function describeDeath(server: Running): string {
  const exit = `exited (${server.child.signalCode ?? `code ${server.child.exitCode}`})`;
  try {
    return `${exit}: ${deathCause(readFileSync(server.logFile, 'utf8'))}`;
  } catch {
    return exit;
  }
}

function record(round: number, outcome: LoadgenOutcome, died: string | undefined): RunRecord {
  const base = { round, ...(died ? { died } : {}) };
  if (!outcome.ok) return { ...base, rate: 0, errors: 0, failed: outcome.reason };
  const r = outcome.result;
  return {
    ...base,
    rate: r.rate,
    errors: r.errors,
    ...(r.last_error ? { lastError: r.last_error } : {}),
    // A process gone before the window closed has no CPU figure (the loadgen reads its end as 0).
    ...(r.server_cpu_ms_per_op !== undefined && !died ? { cpuMsPerOp: r.server_cpu_ms_per_op } : {}),
    p50Ms: r.p50_ms,
    p99Ms: r.p99_ms,
  };
}

async function main(cleanups: Cleanups): Promise<void> {
  const options = anchorOptions();
  const harness = harnessDir();
  const anchorBinary = await ensureAnchorBinary();
  const loadgenBinary = await ensureHarnessBinary(harness, 'loadgen');
  const baregoBinary = await ensureHarnessBinary(harness, 'barego');
  if (options.buildOnly) {
    console.log([anchorBinary, loadgenBinary, baregoBinary].join('\n'));
    return;
  }
  // Compiled once here, not inside the first run's start.
  if (options.code === 'compiled') ensureCompiledBuild();

  const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-anchor-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const minio = await startTestMinio();
  cleanups.push(() => minio.stop());
  const store = new S3ObjectStore({ endpoint: minio.endpoint, region: minio.region, forcePathStyle: true, credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey } });
  await store.createBucket(benchObject.bucket);
  await store.putObject(benchObject.bucket, benchObject.key, benchObjectBytes(), { contentType: 'text/csv' });
  let auditDsn: string | undefined;
  if (options.audit) {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    auditDsn = database.dsn;
  }
  const kinds: ServerKind[] = ['ours', 'anchor', ...(options.audit ? (['ours-audit'] as const) : [])];
  const variables = serverEnv({ key: benchApiKey, dir, accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey });
  // Each server at its default log level, as startPlatform runs ours.
  const anchorEnv: NodeJS.ProcessEnv = { ...process.env, ...variables };
  delete anchorEnv.LOG_LEVEL;
  const loadgen = new Loadgen(loadgenBinary, options);
  cleanups.push(() => loadgen.stop());
  // Every server's stop is registered as it spawns: an interruption stops the one starting or running.
  const onSpawn = (child: ChildProcess) => cleanups.push(() => stopChild(child));

  /** Starts `kind`, logging to a file of this run's own (`tag`), so a death's cause is this run's. */
  const start = async (kind: ServerKind, tag: string): Promise<Running> => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const file = join(dir, `${kind}.yaml`);
    const logFile = join(dir, `${kind}-${tag}.log`);
    writeServerConfig({ harness, kind, file, port, minioEndpoint: minio.endpoint, connections: options.connections, ...(auditDsn ? { auditDsn } : {}) });
    const child =
      kind === 'anchor'
        ? await startServer({ name: 'the anchor', command: anchorBinary, args: ['-config', file], env: anchorEnv, logFile, url, group: false, onSpawn })
        : await startPlatform({ configFile: file, logFile, url, code: options.code, env: variables, onSpawn });
    return { url, child, logFile };
  };
  const withServer = async <T>(begin: () => Promise<Running>, use: (server: Running) => Promise<T>): Promise<T> => {
    const server = await begin();
    try {
      return await use(server);
    } finally {
      await stopChild(server.child);
    }
  };

  // One exchange of each workload on each server first: a setup of ours that cannot work fails in
  // seconds, not after the rounds; the anchor's failures are its own figures, so they are only announced.
  for (const kind of kinds) {
    await withServer(
      () => start(kind, 'check'),
      async (server) => {
        for (const workload of options.workloads) {
          const refused = await loadgen.check(server.url + mcpPath, benchApiKey, workloadArgs(workload, kind));
          const problem = refused && `${serverLabels[kind]} fails ${workload} before any measurement: ${refused}`;
          if (problem && kind !== 'anchor') throw new Error(problem);
          if (problem) progress(`warning: ${problem}`);
        }
      },
    );
  }

  const startBarego = async (): Promise<Running> => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const logFile = join(dir, 'barego.log');
    const isReady = () => answers200(`${url}/bare`, { method: 'POST', body: '{}' });
    const child = await startServer({ name: 'barego', command: baregoBinary, args: [`127.0.0.1:${port}`], logFile, url, group: false, isReady, onSpawn });
    return { url, child, logFile };
  };
  const measure = (round: number, begin: () => Promise<Running>, path: string, args: string[]) =>
    withServer(begin, async (server) => {
      const outcome = await loadgen.measure(server.url + path, benchApiKey, args, server.child.pid!);
      return record(round, outcome, hasExited(server.child) ? describeDeath(server) : undefined);
    });

  const report: AnchorReport = {
    anchor: anchorLabel,
    ours: options.code,
    connections: options.connections,
    seconds: options.seconds,
    warmupSeconds: options.warmupSeconds,
    rounds: options.rounds,
    bare: [],
    workloads: options.workloads.map((workload): WorkloadRuns => ({ workload, runs: Object.fromEntries(kinds.map((kind) => [kind, []])) })),
    loadavg: { start: loadavg(), end: '' },
  };
  const figure = (run: RunRecord) => `${Math.round(run.rate)}${run.died ? ' (died)' : ''}${run.failed ? ' (failed)' : ''}${run.errors ? ` (${run.errors} errors)` : ''}`;
  for (let round = 1; round <= options.rounds; round++) {
    const bare = await measure(round, startBarego, '/bare', ['-w', 'bare']);
    report.bare.push(bare);
    progress(`round ${round}/${options.rounds}: bare ${figure(bare)} op/s (load average ${loadavg()})`);
    // Rotating the order each round spreads the drift of a shared machine over every server.
    const order = kinds.map((_, i) => kinds[(i + round - 1) % kinds.length]!);
    for (const entry of report.workloads) {
      const figures: string[] = [];
      for (const kind of order) {
        const run = await measure(round, () => start(kind, `${entry.workload}-${round}`), mcpPath, workloadArgs(entry.workload, kind));
        entry.runs[kind]!.push(run);
        figures.push(`${serverLabels[kind]} ${figure(run)}`);
      }
      progress(`round ${round}/${options.rounds} ${entry.workload}: ${figures.join(', ')} op/s`);
    }
  }
  report.loadavg.end = loadavg();

  console.log(formatAnchorReport(report));
  if (options.json) console.log(jsonAnchorReport(report));
  if (oursFailures(report) > 0) process.exitCode = 1;
}

await runBench(main);
