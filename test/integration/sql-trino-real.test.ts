/**
 * The sql_* tools against a real Trino server (issue 13, item 3): the run's shared coordinator
 * (test/support/trino.ts) with the `tpch` sample catalog and the writable `memory` catalog. The
 * protocol test server (sql-trino.test.ts) keeps only what a real server cannot be made to do on
 * demand: injected 503s, TLS with self-signed certificates and basic auth, malformed answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWithLimit, type SqlToolkit } from '../../shared/sql/index.js';
import { callTool, toolText, trinoToolkit } from '../support/sql-tools.js';
import { sharedTrino } from '../support/trino.js';

const call = callTool;
const text = toolText;
const toolkitFor = (url: string, extra: string[] = []) => trinoToolkit(url, { catalog: 'tpch', schema: 'tiny', extra });

type QueryOut = { columns: Array<{ name: string; type: string }>; rows: Array<Record<string, unknown>>; stats: Record<string, unknown> };

describe('sql tools on a real Trino server', () => {
  let url: string;
  let toolkit: SqlToolkit;
  let readOnly: SqlToolkit;
  beforeAll(async () => {
    url = await sharedTrino();
    toolkit = toolkitFor(url);
    readOnly = toolkitFor(url, ['read_only: true']);
  });
  afterAll(async () => {
    await toolkit?.close();
    await readOnly?.close();
  });

  it('pages a large result into typed rows, up to the limit', async () => {
    const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT orderkey, orderstatus, totalprice FROM orders ORDER BY orderkey', limit: 10_000 });
    expect(r.isError, text(r)).toBeFalsy();
    const out = r.structuredContent as QueryOut;
    expect(out.columns).toEqual([
      { name: 'orderkey', type: 'bigint' },
      { name: 'orderstatus', type: 'varchar(1)' },
      { name: 'totalprice', type: 'double' },
    ]);
    // tpch.tiny.orders holds 15,000 rows: the limit stops the read and says so.
    expect(out.rows).toHaveLength(10_000);
    expect(out.stats).toMatchObject({ row_count: 10_000, truncated: true, limit_applied: 10_000 });
    expect(out.rows[0]).toMatchObject({ orderkey: 1, orderstatus: 'O' });
  });

  it('a whole result under the limit is not truncated', async () => {
    const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT name FROM nation ORDER BY nationkey', limit: 100 });
    const out = r.structuredContent as QueryOut;
    expect(out.stats).toMatchObject({ row_count: 25, truncated: false });
    expect(out.rows[0]).toEqual({ name: 'ALGERIA' });
  });

  it('stops at max_result_bytes and says why', async () => {
    const small = toolkitFor(url, ['max_result_bytes: 4000']);
    try {
      const r = await call(small.tools, 'sql_query', { sql: 'SELECT * FROM customer', limit: 10_000 });
      expect((r.structuredContent as QueryOut).stats).toMatchObject({ truncated: true, truncated_reason: 'byte_budget' });
    } finally {
      await small.close();
    }
  });

  it('answers an engine error as today: the message and error name of the server', async () => {
    const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT * FROM tpch.tiny.no_such_table' });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Query failed: line 1:15: Table 'tpch\.tiny\.no_such_table' does not exist \(TABLE_NOT_FOUND\)$/);
    expect(r.structuredContent).toMatchObject({ error: { code: 'query_failed', category: 'engine' } });
  });

  it('a timeout cancels the query on the coordinator: it is no longer running in system.runtime.queries', async () => {
    const marker = `timeout-${Date.now()}`;
    const sql = `SELECT count(*) FROM tpch.sf1000.lineitem WHERE comment <> '${marker}'`;
    const r = await call(toolkit.tools, 'sql_query', { sql, timeout_seconds: 1 });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('Query failed: query exceeded the timeout of 1s and was cancelled');
    const engine = toolkit.connection().engine;
    await expect
      .poll(
        async () => {
          const states = await runWithLimit(engine, `SELECT state FROM system.runtime.queries WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.runtime%'`, {
            limit: 10,
            timeoutMs: 10_000,
          });
          return states.rows.map((row) => row[0]);
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual(['FAILED']);
  });

  it('browses catalogs, schemas and tables and describes a table', async () => {
    const catalogs = (await call(toolkit.tools, 'sql_browse', {})).structuredContent as { items: string[] };
    expect(catalogs.items).toEqual(expect.arrayContaining(['memory', 'system', 'tpch']));
    const schemas = (await call(toolkit.tools, 'sql_browse', { catalog: 'tpch' })).structuredContent as { items: string[] };
    expect(schemas.items).toEqual(expect.arrayContaining(['tiny', 'sf1']));
    expect((await call(toolkit.tools, 'sql_browse', { catalog: 'tpch', schema: 'tiny', pattern: '%ORDER%' })).structuredContent).toMatchObject({
      level: 'tables',
      items: ['orders'],
    });
    const d = await call(toolkit.tools, 'sql_describe_table', { catalog: 'tpch', schema: 'tiny', table: 'nation' });
    expect(d.structuredContent).toMatchObject({
      column_count: 4,
      columns: [
        { name: 'nationkey', type: 'bigint' },
        { name: 'name', type: 'varchar(25)' },
        { name: 'regionkey', type: 'bigint' },
        { name: 'comment', type: 'varchar(152)' },
      ],
    });
  });

  it('explains a query and estimates its rows from a real EXPLAIN (the cost-estimation trigger reads it)', async () => {
    const r = await call(toolkit.tools, 'sql_explain', { sql: 'SELECT orderkey FROM orders' });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain('## Query plan (LOGICAL)');
    const engine = toolkit.connection().engine;
    expect(await engine.estimateRows('SELECT orderkey FROM tpch.sf1.orders', AbortSignal.timeout(10_000))).toBe(1_500_000);
  });

  it('explains with every plan type the server knows; EXPLAIN of a write is refused on a read-only connection', async () => {
    for (const [type, heading] of [
      ['distributed', 'DISTRIBUTED'],
      ['io', 'IO'],
      ['validate', 'VALIDATE'],
    ] as const) {
      const r = await call(toolkit.tools, 'sql_explain', { sql: 'SELECT name FROM nation WHERE regionkey = 1', type });
      expect(r.isError, text(r)).toBeFalsy();
      expect(text(r)).toContain(`## Query plan (${heading})`);
      expect((r.structuredContent as { type: string }).type).toBe(heading);
    }
    // The server's own plan: IO names the table it reads, VALIDATE answers Valid.
    const io = await call(toolkit.tools, 'sql_explain', { sql: 'SELECT name FROM nation', type: 'io' });
    expect((io.structuredContent as { plan: string }).plan).toContain('"table" : "nation"');
    const bad = await call(toolkit.tools, 'sql_explain', { sql: 'SELECT nope FROM nation', type: 'validate' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Column 'nope' cannot be resolved \(COLUMN_NOT_FOUND\)/);
    const write = await call(readOnly.tools, 'sql_explain', { sql: 'INSERT INTO memory.default.x VALUES (1)' });
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/^Query rejected: /);
  });

  it('lists the connection with where it points', async () => {
    const r = await call(toolkit.tools, 'sql_list_connections', {});
    const { hostname, port } = new URL(url);
    expect(r.structuredContent).toMatchObject({
      connections: [{ name: 'cluster', engine: 'trino', is_default: true, read_only: false, host: hostname, port: Number(port), url, catalog: 'tpch', schema: 'tiny' }],
    });
  });

  it('read-only connections refuse writes before sending them; a writable one reports update counts', async () => {
    const refused = await call(readOnly.tools, 'sql_execute', { sql: 'CREATE TABLE memory.default.refused AS SELECT 1 AS x' });
    expect(refused.isError).toBe(true);
    expect((await call(toolkit.tools, 'sql_query', { sql: "SELECT count(*) AS n FROM memory.information_schema.tables WHERE table_name = 'refused'" })).structuredContent).toMatchObject({ rows: [{ n: 0 }] });
    const table = `memory.default.t${Date.now()}`;
    const created = await call(toolkit.tools, 'sql_execute', { sql: `CREATE TABLE ${table} AS SELECT nationkey, name FROM tpch.tiny.nation` });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ stats: { update_count: 25 } });
    const inserted = await call(toolkit.tools, 'sql_execute', { sql: `INSERT INTO ${table} VALUES (99, 'ATLANTIS')` });
    expect(inserted.structuredContent).toMatchObject({ stats: { update_count: 1 } });
    const read = await call(toolkit.tools, 'sql_query', { sql: `SELECT count(*) AS n FROM ${table}` });
    expect((read.structuredContent as QueryOut).rows).toEqual([{ n: 26 }]);
    expect(text(await call(toolkit.tools, 'sql_query', { sql: `INSERT INTO ${table} VALUES (1, 'x')` }))).toMatch(/^Query rejected: write operations not allowed in sql_query/);
  });
});
