/**
 * Benchmark (a script, not a test): the same sql_query through MCP over Streamable HTTP with
 * cross-enrichment on (warm provider cache) and off, printing both times and their ratio (issue 21:
 * goal at most 1.2x), and the cold-cache cost: the same call with the provider cache disabled, so
 * every call asks the catalog (the schema-validated DataHub test server on loopback) again.
 *
 *   npx tsx test/bench/enrichment.ts [iterations=40]
 *
 * DuckDB, table local.sales.orders (1,000 rows) catalogued as hive.sales.orders; the query names
 * three columns, so column filtering runs too. Session de-duplication is off, so every enriched
 * call carries the full block (the worst case: dedup only makes repeats cheaper).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiConfigYaml, testConfig } from '../support/api.js';
import { startDatahubServer } from '../support/datahub-server.js';
import { enrichmentYaml, execute, filesYaml, mcpClient, startEnrichmentRig, warehouseStatements, type EnrichmentRig } from '../integration/enrichment-fixtures.js';
import { median } from './mcp/report.js';

const iterations = Number(process.argv[2] ?? 40);
const sql = 'SELECT order_id, customer_email, amount FROM local.sales.orders ORDER BY order_id';
const goal = 1.2;

const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main() {
  const datahub = await startDatahubServer();
  const dirs: string[] = [];
  const rigs: EnrichmentRig[] = [];
  const clients: Client[] = [];

  /** An api with enrichment `on` (cache enabled or not) or off, over its own DuckDB file with the same rows. */
  async function start(mode: 'off' | 'warm' | 'cold'): Promise<Client> {
    const dir = mkdtempSync(join(tmpdir(), `bench-enrich-${mode}-`));
    dirs.push(dir);
    const enrichment = mode === 'off' ? '' : enrichmentYaml({ catalog: 'local', sqlInstance: 'local' });
    // Elicitation off on every side: the PII consent trigger reads the catalog too, but it is not enrichment.
    const withoutElicitation = enrichment.replace('elicitation:\n  enabled: true', 'elicitation:\n  enabled: false');
    const yaml = mode === 'cold' ? withoutElicitation.replace('cache: { enabled: true, ttl: 5m }', 'cache: { enabled: false }') : withoutElicitation;
    const config = testConfig(
      apiConfigYaml({
        extra: `data_dir: ${dir}\n${yaml}\ntoolkits:\n  sql:\n    local: { engine: duckdb }\n  catalog:\n    hub: { url: "${datahub.url}" }\n${filesYaml(join(dir, 'files'))}`,
      }),
    );
    const rig = await startEnrichmentRig(config);
    rigs.push(rig);
    await execute(rig.sql, [
      ...warehouseStatements('local'),
      "INSERT INTO local.sales.orders SELECT i, 'c' || i || '@example.com', i * 1.5, TIMESTAMP '2026-01-01 00:00:00', 'placed' FROM range(1000) t(i)",
    ]);
    const client = await mcpClient(rig.api.url);
    clients.push(client);
    return client;
  }

  const timed = (client: Client, enriched: boolean) => async () => {
    const t0 = performance.now();
    const r = await client.callTool({ name: 'sql_query', arguments: { sql } });
    const elapsed = performance.now() - t0;
    const sc = r.structuredContent as { row_count?: number; semantic_context?: unknown } | undefined;
    if (r.isError || sc?.row_count !== 1000 || (sc.semantic_context !== undefined) !== enriched) throw new Error(`unexpected result: ${JSON.stringify(r).slice(0, 300)}`);
    return elapsed;
  };

  try {
    const off = timed(await start('off'), false);
    const warm = timed(await start('warm'), true);
    const cold = timed(await start('cold'), true);
    for (let i = 0; i < 5; i++) {
      await off();
      await warm();
      await cold();
    }
    const samples = { off: [] as number[], warm: [] as number[], cold: [] as number[] };
    for (let i = 0; i < iterations; i++) {
      samples.off.push(await off());
      samples.warm.push(await warm());
      samples.cold.push(await cold());
    }
    const [m0, m1, m2] = [median(samples.off), median(samples.warm), median(samples.cold)];
    const ratio = m1 / m0;
    console.log(`sql_query, 1,000 rows, ${iterations} iterations after 5 warm-ups (DuckDB, DataHub test server on loopback)`);
    console.log(`  without enrichment          median ${ms(m0)}`);
    console.log(`  with enrichment, warm cache median ${ms(m1)}`);
    console.log(`  ratio (warm / without): ${ratio.toFixed(2)}x — goal at most ${goal}x (${ratio <= goal ? 'met' : 'not met'})`);
    console.log(`  with enrichment, no cache   median ${ms(m2)}  (cold-cache cost per call: +${ms(m2 - m0)}, ${(m2 / m0).toFixed(2)}x)`);
  } finally {
    for (const c of clients) await c.close();
    for (const r of rigs) await r.close();
    await datahub.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
