/**
 * Benchmark (a script, not a test) of scripted endpoints (issue 17): GET requests from concurrent
 * keep-alive clients to a trivial handler at `/endpoints/{name}` of the api role — binding read from
 * Postgres (coalesced), the endpoint's warm QuickJS instance on a sandbox thread, audit row — against a
 * bare Fastify route answering the same JSON in the same process, measured in the same run with the
 * same clients. Prints requests/s, p50/p99 latency of each and their ratio (goal ≥ 0.25; the median of
 * alternating bare/endpoint pairs of rounds), CPU per
 * request (the whole process, and its main thread from /proc on Linux), the bot-check solver's
 * times at difficulty 16 and 20 in Chromium (solver-timing.ts), and — for scale — the api role's
 * /healthz (the platform's HTTP stack alone) and the sandbox alone: the same handler run with as
 * many runs at once, no HTTP at all.
 *
 *   npm run bench:endpoints
 *   BENCH_SECONDS=10 BENCH_CLIENTS=32 BENCH_WARMUP_SECONDS=2 BENCH_PAIRS=3   (the defaults)
 *
 * The clients run in a forked process of this script (`--clients`), so their work never shares the
 * servers' event loop. The platform uses real Postgres (test/support/postgres.ts) and logs nothing.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import http from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { openDatabase, startApiRole } from '../../cli/services.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createSandbox } from '../../shared/scripts/index.js';
import { auditedApiYaml, restJson, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { reportSolverTimes } from './solver-timing.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const clients = Number(process.env.BENCH_CLIENTS ?? 32);
/** Bare and endpoint rounds measured in alternation; an odd count has one median. */
const pairs = Number(process.env.BENCH_PAIRS ?? 3);
const ratioGoal = 0.25;
const apiKey = 'bench-key-0123456789';
const source = "export function handle(req) { return { json: { hello: 'world' } } }";

interface Round {
  url: string;
  seconds: number;
  warmupSeconds: number;
  clients: number;
}

interface RoundResult {
  /** Answers by status ("error" for a failed request) within the window. */
  statuses: Record<string, number>;
  /** Milliseconds from sending to the end of the answer, of the 200s in the window. */
  latencies: number[];
}

// ---------------------------------------------------------------------------------------------
// The clients (forked process)

function get(agent: http.Agent, url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: url.pathname, agent }, (response) => {
        response.resume().on('end', () => resolve(response.statusCode ?? 0)).on('error', reject);
      })
      .on('error', reject);
  });
}

async function runRound(round: Round): Promise<RoundResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: round.clients });
  const url = new URL(round.url);
  const result: RoundResult = { statuses: {}, latencies: [] };
  const windowStart = performance.now() + round.warmupSeconds * 1000;
  const windowEnd = windowStart + round.seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: round.clients }, async () => {
        while (performance.now() < windowEnd) {
          const sentAt = performance.now();
          let status: string;
          try {
            status = String(await get(agent, url));
          } catch {
            status = 'error';
          }
          const doneAt = performance.now();
          // Only requests sent and answered inside the window count.
          if (sentAt < windowStart || doneAt > windowEnd) continue;
          result.statuses[status] = (result.statuses[status] ?? 0) + 1;
          if (status === '200') result.latencies.push(doneAt - sentAt);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The orchestrator

/** What this process (the servers, the sandbox threads) used over a round, warm-up included. */
interface Usage {
  /** CPU time of every thread of this process per second of the round (cores in use). */
  cores: number;
  /** The share of the round the main thread's event loop was busy. */
  loopBusy: number;
  /** CPU time of the main thread alone, in ms (Linux: /proc; undefined elsewhere). */
  mainCpuMs: number | undefined;
  elapsedMs: number;
}

/** The main thread's CPU time so far in ms, from /proc (clock ticks of 10 ms); undefined off Linux. */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function measure(url: string): Promise<RoundResult & Usage> {
  const child = fork(fileURLToPath(import.meta.url), ['--clients'], { execArgv: ['--import', 'tsx'] });
  await once(child, 'spawn');
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpuMs();
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  child.send({ url, seconds, warmupSeconds, clients } satisfies Round);
  const [message] = (await once(child, 'message')) as [{ result?: RoundResult; error?: string }];
  const used = process.cpuUsage(cpu);
  const mainCpuAfter = mainThreadCpuMs();
  const loopBusy = performance.eventLoopUtilization(loop).utilization;
  const elapsedMs = performance.now() - started;
  child.disconnect();
  if (!message.result) throw new Error(message.error);
  const mainCpuMs = mainCpu === undefined || mainCpuAfter === undefined ? undefined : mainCpuAfter - mainCpu;
  return { ...message.result, cores: (used.user + used.system) / 1000 / elapsedMs, loopBusy, mainCpuMs, elapsedMs };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function report(label: string, result: RoundResult & Usage): number {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const perSecond = sorted.length / seconds;
  const others = Object.entries(result.statuses).filter(([status]) => status !== '200');
  // CPU over the whole round (warm-up included) per request answered in it, at the window's rate.
  const requests = (perSecond * result.elapsedMs) / 1000;
  const perRequest = (ms: number) => `${((ms * 1000) / requests).toFixed(0)} µs`;
  console.log(
    `${label.padEnd(34)} ${perSecond.toFixed(0).padStart(7)} req/s   p50 ${percentile(sorted, 0.5).toFixed(2)} ms   p99 ${percentile(sorted, 0.99).toFixed(2)} ms` +
      `   server process ${result.cores.toFixed(2)} cores (${perRequest(result.cores * result.elapsedMs)}/request${result.mainCpuMs === undefined ? '' : `, main thread ${perRequest(result.mainCpuMs)}`}), main loop ${(result.loopBusy * 100).toFixed(0)}% busy` +
      (others.length ? `   other answers: ${JSON.stringify(Object.fromEntries(others))}` : ''),
  );
  return perSecond;
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  // A browser-session signing key: the bot check derives its challenge key from it (the solver round).
  const config = testConfig(`${auditedApiYaml({ dsn: database.dsn, keys: [{ key: apiKey, name: 'bench', roles: ['staff'] }] })}  browser_session:
    signing_key: ${randomBytes(32).toString('base64')}
personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "platform_info"] } }
`);
  const log = silentLogger();
  const db = (await openDatabase(config, log))!;
  const api = await startApiRole({ config, log, db });
  const bare = Fastify();
  bare.get('/bare', async () => ({ hello: 'world' }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
  try {
    const created = await restJson(`${api.url}/api/v1/portal/scripts`, apiKey, 'POST', { name: 'hello', source });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    // Public with open reads: no bot check; a rate limit past anything one replica can answer,
    // written past the API's own maximum (100,000 a minute: 1,667/s sustained after a burst of
    // 100,000, which the endpoint outran by its fourth round, answering 429s that counted as lost
    // throughput). The limiter is still consulted on every request, as it is in production.
    await db.query(
      `INSERT INTO endpoint_bindings (endpoint, script_id, auth_mode, open_reads, rate_limit) VALUES ('hello', $1, 'public', true, 100000000)`,
      [created.body.script.id],
    );
    // Every sandbox thread (a QuickJS module each) starts before measuring, as in bench:scripts.
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: clients }, async () => (await fetch(`${api.url}/endpoints/hello`)).text()));
    console.log(`scripted endpoints: ${clients} concurrent keep-alive clients, ${seconds} s each after ${warmupSeconds} s of warm-up; load average before ${loadavg()[0]!.toFixed(2)}`);
    // The platform's own HTTP stack (hooks, request ids, metrics) on a trivial route, for scale.
    report('api role /healthz', await measure(`${api.url}/healthz`));
    // Bare and endpoint rounds alternate, `pairs` times: the machine's drift between two rounds (the
    // bare route alone moves by a fifth from one round to the next) lands on both sides of a pair,
    // and the median pair's ratio is the figure.
    const ratios: number[] = [];
    for (let pair = 1; pair <= pairs; pair++) {
      const bareRate = report(`bare Fastify route (${pair})`, await measure(`${bareUrl}/bare`));
      const endpointRate = report(`trivial handler at /endpoints/hello (${pair})`, await measure(`${api.url}/endpoints/hello`));
      ratios.push(endpointRate / bareRate);
    }
    const sortedRatios = [...ratios].sort((a, b) => a - b);
    const ratio = sortedRatios[Math.floor(sortedRatios.length / 2)]!;
    console.log(
      `ratio endpoint / bare: ${ratio.toFixed(3)}, the median of ${pairs} pairs (${ratios.map((r) => r.toFixed(3)).join(', ')}) (goal ≥ ${ratioGoal}: ${ratio >= ratioGoal ? 'met' : 'not met'})`,
    );
    await reportSolverTimes(api.url, db, 'hello');
  } finally {
    await bare.close();
    await api.stop();
    await db.end();
    await database.drop();
  }
  const sandboxRate = await sandboxAlone();
  console.log(`${'sandbox alone (no HTTP, no session)'.padEnd(34)} ${sandboxRate.toFixed(0).padStart(7)} runs/s`);
}

/** Runs/s of the trivial handler straight through a sandbox of `clients` threads, as many runs at once. */
async function sandboxAlone(): Promise<number> {
  const sandbox = createSandbox({ maxConcurrent: clients });
  const run = () =>
    sandbox.run({ source, entry: 'handle', args: [{}], memoryBytes: 64 * 1024 * 1024, deadlineMs: 10_000, resolveLibrary: async () => undefined, host: {} });
  try {
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: clients }, run));
    let runs = 0;
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < end) if ((await run()).status === 'ok') runs++;
      }),
    );
    return runs / seconds;
  } finally {
    await sandbox.close();
  }
}

if (process.argv.includes('--clients')) {
  process.once('message', (round: Round) => {
    runRound(round).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
} else {
  await main();
}
