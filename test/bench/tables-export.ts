/**
 * Benchmark (a script, not a test): sql_export's rows per second against DuckDB writing the same
 * query with `COPY … TO` straight to a file in this process, printed as a ratio per format (issue
 * 20; never asserted). sql_export runs the whole platform path: classification, the engine
 * process, paced pages over IPC, encoding (CSV, NDJSON) or the engine's COPY (Parquet), and the
 * managed-resources store (filesystem driver, Postgres).
 *
 * Run with the registration half by `npm run bench:tables` (test/bench/tables.ts), or alone:
 *   npx tsx test/bench/tables-export.ts [rows=1000000] [iterations=3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startExportRig } from '../integration/exports-fixtures.js';
import { median } from './mcp/report.js';

const copyOptions = { csv: '(FORMAT CSV, HEADER)', ndjson: '(FORMAT JSON)', parquet: '(FORMAT PARQUET)' } as const;
type Format = keyof typeof copyOptions;


export async function benchSqlExport(rows: number, iterations: number): Promise<void> {
  const query = `SELECT range AS id, 'row-' || range AS name, range * 0.5 AS amount, range % 7 = 0 AS flag FROM range(${rows})`;
  const rig = await startExportRig('filesystem', { extraYaml: 'resources:\n  managed:\n    max_upload_bytes: 4294967296' });
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const duck = await DuckDBInstance.create(':memory:', { threads: '2' });
  const connection = await duck.connect();
  try {
    console.log(`sql_export vs DuckDB COPY … TO, ${rows.toLocaleString('en')} rows, median of ${iterations}`);
    for (const format of Object.keys(copyOptions) as Format[]) {
      const viaTool: number[] = [];
      const direct: number[] = [];
      for (let i = 0; i < iterations + 1; i++) {
        let started = performance.now();
        const result = await rig.call('sql_export', { sql: query, format, timeout_seconds: 300, resource: { path: 'bench', filename: `export.${format}` } });
        const toolMs = performance.now() - started;
        if (result.isError) throw new Error(`sql_export failed: ${JSON.stringify(result.content)}`);
        started = performance.now();
        await connection.run(`COPY (${query}) TO '${join(dir, `direct-${i}.${format}`)}' ${copyOptions[format]}`);
        const directMs = performance.now() - started;
        if (i === 0) continue; // warm-up
        viaTool.push(toolMs);
        direct.push(directMs);
      }
      const toolRate = rows / (median(viaTool) / 1000);
      const directRate = rows / (median(direct) / 1000);
      console.log(
        `${format.padEnd(8)} sql_export ${Math.round(toolRate).toLocaleString('en')} rows/s (${median(viaTool).toFixed(0)} ms)` +
          ` | COPY TO ${Math.round(directRate).toLocaleString('en')} rows/s (${median(direct).toFixed(0)} ms)` +
          ` | ratio ${(directRate / toolRate).toFixed(2)}x`,
      );
    }
  } finally {
    connection.closeSync();
    duck.closeSync();
    rmSync(dir, { recursive: true, force: true });
    await rig.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchSqlExport(Number(process.argv[2] ?? 1_000_000), Number(process.argv[3] ?? 3));
}
