/**
 * Benchmark (a script, not a test): a 10,000-row sql_query through MCP over Streamable HTTP against
 * the same query straight on the engine's own client in this process, printing both times and their
 * ratio, for two engines:
 * - DuckDB: the generated sample dataset (sample.orders) read in-process with @duckdb/node-api
 *   (issue 41: goal at most 1.5x); the ratio is also compared with the one measured before the
 *   engine moved into its own process (issue 9, item 2: at most 1.2 times that).
 * - Trino: tpch.tiny.orders on a real Trino server (the test harness's, test/support/trino.ts) read
 *   with the trino-client package directly (issue 13: goal at most 1.3x).
 *
 *   npx tsx test/bench/sql.ts [iterations=20]
 *
 * Both sides turn rows into JSON-ready objects, so each ratio is the cost of the platform path:
 * HTTP + MCP session, classification, the engine process or client protocol loop, byte budget,
 * row conversion, result shaping and JSON serialisation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Trino } from 'trino-client';
import { silentLogger } from '../../shared/logging/index.js';
import { createSqlToolkit, DuckDbEngine, ensureSampleData } from '../../shared/sql/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { sharedTrino } from '../support/trino.js';

const iterations = Number(process.argv[2] ?? 20);
const duckdbSql = 'SELECT * FROM sample.orders ORDER BY order_id LIMIT 10000';
const trinoSql = 'SELECT * FROM tpch.tiny.orders ORDER BY orderkey LIMIT 10000';

/**
 * The ratio this script printed with DuckDB inside the api process (commit bf1566a, before issue 9),
 * median of three runs of 80 iterations on the build machine (3.3x, 3.2x, 3.0x). Issue 9 allows the
 * engine process to cost at most 1.2 times that.
 */
const ratioBefore = 3.2;
/** Issue 13's goal for Trino: MCP at most 1.3 times the direct client. */
const trinoGoal = 1.3;
/** Issue 41's goal for DuckDB (item 3): MCP at most 1.5 times the in-process query. */
const duckdbGoal = 1.5;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { median, mean, min: sorted[0]!, max: sorted.at(-1)! };
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Times both sides alternately after 3 warm-ups; answers the ratio of their medians. */
async function compare(title: string, viaMcp: () => Promise<number>, direct: () => Promise<number>, directLabel: string): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await viaMcp();
    await direct();
  }
  const mcp: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < iterations; i++) {
    mcp.push(await viaMcp());
    baseline.push(await direct());
  }
  const a = stats(mcp);
  const b = stats(baseline);
  console.log(`${title}, 10,000 rows, ${iterations} iterations after 3 warm-ups`);
  console.log(`  MCP over HTTP     median ${ms(a.median)}  mean ${ms(a.mean)}  min ${ms(a.min)}  max ${ms(a.max)}`);
  console.log(`  ${directLabel.padEnd(17)} median ${ms(b.median)}  mean ${ms(b.mean)}  min ${ms(b.min)}  max ${ms(b.max)}`);
  const ratio = a.median / b.median;
  console.log(`  ratio (median MCP / median ${directLabel}): ${ratio.toFixed(2)}x`);
  return ratio;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sql-'));
  const trinoUrl = new URL(await sharedTrino());
  const trinoInstance = `    cluster:\n      host: ${trinoUrl.hostname}\n      port: ${trinoUrl.port}\n      user: bench\n`;
  const config = testConfig(apiConfigYaml({ extra: `data_dir: ${dir}\ntoolkits:\n  sql:\n    local:\n      engine: duckdb\n${trinoInstance}` }));
  const toolkit = createSqlToolkit(config, { log: silentLogger() });
  await ensureSampleData(toolkit.connection('local').engine);
  const api = await startTestApi({ config, tools: toolkit.tools });

  // The in-process baseline gets its own file with the same generated data.
  const baselineFile = join(dir, 'baseline.duckdb');
  const seed = new DuckDbEngine({ path: baselineFile });
  await ensureSampleData(seed);
  await seed.close();
  const instance = await DuckDBInstance.create(baselineFile);
  const connection = await instance.connect();
  const trino = Trino.create({ server: trinoUrl.origin, source: 'bench', auth: undefined, extraHeaders: { 'X-Trino-User': 'bench' } });

  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));

  const viaMcp = (connectionName: string, sql: string) => async () => {
    const t0 = performance.now();
    const r = await client.callTool({ name: 'sql_query', arguments: { sql, limit: 10000, connection: connectionName } });
    const elapsed = performance.now() - t0;
    const rows = (r.structuredContent as { row_count?: number } | undefined)?.row_count;
    if (r.isError || rows !== 10000) throw new Error(`unexpected MCP result: ${JSON.stringify(r).slice(0, 300)}`);
    return elapsed;
  };
  const duckdbDirect = async () => {
    const t0 = performance.now();
    const reader = await connection.runAndReadAll(duckdbSql);
    const rows = reader.getRowObjectsJson();
    const elapsed = performance.now() - t0;
    if (rows.length !== 10000) throw new Error(`unexpected direct row count ${rows.length}`);
    return elapsed;
  };
  const trinoDirect = async () => {
    const t0 = performance.now();
    const rows: Array<Record<string, unknown>> = [];
    for await (const page of await trino.query(trinoSql)) {
      if (page.error) throw new Error(page.error.message);
      const names = (page.columns ?? []).map((c) => c.name);
      for (const row of page.data ?? []) rows.push(Object.fromEntries(names.map((n, i) => [n, (row as unknown[])[i]])));
    }
    const elapsed = performance.now() - t0;
    if (rows.length !== 10000) throw new Error(`unexpected direct row count ${rows.length}`);
    return elapsed;
  };

  try {
    const duckdb = await compare('DuckDB: sql_query', viaMcp('local', duckdbSql), duckdbDirect, 'DuckDB in-process');
    console.log(`  after / before (in-process engine, ${ratioBefore}x): ${(duckdb / ratioBefore).toFixed(2)}x (at most 1.2x)`);
    console.log(`  goal: at most ${duckdbGoal}x (${duckdb <= duckdbGoal ? 'met' : 'not met'})`);
    const trinoRatio = await compare('Trino: sql_query', viaMcp('cluster', trinoSql), trinoDirect, 'trino-client');
    console.log(`  goal: at most ${trinoGoal}x (${trinoRatio <= trinoGoal ? 'met' : 'not met'})`);
  } finally {
    await client.close();
    await api.stop();
    await toolkit.close();
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  // The Trino server this script started stops on exit (test/support/run-servers.ts).
  .finally(() => process.exit());
