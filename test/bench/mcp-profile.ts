/**
 * Profiling driver (a script, not a test): starts the api in this process with the production
 * logger (info level, stderr) and drives it from a child process, so what is measured here is the
 * server's work only. The driver runs the `bench:mcp` workloads — tools/call of platform_info from
 * 16 sessions, tools/list, session churn (initialize + call + DELETE) — after a warm-up.
 *
 * Prints the server's CPU time (user + system) per operation of each workload: unlike calls per
 * second, it barely moves when other processes share the machine. With a file name, also writes a
 * CPU profile of the workloads (not of startup or warm-up) as a `.cpuprofile` (Chrome DevTools,
 * speedscope, or the summary script); the profiler adds its own cost to the CPU figures.
 *
 *   npx tsx test/bench/mcp-profile.ts 2>/dev/null
 *   npx tsx test/bench/mcp-profile.ts /tmp/api.cpuprofile 2>/tmp/api.log
 *   npx tsx test/bench/cpuprofile-summary.ts /tmp/api.cpuprofile
 *
 * BENCH_CALLS (default 3000), BENCH_LISTS (1000) and BENCH_CHURN (300) set the work;
 * BENCH_SESSIONS=database profiles database sessions (a fresh test database) instead of memory ones.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { commandLogger } from '../../cli/context.js';
import { createPool, migrate } from '../../shared/db/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

const concurrency = 16;
const workloads = {
  'tools/call': Number(process.env.BENCH_CALLS ?? 3000),
  'tools/list': Number(process.env.BENCH_LISTS ?? 1000),
  churn: Number(process.env.BENCH_CHURN ?? 300),
};
type Workload = keyof typeof workloads;

/** Driver → server: a workload starts or ended. Server → driver: noted, go on. */
type Mark = { start: Workload } | { end: Workload };

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'profile', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${testApiKey}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

/** Runs `count` operations over `concurrency` workers. */
async function spread(count: number, op: (worker: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async (_, worker) => {
    while (next++ < count) await op(worker);
  }));
}

async function mark(m: Mark): Promise<void> {
  process.send!(m);
  await once(process, 'message');
}

/** Runs a workload between marks; sessions that only serve it are opened before and closed after. */
async function measured(name: Workload, op: (client: Client) => Promise<unknown>, perSession = true): Promise<void> {
  const sessions = perSession ? await Promise.all(Array.from({ length: concurrency }, () => connect(url))) : [];
  await mark({ start: name });
  await spread(workloads[name], (worker) => op(sessions[worker]?.client as Client));
  await mark({ end: name });
  await Promise.all(sessions.map(({ client }) => client.close()));
}

let url = '';
async function drive(): Promise<void> {
  const warm = await connect(url);
  for (let i = 0; i < 300; i++) await warm.client.callTool({ name: 'platform_info', arguments: {} });
  for (let i = 0; i < 100; i++) await warm.client.listTools();
  await warm.client.close();
  await measured('tools/call', (c) => c.callTool({ name: 'platform_info', arguments: {} }));
  await measured('tools/list', (c) => c.listTools());
  await measured('churn', async () => {
    const { client, transport } = await connect(url);
    await client.callTool({ name: 'platform_info', arguments: {} });
    await transport.terminateSession();
    await client.close();
  }, false);
}

/** Follows the driver's marks: CPU time per workload, and the profile across them all. */
async function serve(driver: ChildProcess, out: string | undefined): Promise<void> {
  const session = out ? new Session() : undefined;
  session?.connect();
  await session?.post('Profiler.enable');
  let started: NodeJS.CpuUsage | undefined;
  driver.on('message', (m: Mark) => {
    if ('start' in m) {
      started = process.cpuUsage();
      if (m.start === 'tools/call') void session?.post('Profiler.start');
    } else {
      const used = process.cpuUsage(started);
      const micros = (used.user + used.system) / workloads[m.end];
      console.log(`${m.end.padEnd(10)} ${String(workloads[m.end]).padStart(6)} ops  ${micros.toFixed(0).padStart(6)} µs server CPU per op`);
    }
    driver.send('ok');
  });
  const [code] = (await once(driver, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`driver exited with ${code}`);
  if (session && out) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(out, JSON.stringify(profile));
  }
  session?.disconnect();
}

const driveIndex = process.argv.indexOf('--drive');
if (driveIndex >= 0) {
  url = process.argv[driveIndex + 1]!;
  await drive();
} else {
  const database = process.env.BENCH_SESSIONS === 'database' ? await createTestDatabase() : undefined;
  const db = database ? createPool({ dsn: database.dsn, maxOpenConns: 8 }) : undefined;
  if (db) await migrate(db);
  const extra = database ? `sessions:\n  store: database\ndatabase:\n  dsn: ${database.dsn}\n` : '';
  const api = await startTestApi({ config: testConfig(apiConfigYaml({ extra })), log: commandLogger(), ...(db ? { db } : {}) });
  try {
    // The driver runs without this process's flags (not profiled, not inspected).
    await serve(fork(fileURLToPath(import.meta.url), ['--drive', api.url], { execArgv: ['--import', 'tsx'] }), process.argv[2]);
  } finally {
    await api.stop();
    await db?.end();
    await database?.drop();
  }
}
