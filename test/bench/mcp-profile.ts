/**
 * Profiling driver (a script, not a test): starts the api in this process with the production
 * logger (info level, stderr) and drives it from a child process, so the CPU profile holds the
 * server's costs only. The driver runs the `bench:mcp` workloads — tools/call of platform_info from
 * 16 sessions, tools/list, session churn. The profile covers the load only (not startup, not the
 * warm-up) and is written as a `.cpuprofile` (Chrome DevTools, speedscope, or the summary script).
 *
 *   npx tsx test/bench/mcp-profile.ts /tmp/api.cpuprofile 2>/tmp/api.log
 *   npx tsx test/bench/cpuprofile-summary.ts /tmp/api.cpuprofile
 *
 * BENCH_CALLS (default 3000), BENCH_LISTS (1000) and BENCH_CHURN (300) set the work.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { commandLogger } from '../../cli/context.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';

const concurrency = 16;
const totalCalls = Number(process.env.BENCH_CALLS ?? 3000);
const totalLists = Number(process.env.BENCH_LISTS ?? 1000);
const churnRounds = Number(process.env.BENCH_CHURN ?? 300);

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'profile', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${testApiKey}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

/** Runs `count` operations over `concurrency` workers, each with its own session. */
async function spread(url: string, count: number, op: (client: Client) => Promise<unknown>): Promise<void> {
  const sessions = await Promise.all(Array.from({ length: concurrency }, () => connect(url)));
  let next = 0;
  await Promise.all(sessions.map(async ({ client }) => {
    while (next++ < count) await op(client);
  }));
  await Promise.all(sessions.map(({ client }) => client.close()));
}

async function drive(url: string): Promise<void> {
  await spread(url, 200, (c) => c.callTool({ name: 'platform_info', arguments: {} }));
  // Warm: the parent starts profiling now and says so.
  process.send!('warm');
  await once(process, 'message');
  await spread(url, totalCalls, (c) => c.callTool({ name: 'platform_info', arguments: {} }));
  await spread(url, totalLists, (c) => c.listTools());
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < churnRounds) {
      const { client, transport } = await connect(url);
      await client.callTool({ name: 'platform_info', arguments: {} });
      await transport.terminateSession();
      await client.close();
    }
  }));
}

async function profiled(driver: ChildProcess, out: string): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await once(driver, 'message');
  await session.post('Profiler.start');
  driver.send('go');
  const [code] = (await once(driver, 'exit')) as [number | null];
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  if (code !== 0) throw new Error(`driver exited with ${code}`);
  writeFileSync(out, JSON.stringify(profile));
}

const driveIndex = process.argv.indexOf('--drive');
if (driveIndex >= 0) {
  await drive(process.argv[driveIndex + 1]!);
} else {
  const out = process.argv[2] ?? 'api.cpuprofile';
  const api = await startTestApi({ config: testConfig(apiConfigYaml()), log: commandLogger() });
  try {
    await profiled(fork(fileURLToPath(import.meta.url), ['--drive', api.url], { execArgv: ['--import', 'tsx'] }), out);
  } finally {
    await api.stop();
  }
}
