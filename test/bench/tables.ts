/**
 * Benchmark (a script, not a test) of table registration (issue 20) on the embedded DuckDB:
 * - registering a ~100 MB CSV resource (the checks stream the whole file, the version is moved into
 *   its directory, the view created) and its first query, against DuckDB's `read_csv` of the same
 *   file on local disk directly, first query included;
 * - the same aggregate repeated, through `sql_query` on the registered table vs `read_csv` in
 *   process.
 * - then the export tools' half (tables-export.ts): sql_export of 1,000,000 rows per format vs
 *   DuckDB's `COPY … TO` in the same run.
 * Printed as ratios, never asserted.
 *
 *   npm run bench:tables [-- megabytes=100 iterations=5 export_rows=1000000]
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { registerTable } from '../../shared/tables/index.js';
import { sales, startTablesEnv } from '../integration/tables-fixtures.js';
import { benchSqlExport } from './tables-export.js';
import { median } from './mcp/report.js';

export interface TableBenchResult {
  bytes: number;
  rows: number;
  /** Upload, then register + first query through sql_query (ms). */
  uploadMs: number;
  registerAndFirstQueryMs: number;
  /** DuckDB read_csv of the same local file, first query (ms). */
  directFirstQueryMs: number;
  /** Medians of the repeated aggregate (ms). */
  registeredQueryMs: number;
  directQueryMs: number;
}

const aggregate = (from: string) => `SELECT count(*) AS n, sum(amount) AS total, count(DISTINCT city) AS cities FROM ${from}`;

/** A CSV of about `bytes` bytes: id, name, city, amount, note. */
function* csvChunks(bytes: number): Generator<Buffer> {
  yield Buffer.from('id,name,city,amount,note\n');
  const cities = ['Paris', 'Oslo', 'Lima', 'Kyiv', 'Rome', 'Quito', 'Accra', 'Hanoi'];
  let written = 0;
  for (let id = 1; written < bytes; ) {
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++, id++) lines.push(`${id},name ${id},${cities[id % cities.length]},${(id % 9973) / 100},"note, ${id % 101}"`);
    const chunk = Buffer.from(`${lines.join('\n')}\n`);
    written += chunk.length;
    yield chunk;
  }
}


async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
}

export async function benchTableRegistration(opts: { megabytes: number; iterations: number }): Promise<TableBenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-tables-'));
  const file = join(dir, 'orders.csv');
  const env = await startTablesEnv('duckdb');
  try {
    await pipeline(Readable.from(csvChunks(opts.megabytes * 1_000_000)), createWriteStream(file));
    const [uploadMs, uploaded] = await time(() =>
      env.service.create(env.salesAdmin, { library: sales, path: 'data', file_name: 'orders.csv', if_exists: 'fail', origin: 'portal', body: createReadStream(file) }),
    );
    const [registerAndFirstQueryMs, rows] = await time(async () => {
      const { table } = await registerTable(env.deps, env.salesAdmin, { reference: uploaded.resource.reference, connection: env.connection, follow: false });
      return Number((await env.rig.query(aggregate(table.relation)))[0]!['n']);
    });
    const relation = env.rig.scratch.relation('sales_orders');
    const instance = await DuckDBInstance.create(':memory:');
    const direct = await instance.connect();
    const readCsv = `read_csv('${file}', header = true)`;
    const [directFirstQueryMs] = await time(() => direct.runAndReadAll(aggregate(readCsv)));
    const registered: number[] = [];
    const straight: number[] = [];
    for (let i = 0; i < opts.iterations; i++) {
      registered.push((await time(() => env.rig.query(aggregate(relation))))[0]);
      straight.push((await time(() => direct.runAndReadAll(aggregate(readCsv))))[0]);
    }
    direct.closeSync();
    instance.closeSync();
    return { bytes: uploaded.resource.size, rows, uploadMs, registerAndFirstQueryMs, directFirstQueryMs, registeredQueryMs: median(registered), directQueryMs: median(straight) };
  } finally {
    await env.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function report(r: TableBenchResult): void {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(`table registration, DuckDB: ${(r.bytes / 1e6).toFixed(0)} MB CSV, ${r.rows} rows (upload ${ms(r.uploadMs)})`);
  console.log(`  time to first query: register + query ${ms(r.registerAndFirstQueryMs)} vs read_csv directly ${ms(r.directFirstQueryMs)}: ${(r.registerAndFirstQueryMs / r.directFirstQueryMs).toFixed(2)}x`);
  console.log(`  query (median): registered table via sql_query ${ms(r.registeredQueryMs)} vs read_csv directly ${ms(r.directQueryMs)}: ${(r.registeredQueryMs / r.directQueryMs).toFixed(2)}x`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [megabytes = '100', iterations = '5', exportRows = '1000000'] = process.argv.slice(2);
  report(await benchTableRegistration({ megabytes: Number(megabytes), iterations: Number(iterations) }));
  await benchSqlExport(Number(exportRows), 3);
}
