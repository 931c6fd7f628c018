/**
 * Issue 20 item 5, sql_export on a real Trino server (the run's shared coordinator with the
 * `tpch` sample catalog): CSV and NDJSON stream page by page through Trino's next URIs and
 * round-trip; Parquet, written row group by row group as the pages arrive, round-trips through
 * DuckDB's reader with its types; a write is refused; a query failing midway leaves the file at
 * its last version.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbEngine } from '../../shared/sql/index.js';
import { callTool, toolText } from '../support/sql-tools.js';
import { sharedTrino } from '../support/trino.js';
import { failed, ok, startExportRig, type ExportRig } from './exports-fixtures.js';

describe('sql_export on a real Trino server', () => {
  let rig: ExportRig;
  beforeAll(async () => {
    const { hostname, port } = new URL(await sharedTrino());
    rig = await startExportRig('filesystem', {
      sqlYaml: ['    cluster:', `      host: ${hostname}`, `      port: ${port}`, '      user: analyst', '      catalog: tpch', '      schema: tiny'],
    });
  }, 300_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('CSV and NDJSON round-trip a result of many pages, and the same path revises the same file', async () => {
    const to = { path: 'trino', filename: 'orders.ndjson' };
    const sql = 'SELECT orderkey, orderstatus, totalprice, orderdate FROM orders ORDER BY orderkey';
    const first = ok(await rig.call('sql_export', { connection: 'cluster', sql, format: 'ndjson', resource: to }));
    expect(first).toMatchObject({ outcome: 'created', rows: 15_000, connection: 'cluster' });
    const lines = (await rig.content(first.resource.id)).toString().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(15_000);
    expect(lines[0]).toEqual({ orderkey: 1, orderstatus: 'O', totalprice: 172799.49, orderdate: '1996-01-02' });
    const second = ok(await rig.call('sql_export', { connection: 'cluster', sql: 'SELECT name FROM nation ORDER BY nationkey', format: 'ndjson', resource: to }));
    expect(second).toMatchObject({ outcome: 'revised', rows: 25, resource: { id: first.resource.id, version: 2 } });

    const csv = ok(await rig.call('sql_export', { connection: 'cluster', sql: 'SELECT nationkey, name, comment FROM nation ORDER BY nationkey', resource: { path: 'trino', filename: 'nation.csv' } }));
    const records = parse(await rig.content(csv.resource.id), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(25);
    expect(records[0]).toMatchObject({ nationkey: '0', name: 'ALGERIA' });
  });

  it('Parquet round-trips a result of many pages and row groups: DuckDB reads back the rows and types', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'exports-trino-parquet-'));
    const reader = new DuckDbEngine({ path: ':memory:', allowedDirectories: [scratch] });
    try {
      const sql =
        "SELECT orderkey, orderstatus = 'F' AS done, totalprice, CAST(shippriority AS integer) AS priority, CAST(totalprice AS real) AS approx, orderdate, " +
        "CASE WHEN orderkey % 7 = 0 THEN NULL ELSE comment END AS note, ARRAY[orderkey, custkey] AS keys FROM orders ORDER BY orderkey";
      const out = ok(await rig.call('sql_export', { connection: 'cluster', sql, format: 'parquet', resource: { path: 'trino', filename: 'orders.parquet' } }));
      expect(out).toMatchObject({ rows: 15_000, resource: { content_type: 'application/vnd.apache.parquet' } });
      const file = join(scratch, 'orders.parquet');
      await writeFile(file, await rig.content(out.resource.id));
      const types = await reader.query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${file}'))`, [], AbortSignal.timeout(10_000));
      expect(types).toEqual([
        ['orderkey', 'BIGINT'],
        ['done', 'BOOLEAN'],
        ['totalprice', 'DOUBLE'],
        ['priority', 'INTEGER'],
        ['approx', 'FLOAT'],
        ['orderdate', 'VARCHAR'],
        ['note', 'VARCHAR'],
        ['keys', 'VARCHAR'],
      ]);
      const rows = await reader.query(`SELECT count(*), count(note), min(orderkey), max(orderkey) FROM read_parquet('${file}')`, [], AbortSignal.timeout(10_000));
      expect(rows).toEqual([[15_000, 15_000 - 2_142, 1, 60_000]]);
      const first = await reader.query(`SELECT orderkey, done, totalprice, orderdate, keys FROM read_parquet('${file}') ORDER BY orderkey LIMIT 1`, [], AbortSignal.timeout(10_000));
      expect(first).toEqual([[1, false, 172799.49, '1996-01-02', '[1,370]']]);
    } finally {
      await reader.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('refuses a write; a query failing midway leaves the file at its last version', async () => {
    const to = { path: 'trino', filename: 'fragile.csv' };
    const first = ok(await rig.call('sql_export', { connection: 'cluster', sql: 'SELECT 1 AS n', resource: to }));
    expect(failed(await rig.call('sql_export', { connection: 'cluster', sql: 'CREATE TABLE memory.default.made AS SELECT 1 AS n', resource: to }))).toMatch(/Query rejected: .*sql_export runs reads only/);
    const text = failed(
      await rig.call('sql_export', { connection: 'cluster', sql: "SELECT CASE WHEN orderkey > 50000 THEN fail('boom midway') ELSE orderkey END AS k FROM orders", resource: to }),
    );
    expect(text).toMatch(/boom midway/);
    expect(text).toMatch(/trino\/fragile\.csv keeps its last version/);
    expect(await rig.versions(first.resource.id)).toEqual([1]);
    expect((await rig.content(first.resource.id)).toString()).toBe('n\n1\n');
  });

  it('an export refused by its target stops the query on Trino instead of draining it', async () => {
    const marker = `refused-${Date.now()}`;
    const sql = `SELECT l.*, '${marker}' AS marker FROM tpch.sf10.lineitem l`;
    const text = failed(await rig.call('sql_export', { connection: 'cluster', sql, resource: { library: 'person:apikey:bob', path: 'x', filename: 'x.csv' } }));
    expect(text).toMatch(/not allowed to add files/);
    // The statement ends cancelled (USER_CANCELED) within moments; drained, it would run for minutes.
    const state = async () =>
      toolText(
        await callTool(rig.sql.tools, 'sql_query', {
          connection: 'cluster',
          sql: `SELECT state, error_code FROM system.runtime.queries WHERE query LIKE '%${marker}''%' AND query NOT LIKE '%system.runtime%'`,
        }),
      );
    const deadline = Date.now() + 20_000;
    let seen = await state();
    while (/RUNNING|QUEUED|PLANNING|STARTING|FINISHING/.test(seen) && Date.now() < deadline) seen = await state();
    expect(seen).toMatch(/FAILED/);
    expect(seen).toMatch(/USER_CANCELED/);
  });
});
