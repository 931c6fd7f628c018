/**
 * Benchmark (a script, not a test) of the webhook ingest (issue 14): 1 KiB JSON events POSTed by
 * concurrent keep-alive senders, each request HMAC-signed, to `/hooks/{source}` of the api role —
 * acknowledged only once their segment is in the platform's storage — against a bare Fastify JSON
 * route answering 202 {"accepted":1} in the same process, measured in the same run with the same
 * senders and payloads. Per store (the filesystem driver with DuckDB; MinIO with Trino's Hive
 * scratch catalog, as DuckDB reads the platform's storage only from the filesystem) it prints:
 *   - accepted events/s of single-event requests, and their ratio to the bare route in the same
 *     round (goal: the median of the rounds' ratios ≥ 0.5);
 *   - p50/p99 ack latency as the senders see it (goal: p99 ≤ flush_max_interval_ms + 100 ms);
 *   - events/s of 100-event batches split with `split: $.events`;
 *   - this process's CPU time per accepted event over each window (servers, receiver, buffer,
 *     storage client: the senders are elsewhere), which says whether a round was CPU-bound, and
 *     the p99 of its event loop delay (how long a ready request waited for the loop).
 * Sources use the spec's flush settings (1,000 ms / 5,000 events / 8 MiB); the buffer's group
 * commit writes as soon as the store is idle, so closed-loop senders are bounded by the store's
 * write latency (with the filesystem driver, its fsyncs), not by the interval.
 *
 *   npm run bench:webhooks
 *   BENCH_SECONDS=10 BENCH_SENDERS=64 BENCH_WARMUP_SECONDS=2   (the defaults)
 *   BENCH_STORES=fs,minio   the stores to measure (MinIO starts the test harness's MinIO and Trino)
 *   BENCH_WORKLOADS=spec,batch   the ingest workloads to measure (the bare route always runs)
 *   BENCH_ROUNDS=3          rounds of the bare route and single events, the order alternating; the
 *                   goal holds the median of the rounds' ratios (the machine's speed moves between rounds)
 *   BENCH_PROFILE_DIR=dir   write a V8 CPU profile of this process over each ingest window into dir
 *                   (`<store>-<workload>.cpuprofile`; summarise with test/bench/cpuprofile-summary.ts)
 *
 * The senders run in a forked process of this script (`--senders`), so their client work never
 * shares the servers' event loop. The platform uses real Postgres (test/support/postgres.ts) and
 * logs nothing, like startTestApi.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { createSqlToolkit } from '../../shared/sql/index.js';
import { createWebhookServices, removeWebhookSource, type WebhookServices } from '../../cli/webhooks.js';
import { createResourceService } from '../../shared/resources/index.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { duckdbPlatformYaml, trinoPlatformYaml } from '../support/scratch-rigs.js';
import { median } from './mcp/report.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const senders = Number(process.env.BENCH_SENDERS ?? 64);
const stores = (process.env.BENCH_STORES ?? 'fs,minio').split(',').map((s) => s.trim()).filter(Boolean);
/** The workloads besides the bare route: spec (single events), batch (100-event batches with split). */
const workloads = new Set((process.env.BENCH_WORKLOADS ?? 'spec,batch').split(',').map((s) => s.trim()));
const batchSize = 100;
const eventBytes = 1024;
const ratioGoal = 0.5;
const signatureHeader = 'x-signature';
const profileDir = process.env.BENCH_PROFILE_DIR;
const spec = { flushMaxEvents: 5000, flushIntervalMs: 1000 };
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

/** What the orchestrator asks the senders for: POST to `url` for `seconds`, after `warmupSeconds` not counted. */
interface Round {
  url: string;
  secret: string;
  /** Events per request: 1 sends an event as the body, more send {"events": [...]}. */
  batch: number;
  seconds: number;
  warmupSeconds: number;
  senders: number;
}

interface RoundResult {
  accepted: number;
  requests: number;
  /** Answers other than 202 by status ("error" for a failed request), with a sample body. */
  refused: Record<string, { count: number; sample: string }>;
  /** Milliseconds from sending to the end of the answer, of the 202s in the window. */
  latencies: number[];
}

// ---------------------------------------------------------------------------------------------
// The senders (forked process)

/** Text to pad events with: random base64, so segments compress no better than real payloads would. */
const padding = randomBytes(48 * 1024).toString('base64');

/** A JSON event of exactly `eventBytes` bytes, unique by `id`. */
function eventOf(id: string): Record<string, unknown> {
  const event = { id, type: 'order.created', occurred_at: new Date().toISOString(), customer: { id: 'c-42', tier: 'gold' }, total: 12.5, pad: '' };
  const length = eventBytes - JSON.stringify(event).length;
  const offset = Math.floor(Math.random() * (padding.length - length));
  event.pad = padding.slice(offset, offset + length);
  return event;
}

function post(agent: http.Agent, url: URL, body: Buffer, signature: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length, [signatureHeader]: signature },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function sendRound(round: Round): Promise<RoundResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: round.senders });
  const url = new URL(round.url);
  const result: RoundResult = { accepted: 0, requests: 0, refused: {}, latencies: [] };
  const start = performance.now();
  const windowStart = start + round.warmupSeconds * 1000;
  const windowEnd = windowStart + round.seconds * 1000;
  const prefix = randomBytes(4).toString('hex');
  let sequence = 0;
  // The orchestrator measures its own CPU time over the window: both marks go out before the result.
  const mark = (window: 'start' | 'end', at: number) => new Promise<void>((resolve) => setTimeout(() => resolve(void process.send?.({ window })), at - start));
  const marks = Promise.all([mark('start', windowStart), mark('end', windowEnd)]);
  const refuse = (key: string, sample: string) => {
    const entry = (result.refused[key] ??= { count: 0, sample: sample.slice(0, 200) });
    entry.count++;
  };
  try {
    await Promise.all(
      Array.from({ length: round.senders }, async () => {
        while (performance.now() < windowEnd) {
          const events = Array.from({ length: round.batch }, () => eventOf(`${prefix}-${++sequence}`));
          const body = Buffer.from(JSON.stringify(round.batch === 1 ? events[0] : { events }));
          const signature = `sha256=${createHmac('sha256', round.secret).update(body).digest('hex')}`;
          const sentAt = performance.now();
          let answer: { status: number; text: string };
          try {
            answer = await post(agent, url, body, signature);
          } catch (error) {
            if (sentAt >= windowStart) refuse('error', error instanceof Error ? error.message : String(error));
            continue;
          }
          const doneAt = performance.now();
          // Only requests sent and answered inside the window count.
          if (sentAt < windowStart || doneAt > windowEnd) continue;
          result.requests++;
          if (answer.status !== 202) {
            refuse(String(answer.status), answer.text);
            continue;
          }
          result.accepted += (JSON.parse(answer.text) as { accepted: number }).accepted;
          result.latencies.push(doneAt - sentAt);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  await marks;
  return result;
}

// ---------------------------------------------------------------------------------------------
// The orchestrator

class Senders {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<Senders> {
    const child = fork(fileURLToPath(import.meta.url), ['--senders'], { execArgv: ['--import', 'tsx'] });
    await once(child, 'spawn');
    return new Senders(child);
  }

  /**
   * The round's result, this process's CPU seconds during its window and the 99th percentile of
   * its event loop delay (how long a ready request may wait for the loop), profiled into `profile`
   * when given.
   */
  run(round: Round, profile?: string): Promise<RoundResult & { cpuSeconds: number; loopDelayP99Ms: number }> {
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    const session = profile ? new Session() : undefined;
    session?.connect();
    const profiling = { started: Promise.resolve(), stopped: Promise.resolve() };
    return new Promise<RoundResult & { cpuSeconds: number; loopDelayP99Ms: number }>((resolve, reject) => {
      let cpuAtStart: NodeJS.CpuUsage | undefined;
      let cpuSeconds = Number.NaN;
      const settle = () => {
        this.child.off('exit', onExit);
        this.child.off('message', onMessage);
      };
      const onExit = (code: number | null) => {
        settle();
        reject(new Error(`the senders exited (code ${code})`));
      };
      const onMessage = (message: { window?: 'start' | 'end'; result?: RoundResult; error?: string }) => {
        if (message.window === 'start') {
          cpuAtStart = process.cpuUsage();
          loopDelay.enable();
          if (session) profiling.started = session.post('Profiler.enable').then(() => session.post('Profiler.start'));
        } else if (message.window === 'end' && cpuAtStart) {
          const used = process.cpuUsage(cpuAtStart);
          cpuSeconds = (used.user + used.system) / 1e6;
          loopDelay.disable();
          if (session && profile) {
            profiling.stopped = profiling.started
              .then(() => session.post('Profiler.stop'))
              .then(({ profile: written }) => writeFileSync(profile, JSON.stringify(written)));
          }
        } else {
          settle();
          if (message.result) resolve({ ...message.result, cpuSeconds, loopDelayP99Ms: loopDelay.percentile(99) / 1e6 });
          else reject(new Error(message.error));
        }
      };
      this.child.on('exit', onExit);
      this.child.on('message', onMessage);
      this.child.send(round);
    }).finally(async () => {
      await profiling.stopped;
      session?.disconnect();
    });
  }

  stop(): void {
    this.child.disconnect();
  }
}

interface Figures {
  label: string;
  eventsPerSecond: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** This process's CPU time (servers, buffer, storage client) per accepted event. */
  cpuMicrosPerEvent: number;
  loopDelayP99Ms: number;
  refused: RoundResult['refused'];
  loadBefore: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

async function measure(sendersProcess: Senders, label: string, round: Omit<Round, 'seconds' | 'warmupSeconds' | 'senders'>, profile?: string): Promise<Figures> {
  const loadBefore = loadavg()[0]!;
  const result = await sendersProcess.run({ ...round, seconds, warmupSeconds, senders }, profile);
  const sorted = result.latencies.sort((a, b) => a - b);
  const figures = {
    label,
    eventsPerSecond: result.accepted / seconds,
    requestsPerSecond: result.requests / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    cpuMicrosPerEvent: (result.cpuSeconds * 1e6) / result.accepted,
    loopDelayP99Ms: result.loopDelayP99Ms,
    refused: result.refused,
    loadBefore,
  };
  console.log(`  ${row(figures)}`);
  return figures;
}

const num = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
function row(f: Figures, ratio?: number): string {
  const refused = Object.entries(f.refused)
    .map(([status, { count, sample }]) => `${count}×${status} (${sample})`)
    .join(', ');
  return [
    f.label.padEnd(58),
    num(f.eventsPerSecond).padStart(9),
    num(f.requestsPerSecond).padStart(9),
    (ratio === undefined ? '' : `${ratio < 0.1 ? ratio.toFixed(3) : ratio.toFixed(2)}x`).padStart(7),
    `${num(f.p50, 1)} ms`.padStart(11),
    `${num(f.p99, 1)} ms`.padStart(11),
    `${num(f.cpuMicrosPerEvent)} µs`.padStart(9),
    `${num(f.loopDelayP99Ms, 1)} ms`.padStart(9),
    num(f.loadBefore, 2).padStart(6),
    refused ? `  refused: ${refused}` : '',
  ].join(' ');
}

/** A bare Fastify JSON route in this process: the same senders and payloads, 202 {"accepted":1}. */
async function startBare(): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.post('/bare', async (_request, reply) => reply.code(202).send({ accepted: 1 }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/bare`, close: () => app.close() };
}

/** A platform store to measure: the config lines naming its storage and the connection of its tables. */
interface Store {
  key: 'fs' | 'minio';
  name: string;
  yaml: string;
  connection: string;
  cleanup(): Promise<void>;
}

async function fsStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const yaml = duckdbPlatformYaml(dir);
  return { key: 'fs', name: 'filesystem + DuckDB', yaml, connection: 'local', cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function minioStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const id = randomBytes(4).toString('hex');
  const yaml = `data_dir: ${dir}\n${await trinoPlatformYaml({ bucketPrefix: `wb${id}-`, schema: `bench${id}` })}`;
  return { key: 'minio', name: 'MinIO + Trino', yaml, connection: 'cluster', cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

interface StoreFigures {
  store: string;
  /** The bare route's rounds. */
  bare: Figures[];
  /** `goal`: the ratio is held to ratioGoal (single events; batches are compared for information). */
  rows: Array<{ figures: Figures; ratio: number; goal: boolean; flushIntervalMs: number }>;
}

async function measureStore(sendersProcess: Senders, store: Store, db: Db): Promise<StoreFigures> {
  const config = testConfig(apiConfigYaml({ extra: `${store.yaml}\nwebhooks:\n  receiver:\n    enabled: true\n` }));
  const log = silentLogger();
  const metrics = createMetrics({ defaultMetrics: false });
  const sql = createSqlToolkit(config, { log });
  const objstore = createObjstoreConnections(config);
  const bare = await startBare();
  let services: WebhookServices | undefined;
  let api: Awaited<ReturnType<typeof startTestApi>> | undefined;
  const created: string[] = [];
  try {
    services = await createWebhookServices({ config, db, objstore, sql, metrics, log });
    api = await startTestApi({ config, db, webhooks: services, metrics });
    const secret = randomBytes(24).toString('hex');
    const suffix = randomBytes(2).toString('hex');
    const source = async (name: string, extra: Record<string, unknown>) => {
      const full = `${name}-${suffix}`;
      await services!.sources.create(
        {
          name: full,
          connection: store.connection,
          auth: { mode: 'hmac', secret, signature_header: signatureHeader, prefix: 'sha256=' },
          config: { persona: 'analyst', event_id_path: '$.id', event_type_path: '$.type', key_path: '$.customer.id', ...extra },
        },
        'bench',
      );
      created.push(full);
      return `${api!.url}/hooks/${full}`;
    };
    const specSource = await source('bench-spec', {});
    const batchSource = await source('bench-batch', { split: '$.events' });

    console.log(`\n${store.name}: ${senders} senders, ${seconds} s each after ${warmupSeconds} s of warm-up (load average before each round in the last column)`);
    console.log(`  ${'workload'.padEnd(58)} ${'events/s'.padStart(9)} ${'req/s'.padStart(9)} ${''.padStart(7)} ${'p50'.padStart(11)} ${'p99'.padStart(11)} ${'CPU/event'.padStart(9)} ${'loop p99'.padStart(9)} ${'load'.padStart(6)}`);
    const profile = (workload: string) => (profileDir ? join(profileDir, `${store.key}-${workload}.cpuprofile`) : undefined);
    const bareRounds: Figures[] = [];
    const rows: StoreFigures['rows'] = [];
    const measureBare = async (round: number) => {
      const figures = await measure(sendersProcess, `bare Fastify JSON route (round ${round + 1})`, { url: bare.url, secret, batch: 1 }, round === 0 ? profile('bare') : undefined);
      bareRounds.push(figures);
      return figures;
    };
    // Rounds of the bare route and single events, the order alternating: the machine's speed
    // moves between rounds, so each round's ratio is the figure, and the goal holds their median.
    for (let round = 0; round < (workloads.has('spec') ? rounds : 1); round++) {
      const bareFirst = round % 2 === 0;
      let bareFigures = bareFirst ? await measureBare(round) : undefined;
      if (workloads.has('spec')) {
        const label = `single events, flush ${spec.flushIntervalMs} ms / ${spec.flushMaxEvents} events (round ${round + 1})`;
        const figures = await measure(sendersProcess, label, { url: specSource, secret, batch: 1 }, round === 0 ? profile('spec') : undefined);
        bareFigures ??= await measureBare(round);
        rows.push({ figures, ratio: figures.eventsPerSecond / bareFigures.eventsPerSecond, goal: true, flushIntervalMs: spec.flushIntervalMs });
      }
    }
    if (workloads.has('batch')) {
      const figures = await measure(sendersProcess, `${batchSize}-event batches, split $.events (spec flush)`, { url: batchSource, secret, batch: batchSize }, profile('batch'));
      rows.push({ figures, ratio: figures.eventsPerSecond / median(bareRounds.map((b) => b.eventsPerSecond)), goal: false, flushIntervalMs: spec.flushIntervalMs });
    }
    return { store: store.name, bare: bareRounds, rows };
  } finally {
    const resources = createResourceService({ config, db, objstore, log });
    const remove = async (name: string) => {
      const source = await services!.sources.markRemoving(name);
      await removeWebhookSource({ webhooks: services!, resources }, { id: source.id, name, connection: source.connection, persona: source.config.persona });
    };
    for (const name of created) await remove(name).catch((error: unknown) => console.error(`could not delete source ${name}:`, error));
    await api?.stop();
    await bare.close();
    await sql.close();
    await objstore.close();
    await store.cleanup();
  }
}

function report(all: StoreFigures[]): void {
  console.log(`\nSummary (${senders} senders, ${eventBytes}-byte events, ${seconds} s per round; ratio = events/s / bare route events/s in the same store's rounds; the goal applies to single events)`);
  console.log(`  ${'store / workload'.padEnd(58)} ${'events/s'.padStart(9)} ${'req/s'.padStart(9)} ${'ratio'.padStart(7)} ${'p50'.padStart(11)} ${'p99'.padStart(11)} ${'CPU/event'.padStart(9)} ${'loop p99'.padStart(9)} ${'load'.padStart(6)}`);
  const goals: string[] = [];
  for (const s of all) {
    console.log(`  ${s.store}`);
    for (const b of s.bare) console.log(`  ${row({ ...b, label: `  ${b.label}` })}`);
    const ratios = s.rows.filter((r) => r.goal).map((r) => r.ratio);
    if (ratios.length > 0) {
      const m = median(ratios);
      goals.push(`${s.store}, single events: ratio ${m.toFixed(3)} (median of the rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}) ≥ ${ratioGoal} ${m >= ratioGoal ? 'met' : 'NOT met'}`);
    }
    for (const r of s.rows) {
      console.log(`  ${row({ ...r.figures, label: `  ${r.figures.label}` }, r.ratio)}`);
      const clean = Object.keys(r.figures.refused).length === 0;
      const bound = r.flushIntervalMs + 100;
      goals.push(`${s.store}, ${r.figures.label}: p99 ${num(r.figures.p99, 1)} ms ≤ ${bound} ms ${r.figures.p99 <= bound ? 'met' : 'NOT met'}`);
      if (!clean) goals.push(`${s.store}, ${r.figures.label}: some requests were refused (see the table)`);
    }
  }
  console.log('\nGoals');
  for (const g of goals) console.log(`  ${g}`);
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const db = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  const sendersProcess = await Senders.start();
  const all: StoreFigures[] = [];
  try {
    await migrate(db);
    for (const name of stores) {
      if (name !== 'fs' && name !== 'minio') throw new Error(`unknown store ${name} in BENCH_STORES (fs, minio)`);
      all.push(await measureStore(sendersProcess, await (name === 'fs' ? fsStore() : minioStore()), db));
    }
    report(all);
  } finally {
    sendersProcess.stop();
    await db.end();
    await database.drop();
  }
}

if (process.argv.includes('--senders')) {
  process.on('message', (round: Round) => {
    sendRound(round).then(
      (result) => process.send?.({ result }),
      (error: unknown) => process.send?.({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The orchestrator went away: nothing left to send for.
  process.on('disconnect', () => process.exit(0));
} else {
  main()
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    // The MinIO and Trino servers this script started stop on exit (test/support/run-servers.ts).
    .finally(() => process.exit());
}
