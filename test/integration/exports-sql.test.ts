/**
 * Issue 20 item 5, sql_export on DuckDB, on both storage drivers (spec document 2, "Agent tools",
 * export paragraph): each format round-trips; the same path revises the same file; a write query,
 * a second statement and a query that escapes Parquet's COPY are refused with nothing stored; a
 * query failing mid-stream leaves the file at its last version; table_changes comes from the
 * table-registration dependency.
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbPath } from '../../shared/config/index.js';
import { DuckDbEngine } from '../../shared/sql/index.js';
import { callTool } from '../support/sql-tools.js';
import { failed, ok, startExportRig, type ExportRig } from './exports-fixtures.js';

const typed = `SELECT id, text, amount::DOUBLE AS amount, flag, note FROM (VALUES
  (1, 'plain', 1.5, true, NULL),
  (2, 'comma, "quote"', -2.25, false, 'x'),
  (3, 'line
break', 0.0, NULL, '=SUM(A1)')
) AS t(id, text, amount, flag, note) ORDER BY id`;

describe.each(['filesystem', 's3'] as const)('sql_export on DuckDB (%s)', (driver) => {
  let rig: ExportRig;
  let scratch: string;
  let reader: DuckDbEngine;
  beforeAll(async () => {
    rig = await startExportRig(driver);
    scratch = await mkdtemp(join(tmpdir(), 'exports-read-'));
    reader = new DuckDbEngine({ path: ':memory:', allowedDirectories: [scratch] });
  }, 120_000);
  afterAll(async () => {
    await reader?.close();
    await rig?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('CSV round-trips: header, quotes, line breaks, null as empty, booleans as words, formula cells made inert', async () => {
    const out = ok(await rig.call('sql_export', { sql: typed, format: 'csv', resource: { path: 'exports', filename: 'typed.csv' } }));
    expect(out).toMatchObject({ outcome: 'created', rows: 3, format: 'csv', connection: 'local', table_changes: [], resource: { version: 1, file_name: 'typed.csv', content_type: 'text/csv' } });
    expect(out.resource.reference).toMatch(/^mcp:resource:/);
    const records = parse(await rig.content(out.resource.id), { columns: true }) as Record<string, string>[];
    expect(records).toEqual([
      { id: '1', text: 'plain', amount: '1.5', flag: 'true', note: '' },
      { id: '2', text: 'comma, "quote"', amount: '-2.25', flag: 'false', note: 'x' },
      { id: '3', text: 'line\nbreak', amount: '0', flag: '', note: "'=SUM(A1)" },
    ]);
  });

  it('NDJSON round-trips: one object per row with typed values and nulls', async () => {
    const out = ok(await rig.call('sql_export', { sql: typed, format: 'ndjson', resource: { path: 'exports', filename: 'typed.ndjson' } }));
    expect(out).toMatchObject({ rows: 3, resource: { content_type: 'application/x-ndjson' } });
    const lines = (await rig.content(out.resource.id)).toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { id: 1, text: 'plain', amount: 1.5, flag: true, note: null },
      { id: 2, text: 'comma, "quote"', amount: -2.25, flag: false, note: 'x' },
      { id: 3, text: 'line\nbreak', amount: 0, flag: null, note: '=SUM(A1)' },
    ]);
  });

  it('Parquet round-trips: DuckDB reads back the same rows and types', async () => {
    const out = ok(await rig.call('sql_export', { sql: `${typed};`, format: 'parquet', resource: { path: 'exports', filename: 'typed.parquet' } }));
    expect(out).toMatchObject({ rows: 3, resource: { content_type: 'application/vnd.apache.parquet' } });
    const file = join(scratch, `${driver}.parquet`);
    await writeFile(file, await rig.content(out.resource.id));
    const rows = await reader.query(`SELECT id, text, amount, flag, note FROM read_parquet('${file}') ORDER BY id`, [], AbortSignal.timeout(10_000));
    expect(rows).toEqual([
      [1, 'plain', 1.5, true, null],
      [2, 'comma, "quote"', -2.25, false, 'x'],
      [3, 'line\nbreak', 0, null, '=SUM(A1)'],
    ]);
  });

  it('the same path revises the same file: version 2 of one resource, the new rows in it', async () => {
    const to = { path: 'exports/daily', filename: 'numbers.csv' };
    const first = ok(await rig.call('sql_export', { sql: 'SELECT range AS n FROM range(3)', resource: to }));
    const second = ok(await rig.call('sql_export', { sql: 'SELECT range AS n FROM range(5)', resource: { ...to, change_summary: 'five rows now' } }));
    expect(first).toMatchObject({ outcome: 'created', resource: { version: 1 } });
    expect(second).toMatchObject({ outcome: 'revised', resource: { id: first.resource.id, version: 2, reference: first.resource.reference } });
    expect((await rig.content(first.resource.id)).toString()).toBe('n\n0\n1\n2\n3\n4\n');
    expect(await rig.versions(first.resource.id)).toEqual([1, 2]);
    const summaries = await rig.env.db.query('SELECT change_summary FROM resource_versions WHERE resource_id = $1 ORDER BY version', [first.resource.id]);
    expect(summaries.rows.map((r: { change_summary: string }) => r.change_summary)).toEqual(['export of a query on connection "local"', 'five rows now']);
  });

  it('an empty result is a header-only CSV', async () => {
    const out = ok(await rig.call('sql_export', { sql: 'SELECT 1 AS a, 2 AS b WHERE false', resource: { path: 'exports', filename: 'empty.csv' } }));
    expect(out.rows).toBe(0);
    expect((await rig.content(out.resource.id)).toString()).toBe('a,b\n');
  });

  it('refuses a write query, a second statement and a COPY escape in every format, storing nothing', async () => {
    await rig.sql.connection('local').engine.start('CREATE TABLE IF NOT EXISTS kept AS SELECT 1 AS k', { signal: AbortSignal.timeout(10_000) }).then((c) => c.cancel());
    const attempts: Array<[string, string]> = [
      ['INSERT INTO kept VALUES (2)', 'csv'],
      ['DELETE FROM kept', 'parquet'],
      ['CREATE TABLE made AS SELECT 1', 'ndjson'],
      ['SELECT 1; SELECT 2', 'csv'],
      [`SELECT 1) TO '${join(scratch, 'escaped.csv')}' (FORMAT CSV); --`, 'parquet'],
      [`SELECT 1) TO '${join(scratch, 'escaped.csv')}' (FORMAT CSV) --`, 'parquet'],
    ];
    for (const [sql, format] of attempts) {
      const text = failed(await rig.call('sql_export', { sql, format, resource: { path: 'refused', filename: `r.${format}` } }));
      expect(text, sql).toMatch(/rejected|refused|unbalanced|Export failed/i);
    }
    const stored = await rig.env.db.query(`SELECT count(*)::int AS n FROM resources WHERE folder_path = 'refused'`);
    expect(stored.rows[0].n).toBe(0);
    const kept = await rig.sql.connection('local').engine.start('SELECT count(*) FROM kept', { signal: AbortSignal.timeout(10_000) });
    expect(await kept.nextPage()).toEqual([[1]]);
    expect(await rig.sql.connection('local').engine.listTables('local', 'main', AbortSignal.timeout(10_000))).not.toContain('made');
  });

  it('a query failing midway stores nothing: the file keeps its last version (not a truncated file)', async () => {
    const to = { path: 'exports', filename: 'fragile.csv' };
    const first = ok(await rig.call('sql_export', { sql: 'SELECT range AS n FROM range(2)', resource: to }));
    const text = failed(
      await rig.call('sql_export', { sql: "SELECT CASE WHEN range < 500000 THEN range ELSE error('boom at the end') END AS n FROM range(1000000)", resource: to }),
    );
    expect(text).toMatch(/boom at the end/);
    expect(text).toMatch(/exports\/fragile\.csv keeps its last version/);
    expect(await rig.versions(first.resource.id)).toEqual([1]);
    expect((await rig.content(first.resource.id)).toString()).toBe('n\n0\n1\n');
  });

  it('table_changes are what the follow dependency reports for the new version; without it, none', async () => {
    const calls: Array<[string, number]> = [];
    const tools = rig.tools({
      followTables: async (id, version) => {
        calls.push([id, version]);
        return [{ table: 'scratch.alice_numbers', change: `registered at version ${version}` }];
      },
    });
    const to = { path: 'exports', filename: 'followed.csv' };
    const first = ok(await rig.call('sql_export', { sql: 'SELECT 1 AS n', resource: to }, { tools }));
    const second = ok(await rig.call('sql_export', { sql: 'SELECT 2 AS n', resource: to }, { tools }));
    expect(second.table_changes).toEqual([{ table: 'scratch.alice_numbers', change: 'registered at version 2' }]);
    expect(calls).toEqual([
      [first.resource.id, 1],
      [first.resource.id, 2],
    ]);
  });

  it("refuses another person's library (authority of manage_resource create)", async () => {
    const text = failed(await rig.call('sql_export', { sql: 'SELECT 1', resource: { library: 'person:apikey:bob', path: 'x', filename: 'x.csv' } }));
    expect(text).toMatch(/not allowed to add files/);
  });

  it("a caller's SQL cannot read or write the engine's export directory", async () => {
    const exportsDir = `${duckdbPath(rig.config, 'local')}.exports`;
    const read = await callTool(rig.sql.tools, 'sql_query', { sql: `SELECT * FROM read_parquet('${exportsDir}/*.parquet')` });
    expect((read.content[0] as { text: string }).text).toMatch(/the engine's own files and the platform's storage cannot be named/);
    const written = failed(await rig.call('sql_export', { sql: `SELECT * FROM glob('${exportsDir}/*')`, format: 'parquet', resource: { path: 'refused', filename: 'glob.parquet' } }));
    expect(written).toMatch(/the engine's own files and the platform's storage cannot be named/);
    const copy = await callTool(rig.sql.tools, 'sql_execute', { sql: `COPY (SELECT 1) TO '${exportsDir}/planted.parquet' (FORMAT PARQUET)` });
    expect((copy.content[0] as { text: string }).text).toMatch(/the engine's own files and the platform's storage cannot be named/);
  });
});
