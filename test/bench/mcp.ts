/**
 * Benchmark (a script, not a test): tools/call of platform_info over Streamable HTTP from 16
 * concurrent sessions, against a bare Fastify JSON route in the same process and run; then
 * session churn (initialize + one call + DELETE). Prints calls/s and ratios.
 *
 *   npm run bench:mcp            (BENCH_CALLS=4000 BENCH_CHURN=300 to change the work)
 */
import Fastify from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';

const concurrency = 16;
const totalCalls = Number(process.env.BENCH_CALLS ?? 4000);
const churnRounds = Number(process.env.BENCH_CHURN ?? 300);
const headers = { authorization: `Bearer ${testApiKey}` };

async function timed(work: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Runs `count` operations spread over `concurrency` workers. */
async function spread(count: number, worker: (index: number) => Promise<() => Promise<void>>): Promise<number> {
  const ops = await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
  let next = 0;
  return timed(async () => {
    await Promise.all(
      ops.map(async (op) => {
        while (next++ < count) await op();
      }),
    );
  });
}

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

const api = await startTestApi({ config: testConfig(apiConfigYaml()) });
const bare = Fastify();
const payload = { name: 'agent-data-platform', version: '1.0.0', description: '', tags: [], agent_instructions: '', toolkits: [] };
bare.post('/bare', async () => payload);
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`;

try {
  // Warm-up of both paths so JIT and connection pools are hot before measuring.
  const warm = await connect(api.url);
  for (let i = 0; i < 200; i++) await warm.client.callTool({ name: 'platform_info', arguments: {} });
  for (let i = 0; i < 200; i++) await (await fetch(bareUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
  await warm.client.close();

  const clients: Client[] = [];
  const mcpSeconds = await spread(totalCalls, async () => {
    const { client } = await connect(api.url);
    clients.push(client);
    return async () => {
      const result = await client.callTool({ name: 'platform_info', arguments: {} });
      if (result.isError) throw new Error('platform_info failed');
    };
  });
  await Promise.all(clients.map((c) => c.close()));

  const bareSeconds = await spread(totalCalls, async () => async () => {
    const response = await fetch(bareUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await response.json();
  });

  const churnSeconds = await spread(churnRounds, async () => async () => {
    const { client, transport } = await connect(api.url);
    await client.callTool({ name: 'platform_info', arguments: {} });
    await transport.terminateSession();
    await client.close();
  });

  const mcpRate = totalCalls / mcpSeconds;
  const bareRate = totalCalls / bareSeconds;
  const churnRate = churnRounds / churnSeconds;
  console.log(`concurrency ${concurrency}, ${totalCalls} calls each`);
  console.log(`MCP tools/call platform_info   ${mcpRate.toFixed(0)} calls/s`);
  console.log(`bare Fastify JSON route        ${bareRate.toFixed(0)} calls/s`);
  console.log(`ratio MCP / bare               ${(mcpRate / bareRate).toFixed(3)}`);
  console.log(`session churn (init+call+DELETE) ${churnRate.toFixed(0)} sessions/s (${churnRounds} sessions)`);
  console.log(`ratio churn sessions / bare calls ${(churnRate / bareRate).toFixed(4)}`);
} finally {
  await api.stop();
  await bare.close();
}
