/**
 * Benchmark (a script, not a test): a 10,000-row sql_query through MCP over Streamable HTTP against
 * the same query straight on DuckDB in this process, printing both times and their ratio, and that
 * ratio against the one measured before the engine moved into its own process (issue 9, item 2).
 *
 *   npx tsx test/bench/sql.ts [iterations=20]
 *
 * Both sides read the generated sample dataset (sample.orders, 20,000 rows) from their own DuckDB
 * file (DuckDB allows one opener per file), and both turn rows into JSON-ready objects, so the
 * ratio is the cost of the platform path: HTTP + MCP session, classification, the engine process
 * (IPC, byte budget), row conversion, result shaping and JSON serialisation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createSqlToolkit, DuckDbEngine, ensureSampleData } from '../../shared/sql/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';

const iterations = Number(process.argv[2] ?? 20);
const sql = 'SELECT * FROM sample.orders ORDER BY order_id LIMIT 10000';

/**
 * The ratio this script printed with DuckDB inside the api process (commit bf1566a, before issue 9),
 * median of three runs of 80 iterations on the build machine (3.3x, 3.2x, 3.0x). Issue 9 allows the
 * engine process to cost at most 1.2 times that.
 */
const ratioBefore = 3.2;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { median, mean, min: sorted[0]!, max: sorted.at(-1)! };
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sql-'));
  const config = testConfig(apiConfigYaml({ extra: `data_dir: ${dir}\ntoolkits:\n  sql:\n    local:\n      engine: duckdb\n` }));
  const toolkit = createSqlToolkit(config, { log: silentLogger() });
  await ensureSampleData(toolkit.connection().engine);
  const api = await startTestApi({ config, tools: toolkit.tools });

  // The in-process baseline gets its own file with the same generated data.
  const baselineFile = join(dir, 'baseline.duckdb');
  const seed = new DuckDbEngine({ path: baselineFile });
  await ensureSampleData(seed);
  await seed.close();
  const instance = await DuckDBInstance.create(baselineFile);
  const connection = await instance.connect();

  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));

  const viaMcp = async () => {
    const t0 = performance.now();
    const r = await client.callTool({ name: 'sql_query', arguments: { sql, limit: 10000 } });
    const elapsed = performance.now() - t0;
    const rows = (r.structuredContent as { row_count?: number } | undefined)?.row_count;
    if (r.isError || rows !== 10000) throw new Error(`unexpected MCP result: ${JSON.stringify(r).slice(0, 300)}`);
    return elapsed;
  };
  const direct = async () => {
    const t0 = performance.now();
    const reader = await connection.runAndReadAll(sql);
    const rows = reader.getRowObjectsJson();
    const elapsed = performance.now() - t0;
    if (rows.length !== 10000) throw new Error(`unexpected direct row count ${rows.length}`);
    return elapsed;
  };

  try {
    for (let i = 0; i < 3; i++) {
      await viaMcp();
      await direct();
    }
    const mcp: number[] = [];
    const inProcess: number[] = [];
    for (let i = 0; i < iterations; i++) {
      mcp.push(await viaMcp());
      inProcess.push(await direct());
    }
    const a = stats(mcp);
    const b = stats(inProcess);
    console.log(`sql_query, 10,000 rows, ${iterations} iterations after 3 warm-ups`);
    console.log(`  MCP over HTTP     median ${ms(a.median)}  mean ${ms(a.mean)}  min ${ms(a.min)}  max ${ms(a.max)}`);
    console.log(`  DuckDB in-process median ${ms(b.median)}  mean ${ms(b.mean)}  min ${ms(b.min)}  max ${ms(b.max)}`);
    const ratio = a.median / b.median;
    console.log(`  ratio (median MCP / median in-process): ${ratio.toFixed(1)}x`);
    console.log(`  after / before (in-process engine, ${ratioBefore}x): ${(ratio / ratioBefore).toFixed(2)}x (at most 1.2x)`);
  } finally {
    await client.close();
    await api.stop();
    await toolkit.close();
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
