/**
 * Issue 20 item 5, sql_export on a real Trino server (the run's shared coordinator with the
 * `tpch` sample catalog): CSV and NDJSON stream page by page through Trino's next URIs and
 * round-trip; a write is refused; a query failing midway leaves the file at its last version;
 * Parquet, which Trino cannot write locally, is refused with the reason.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('refuses a write and Parquet; a query failing midway leaves the file at its last version', async () => {
    const to = { path: 'trino', filename: 'fragile.csv' };
    const first = ok(await rig.call('sql_export', { connection: 'cluster', sql: 'SELECT 1 AS n', resource: to }));
    expect(failed(await rig.call('sql_export', { connection: 'cluster', sql: 'CREATE TABLE memory.default.made AS SELECT 1 AS n', resource: to }))).toMatch(/Query rejected: .*sql_export runs reads only/);
    expect(failed(await rig.call('sql_export', { connection: 'cluster', sql: 'SELECT 1', format: 'parquet', resource: to }))).toMatch(/parquet is written by DuckDB connections; connection "cluster" is trino/);
    const text = failed(
      await rig.call('sql_export', { connection: 'cluster', sql: "SELECT CASE WHEN orderkey > 50000 THEN fail('boom midway') ELSE orderkey END AS k FROM orders", resource: to }),
    );
    expect(text).toMatch(/boom midway/);
    expect(text).toMatch(/trino\/fragile\.csv keeps its last version/);
    expect(await rig.versions(first.resource.id)).toEqual([1]);
    expect((await rig.content(first.resource.id)).toString()).toBe('n\n1\n');
  });
});
