/**
 * Benchmark (a script, not a test) of the MCP request path against a bare Fastify route, each
 * figure a fraction of the bare route measured in the same run:
 *   W1  tools/call platform_info, one session per connection
 *   W2  session churn: initialize + notifications/initialized + tools/call + DELETE per operation
 *   W3  tools/list, one session per connection
 *   W4  tools/call objstore_get_object of a 64 KiB object (filesystem driver)
 *
 * This process only orchestrates. The platform runs as `platform serve` from the sources, the bare
 * route in a process of its own, and the load comes from a third process over HTTP/1.1 keep-alive
 * connections with raw JSON-RPC (test/bench/mcp/), so no client shares a server's event loop.
 * After a discarded warm-up round, workloads are interleaved round by round (bare, W1..W4, bare,
 * …) so drift hits them alike; each figure is the median over the rounds.
 *
 *   npm run bench:mcp
 *   BENCH_CONNECTIONS=16 BENCH_ROUNDS=5 BENCH_SECONDS=3   (the defaults)
 *   BENCH_WORKERS=2   also measure a platform with server.workers: 2 (sessions in a fresh database);
 *                     the report adds its figures over the one-process platform's (issue 41: W2 >= 0.8)
 *   BENCH_DATABASE_SESSIONS=1  also measure one process with its sessions in a fresh database: what
 *                     database sessions cost without the cluster (with BENCH_WORKERS=2, which of the
 *                     two a scale-out figure loses to)
 *   BENCH_WORKLOADS=W2  a subset of W1..W4
 *   BENCH_GO=0        leave out the Go floor: a minimal mark3labs/mcp-go server with the same two
 *                     tools and a bearer check (test/bench/go-anchor, built into the tool cache when a
 *                     Go toolchain is found) — what an MCP request costs in Go with nothing else on
 *                     the path; not the fuller Go platform the issue's goals are stated against
 *   BENCH_JSON=1      also print every figure as one JSON line
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfigFile } from '../../shared/config/index.js';
import { createTestDatabase, testPostgresAdminDsn } from '../support/postgres.js';
import { runBench, type Cleanups } from './mcp/cleanup.js';
import { localPostgresPid, processTreeCpuSeconds } from './mcp/cpu.js';
import { benchApiKey, benchObject, benchOptions, freePort, variantName, writeBenchObject, writePlatformConfig, type PlatformVariant } from './mcp/options.js';
import { LoadGenerator, startBareServer, startGoAnchor, startPlatform, stopChild } from './mcp/processes.js';
import { Series, formatReport, jsonReport, totalErrors, type Report, type VariantReport } from './mcp/report.js';
import type { Target } from './mcp/mcp-http.js';
import type { WorkloadName } from './mcp/workloads.js';

const options = benchOptions();
const platformWorkloads = options.workloads;

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** One server being measured: where the load goes and which process tree's CPU to read. */
interface Server {
  target: Target;
  pid: number;
}

interface RunningVariant {
  report: VariantReport;
  server: Server;
}

/**
 * Why this build cannot run `configFile`'s server.workers (the key lands in parallel work), or
 * undefined when it accepts it. An unknown key is only a warning to the loader, so that is checked too.
 */
function workersRefusal(configFile: string): string | undefined {
  try {
    const { warnings } = loadConfigFile(configFile);
    return warnings.some((w) => w.path === 'server.workers') ? 'this build\'s configuration does not know server.workers (unknown key)' : undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return `the configuration refuses it: ${error.message}`;
  }
}

/** A variant's platform.yaml in the run's dir, on a port free now. */
async function variantConfig(dir: string, variant: PlatformVariant): Promise<{ file: string; port: number }> {
  const file = join(dir, `platform-${variantName(variant)}.yaml`);
  const port = await freePort();
  writePlatformConfig(file, { port, dir, variant, connections: options.connections });
  return { file, port };
}

/** Starts `platform serve` for one variant and registers its stop. */
async function startVariant(cleanups: Cleanups, dir: string, variant: PlatformVariant, config: { file: string; port: number }): Promise<RunningVariant> {
  const url = `http://127.0.0.1:${config.port}`;
  const child = await startPlatform({ configFile: config.file, logFile: join(dir, `platform-${variantName(variant)}.log`), url });
  cleanups.push(() => stopChild(child));
  const sessions = variant.databaseDsn ? 'database' : 'memory';
  const label = variant.workers === 1 ? `1 process, sessions in ${sessions}` : `server.workers ${variant.workers}, sessions in ${sessions}`;
  return {
    report: { label, workers: variant.workers, sessions, series: platformWorkloads.map((w) => new Series(w, variant.workers > 1 ? `workers ${variant.workers}` : variant.databaseDsn ? 'database' : undefined)) },
    server: { target: { baseUrl: url, token: benchApiKey }, pid: child.pid! },
  };
}

/** A database of the variant's own for its sessions, dropped with the run. */
async function freshDatabaseDsn(cleanups: Cleanups): Promise<string> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database.dsn;
}

/** The single-process platform; with BENCH_DATABASE_SESSIONS=1 one on database sessions too; with BENCH_WORKERS > 1 one with that many workers (skipped, saying why, when not accepted). */
async function startVariants(cleanups: Cleanups, dir: string): Promise<{ running: RunningVariant[]; skipped: string[] }> {
  const single = { workers: 1 };
  const running = [await startVariant(cleanups, dir, single, await variantConfig(dir, single))];
  const skipped: string[] = [];
  if (options.databaseSingle) {
    const variant = { workers: 1, databaseDsn: await freshDatabaseDsn(cleanups) };
    running.push(await startVariant(cleanups, dir, variant, await variantConfig(dir, variant)));
  }
  if (options.workers > 1) {
    const scaled = { workers: options.workers, databaseDsn: await freshDatabaseDsn(cleanups) };
    const config = await variantConfig(dir, scaled);
    const refusal = workersRefusal(config.file);
    if (refusal === undefined) running.push(await startVariant(cleanups, dir, scaled, config));
    else skipped.push(`server.workers ${scaled.workers}: ${refusal}`);
  }
  return { running, skipped };
}

/** One round of `workload` against `server`, with the server's CPU sampled over the timed window. */
async function measure(load: LoadGenerator, workload: WorkloadName, server: Server, databasePid: number | undefined) {
  const sample = () => ({ server: processTreeCpuSeconds(server.pid), database: databasePid === undefined ? 0 : processTreeCpuSeconds(databasePid) });
  let atStart = { server: 0, database: 0 };
  let atEnd = atStart;
  const result = await load.run(
    { workload, target: server.target, seconds: options.seconds, connections: options.connections, object: benchObject },
    {
      onStart: () => (atStart = sample()),
      onEnd: () => (atEnd = sample()),
    },
  );
  return { result, serverCpuSeconds: atEnd.server - atStart.server, ...(databasePid === undefined ? {} : { databaseCpuSeconds: atEnd.database - atStart.database }) };
}

/** The Go floor, unless BENCH_GO=0 or it cannot be built (then skipped, saying why). */
async function startAnchor(cleanups: Cleanups, dir: string, objectFile: string, skipped: string[]): Promise<{ report: NonNullable<Report['anchor']>; server: Server } | undefined> {
  if (process.env.BENCH_GO === '0') return undefined;
  const port = await freePort();
  const child = await startGoAnchor({ port, key: benchApiKey, objectFile, bucket: benchObject.bucket, logFile: join(dir, 'go-anchor.log') });
  if (typeof child === 'string') {
    skipped.push(`Go floor: ${child}`);
    return undefined;
  }
  cleanups.push(() => stopChild(child));
  return {
    report: { label: 'minimal mark3labs/mcp-go v1.2.1 server, stateful sessions', series: platformWorkloads.map((w) => new Series(w, 'go')) },
    server: { target: { baseUrl: `http://127.0.0.1:${port}`, token: benchApiKey }, pid: child.pid! },
  };
}

async function main(cleanups: Cleanups): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const anchorObject = await writeBenchObject(dir);

  const barePort = await freePort();
  const bareChild = await startBareServer(barePort);
  cleanups.push(() => stopChild(bareChild));
  const bare: Server = { target: { baseUrl: `http://127.0.0.1:${barePort}`, token: '' }, pid: bareChild.pid! };
  const { running, skipped } = await startVariants(cleanups, dir);
  const anchor = await startAnchor(cleanups, dir, anchorObject, skipped);
  // Postgres's CPU counts for every platform once any keeps its sessions there (about zero for the others).
  const databasePid = running.some((v) => v.report.sessions === 'database') ? await localPostgresPid(testPostgresAdminDsn) : undefined;
  const load = await LoadGenerator.start();
  cleanups.push(() => stopChild(load.child));

  const report: Report = {
    connections: options.connections,
    rounds: options.rounds,
    seconds: options.seconds,
    bare: new Series('bare'),
    variants: running.map((v) => v.report),
    skipped,
    ...(anchor ? { anchor: anchor.report } : {}),
  };
  // Bare first, then each platform variant's workloads; the same order every round.
  const schedule: Array<{ series: Series; server: Server }> = [
    { series: report.bare, server: bare },
    ...running.flatMap((variant) => variant.report.series.map((series) => ({ series, server: variant.server }))),
    ...(anchor ? anchor.report.series.map((series) => ({ series, server: anchor.server })) : []),
  ];

  const runRound = async (record: boolean): Promise<string> => {
    const figures: string[] = [];
    for (const { series, server } of schedule) {
      const { result, serverCpuSeconds, databaseCpuSeconds } = await measure(load, series.workload, server, databasePid);
      if (record) series.add(result, serverCpuSeconds, databaseCpuSeconds);
      figures.push(`${series.name} ${Math.round(result.ops / result.seconds)}${result.errors ? ` (${result.errors} errors: ${result.errorSamples[0]})` : ''}`);
    }
    return `${figures.join(', ')} op/s`;
  };
  progress(`warm-up round, discarded: ${await runRound(false)}`);
  for (let round = 1; round <= options.rounds; round++) progress(`round ${round}/${options.rounds}: ${await runRound(true)}`);

  console.log(formatReport(report));
  if (options.json) console.log(jsonReport(report));
  if (totalErrors(report) > 0) process.exitCode = 1;
}

await runBench(main);
