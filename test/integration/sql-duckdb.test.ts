/** Every sql_* tool on the DuckDB engine, with the generated sample dataset. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { anonymousCaller } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import type { CallToolResult, ToolDefinition } from '../../shared/mcp-tools/index.js';
import {
  createSqlToolkit,
  DuckDbEngine,
  embeddedSqlInstance,
  ensureSampleData,
  runWithLimit,
  SqlCancelledError,
  type SqlToolkit,
} from '../../shared/sql/index.js';
import { repoRoot } from '../support/cli.js';

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

async function call(tools: ToolDefinition[], name: string, args: Record<string, unknown>, signal = new AbortController().signal): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) throw new Error(`invalid arguments: ${parsed.error.message}`);
  return tool.handler(parsed.data, { caller: anonymousCaller, signal, log: silentLogger() });
}

describe('sql_* tools on DuckDB', () => {
  let dir: string;
  let config: PlatformConfig;
  let toolkit: SqlToolkit;
  let tools: ToolDefinition[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sql-duckdb-'));
    config = parseConfig(
      `
data_dir: ${dir}
toolkits:
  sql:
    archive:
      engine: duckdb
      read_only: true
      connection_name: Archive
      description: Read-only archive
      default_limit: 50
    local:
      engine: duckdb
      path: ${join(dir, 'sql', 'local.duckdb')}
      descriptions:
        sql_browse: Browse the local warehouse.
`,
      {},
    ).config;
    toolkit = createSqlToolkit(config, { log: silentLogger() });
    tools = toolkit.tools;
    expect(await ensureSampleData(toolkit.connection('local').engine)).toBe(true);
    await (toolkit.connection('archive').engine as DuckDbEngine).exec('CREATE TABLE main.events AS SELECT range AS id FROM range(120)');
  });
  afterAll(async () => {
    await toolkit?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers the six tools with their annotations and per-instance descriptions', () => {
    expect(tools.map((t) => t.name)).toEqual(['sql_query', 'sql_execute', 'sql_explain', 'sql_browse', 'sql_describe_table', 'sql_list_connections']);
    expect(tools.find((t) => t.name === 'sql_query')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'sql_execute')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.find((t) => t.name === 'sql_browse')!.description).toBe('Browse the local warehouse.');
    expect(toolkit.descriptionOverrides).toEqual({ sql_browse: 'Browse the local warehouse.' });
  });

  it('creates the sample data once', async () => {
    expect(await ensureSampleData(toolkit.connection('local').engine)).toBe(false);
    const r = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT (SELECT count(*) FROM sample.customers) c, (SELECT count(*) FROM sample.orders) o' });
    expect(r.structuredContent).toMatchObject({ rows: [{ c: 1000, o: 20000 }] });
  });

  it('lists connections; the alphabetically first is the default; connection_name also selects', async () => {
    const r = await call(tools, 'sql_list_connections', {});
    expect(r.structuredContent).toMatchObject({
      count: 2,
      connections: [
        { name: 'archive', display_name: 'Archive', engine: 'duckdb', is_default: true, read_only: true, description: 'Read-only archive', catalog: 'archive' },
        { name: 'local', engine: 'duckdb', is_default: false, read_only: false, catalog: 'local', schema: 'main' },
      ],
    });
    expect(JSON.stringify(r.structuredContent)).not.toContain('password');
    const byDisplay = await call(tools, 'sql_query', { connection: 'Archive', sql: 'SELECT count(*) AS n FROM main.events' });
    expect(byDisplay.structuredContent).toMatchObject({ rows: [{ n: 120 }] });
    const unknown = await call(tools, 'sql_query', { connection: 'nope', sql: 'SELECT 1' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe('Connection error: unknown connection "nope"; available connections: archive, local');
  });

  it('returns rows with the engine column types, JSON-ready values', async () => {
    const r = await call(tools, 'sql_query', {
      connection: 'local',
      sql: `SELECT 1::INTEGER AS i, 9007199254740993::BIGINT AS big, 2.5::DOUBLE AS d, 12.34::DECIMAL(10,2) AS dec,
                   'x' AS s, true AS b, DATE '2024-02-29' AS day, TIMESTAMP '2024-02-29 13:14:15' AS ts,
                   [1, 2] AS l, {'k': 'v'} AS st, MAP {'a': 1} AS m, NULL::VARCHAR AS n, 'ab'::BLOB AS bl, INTERVAL 2 DAY AS iv, 1 AS i`,
      unwrap_json: false,
    });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { columns: Array<{ name: string; type: string }>; rows: Array<Record<string, unknown>> };
    expect(out.columns).toEqual([
      { name: 'i', type: 'INTEGER' },
      { name: 'big', type: 'BIGINT' },
      { name: 'd', type: 'DOUBLE' },
      { name: 'dec', type: 'DECIMAL(10,2)' },
      { name: 's', type: 'VARCHAR' },
      { name: 'b', type: 'BOOLEAN' },
      { name: 'day', type: 'DATE' },
      { name: 'ts', type: 'TIMESTAMP' },
      { name: 'l', type: 'INTEGER[]' },
      { name: 'st', type: 'STRUCT("k" VARCHAR)' },
      { name: 'm', type: 'MAP(VARCHAR, INTEGER)' },
      { name: 'n', type: 'VARCHAR' },
      { name: 'bl', type: 'BLOB' },
      { name: 'iv', type: 'INTERVAL' },
      { name: 'i_2', type: 'INTEGER' },
    ]);
    expect(out.rows[0]).toEqual({
      i: 1,
      big: '9007199254740993',
      d: 2.5,
      dec: '12.34',
      s: 'x',
      b: true,
      day: '2024-02-29',
      ts: '2024-02-29 13:14:15',
      l: [1, 2],
      st: { k: 'v' },
      m: { a: 1 },
      n: null,
      bl: Buffer.from('ab').toString('base64'),
      iv: '2 days',
      i_2: 1,
    });
  });

  it('applies default_limit and max_limit and reports truncation', async () => {
    const sql = 'SELECT * FROM sample.orders ORDER BY order_id';
    const byDefault = (await call(tools, 'sql_query', { connection: 'local', sql })).structuredContent as { rows: unknown[]; stats: Record<string, unknown> };
    expect(byDefault.rows).toHaveLength(1000);
    expect(byDefault.stats).toMatchObject({ row_count: 1000, truncated: true, limit_applied: 1000 });

    const clamped = (await call(tools, 'sql_query', { connection: 'local', sql, limit: 50_000 })).structuredContent as { rows: unknown[]; stats: Record<string, unknown> };
    expect(clamped.rows).toHaveLength(10000);
    expect(clamped.stats).toMatchObject({ truncated: true, limit_applied: 10000 });

    const exact = (await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT * FROM range(2048)', limit: 2048 })).structuredContent as { stats: Record<string, unknown> };
    expect(exact.stats).toMatchObject({ row_count: 2048, truncated: false });
    const oneOver = (await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT * FROM range(2049)', limit: 2048 })).structuredContent as { stats: Record<string, unknown> };
    expect(oneOver.stats).toMatchObject({ row_count: 2048, truncated: true });

    // archive's default_limit is 50.
    const archive = (await call(tools, 'sql_query', { sql: 'SELECT * FROM main.events' })).structuredContent as { stats: Record<string, unknown> };
    expect(archive.stats).toMatchObject({ row_count: 50, truncated: true, limit_applied: 50 });
  });

  it('renders csv and markdown, and unwraps a single JSON cell by default', async () => {
    const csv = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT order_id, status FROM sample.orders ORDER BY order_id', limit: 2, format: 'csv' });
    expect(text(csv)).toMatch(/^order_id,status\n1,processing\n2,\w+\n\n# 2 rows returned \(truncated at limit 2\), executed in \d+ms$/);
    const md = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT 1 AS a', format: 'markdown' });
    expect(text(md)).toMatch(/^\| a \|\n\| --- \|\n\| 1 \|\n\n_1 rows returned, executed in \d+ms_$/);
    const json = await call(tools, 'sql_query', { connection: 'local', sql: `SELECT '{"k": [1, 2]}'::JSON AS doc` });
    expect(json.structuredContent).toMatchObject({ columns: [{ name: 'doc', type: 'JSON' }], rows: [{ doc: { k: [1, 2] } }] });
  });

  it('returns engine errors as tool errors carrying the engine message', async () => {
    const missing = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT * FROM sample.nope' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^Query failed: Catalog Error: Table with name nope does not exist!/);
    const syntax = await call(tools, 'sql_query', { connection: 'local', sql: 'SELEC 1' });
    expect(text(syntax)).toMatch(/^Query failed: Parser Error: syntax error at or near "SELEC"/);
    const runtime = await call(tools, 'sql_query', { connection: 'local', sql: "SELECT CAST('abc' AS INTEGER)" });
    expect(text(runtime)).toMatch(/^Query failed: Conversion Error: Could not convert string 'abc' to INT32/);
    const files = await call(tools, 'sql_query', { connection: 'local', sql: "SELECT * FROM read_csv('/etc/hostname')" });
    expect(text(files)).toMatch(/^Query failed: Permission Error: .*disabled by configuration/);
  });

  it('cancels a long query at the timeout and the engine stops it', async () => {
    const started = Date.now();
    const r = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT count(*) FROM range(1000000000000) a', timeout_seconds: 1 });
    const elapsed = Date.now() - started;
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('Query failed: query exceeded the timeout of 1s and was cancelled');
    expect(r.structuredContent).toMatchObject({ error: { code: 'timeout', retryable: true } });
    expect(elapsed).toBeLessThan(5000);
    // The interrupted statement no longer holds DuckDB's threads: a full scan answers at once.
    const t0 = Date.now();
    const after = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT sum(amount) AS s FROM sample.orders' });
    expect(after.isError).toBeFalsy();
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('cancels when the caller goes away', async () => {
    const engine = toolkit.connection('local').engine;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const t0 = Date.now();
    await expect(runWithLimit(engine, 'SELECT count(*) FROM range(1000000000000) a', { limit: 1, timeoutMs: 60_000, signal: controller.signal })).rejects.toBeInstanceOf(
      SqlCancelledError,
    );
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('sql_execute changes data and reports the count; sql_query refuses it and names sql_execute', async () => {
    const refused = await call(tools, 'sql_query', { connection: 'local', sql: 'CREATE TABLE main.notes (id INTEGER, body VARCHAR)' });
    expect(text(refused)).toBe('Query rejected: write operations not allowed in sql_query: CREATE is not a read-only statement; use sql_execute for statements that change data');
    expect(refused.structuredContent).toMatchObject({ error: { code: 'query_rejected', category: 'rejected' } });

    expect((await call(tools, 'sql_execute', { connection: 'local', sql: 'CREATE TABLE main.notes (id INTEGER, body VARCHAR)' })).isError).toBeFalsy();
    const insert = await call(tools, 'sql_execute', { connection: 'local', sql: "INSERT INTO main.notes VALUES (1, 'a'), (2, 'b')" });
    expect(insert.structuredContent).toMatchObject({ rows: [{ Count: 2 }], stats: { update_count: 2 } });
    const update = await call(tools, 'sql_execute', { connection: 'local', sql: "UPDATE main.notes SET body = 'c' WHERE id = 2" });
    expect(update.structuredContent).toMatchObject({ stats: { update_count: 1 } });
    const read = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT * FROM main.notes ORDER BY id' });
    expect(read.structuredContent).toMatchObject({ rows: [{ id: 1, body: 'a' }, { id: 2, body: 'c' }] });

    const two = await call(tools, 'sql_execute', { connection: 'local', sql: 'DELETE FROM main.notes; DROP TABLE main.notes' });
    expect(text(two)).toBe('Query rejected: one statement per call, got 2');
    const failing = await call(tools, 'sql_execute', { connection: 'local', sql: 'INSERT INTO main.notes VALUES (1)' });
    expect(text(failing)).toMatch(/^Execution failed: Binder Error: table notes has 2 columns but 1 values were supplied/);
  });

  it('behind classification, reads run in a READ ONLY transaction: DuckDB itself refuses a write there', async () => {
    const engine = toolkit.connection('local').engine;
    await expect(runWithLimit(engine, 'CREATE TABLE scratch.sneaky AS SELECT 1 AS x', { limit: 1, timeoutMs: 10_000, readOnly: true })).rejects.toThrow(
      /read-only mode/,
    );
    const r = await call(tools, 'sql_query', { connection: 'local', sql: "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'sneaky'" });
    expect(r.structuredContent).toMatchObject({ rows: [{ n: 0 }] });
  });

  it('sql_execute on a read-only connection runs reads and refuses writes', async () => {
    const write = await call(tools, 'sql_execute', { connection: 'archive', sql: 'DELETE FROM main.events' });
    expect(text(write)).toBe('Query rejected: write operations not allowed on read-only connection "archive": DELETE is not a read-only statement');
    const read = await call(tools, 'sql_execute', { connection: 'archive', sql: 'SELECT count(*) AS n FROM main.events' });
    expect(read.structuredContent).toMatchObject({ rows: [{ n: 120 }] });
  });

  it('explains with each plan type, and refuses explaining a write on a read-only connection', async () => {
    const logical = await call(tools, 'sql_explain', { connection: 'local', sql: 'SELECT * FROM sample.orders WHERE amount > 100' });
    expect(logical.structuredContent).toMatchObject({ type: 'LOGICAL' });
    expect((logical.structuredContent as { plan: string }).plan).toContain('SEQ_SCAN');
    expect(text(logical)).toMatch(/^## Query plan \(LOGICAL\)\n\n```\n/);
    const io = await call(tools, 'sql_explain', { connection: 'local', sql: 'SELECT * FROM sample.orders', type: 'io' });
    expect(JSON.parse((io.structuredContent as { plan: string }).plan)[0]).toHaveProperty('name');
    const valid = await call(tools, 'sql_explain', { connection: 'local', sql: 'SELECT 1', type: 'validate' });
    expect(valid.structuredContent).toEqual({ plan: 'Valid: true', type: 'VALIDATE' });
    const invalid = await call(tools, 'sql_explain', { connection: 'local', sql: 'SELECT * FROM nope', type: 'validate' });
    expect(text(invalid)).toMatch(/^Explain failed: Catalog Error/);
    expect(tools.find((t) => t.name === 'sql_explain')!.input.safeParse({ sql: 'SELECT 1', type: 'LOGICAL' }).success).toBe(false);
    const refused = await call(tools, 'sql_explain', { sql: 'DELETE FROM main.events' });
    expect(text(refused)).toMatch(/^Query rejected: write operations not allowed on read-only connection "archive": DELETE/);
    const writable = await call(tools, 'sql_explain', { connection: 'local', sql: 'DELETE FROM sample.orders' });
    expect(writable.isError).toBeFalsy();
    const count = await call(tools, 'sql_query', { connection: 'local', sql: 'SELECT count(*) AS n FROM sample.orders' });
    expect(count.structuredContent).toMatchObject({ rows: [{ n: 20000 }] });
    expect(await toolkit.connection('local').engine.estimateRows('SELECT * FROM sample.orders', AbortSignal.timeout(5000))).toBe(20000);
  });

  it('browses catalogs, schemas and tables', async () => {
    expect((await call(tools, 'sql_browse', { connection: 'local' })).structuredContent).toEqual({ level: 'catalogs', items: ['local'], count: 1 });
    expect((await call(tools, 'sql_browse', { connection: 'local', catalog: 'local' })).structuredContent).toEqual({
      level: 'schemas',
      catalog: 'local',
      items: ['main', 'sample', 'scratch'],
      count: 3,
    });
    const tables = await call(tools, 'sql_browse', { connection: 'local', catalog: 'local', schema: 'sample', pattern: 'CUST%' });
    expect(tables.structuredContent).toEqual({ level: 'tables', catalog: 'local', schema: 'sample', items: ['customers'], count: 1, pattern: 'CUST' });
    expect(text(tables)).toBe('- `customers`\n\n1 tables in local.sample');
    const bad = await call(tools, 'sql_browse', { connection: 'local', schema: 'sample' });
    expect(text(bad)).toBe('catalog parameter is required when schema is given');
  });

  it('describes a table with an optional sample', async () => {
    const r = await call(tools, 'sql_describe_table', { connection: 'local', catalog: 'local', schema: 'sample', table: 'customers', include_sample: true });
    const out = r.structuredContent as { columns: Array<Record<string, unknown>>; column_count: number; sample: unknown[] };
    expect(out.column_count).toBe(6);
    expect(out.columns[0]).toEqual({ name: 'customer_id', type: 'INTEGER', nullable: true });
    expect(out.columns[2]).toEqual({ name: 'email', type: 'VARCHAR', nullable: true, comment: 'Contact e-mail address (personal data)' });
    expect(out.sample).toHaveLength(5);
    expect(text(r)).toContain('| email | VARCHAR | YES | Contact e-mail address (personal data) |');
    const missing = await call(tools, 'sql_describe_table', { connection: 'local', catalog: 'local', schema: 'sample', table: 'nope' });
    expect(text(missing)).toBe('Query failed: Catalog Error: Table "local"."sample"."nope" does not exist');
  });
});

describe('DuckDB is one process per database file', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sql-duckdb-lock-'));
  });
  afterAll(() => {
    if (child?.pid) child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second process cannot open a file another process holds, and the error says why', async () => {
    const file = join(dir, 'held.duckdb');
    // The holder keeps its instance and connection reachable: an unreachable instance is
    // collected, which closes the database and releases its lock (Node 22's collector did so
    // within seconds, and the test then saw the file open).
    const script = `const { DuckDBInstance } = require('@duckdb/node-api');
      DuckDBInstance.create(${JSON.stringify(file)}).then(async (i) => { const c = await i.connect(); await c.run('SELECT 1'); globalThis.held = [i, c]; console.log('ready'); setInterval(() => {}, 1000); });`;
    child = spawn(process.execPath, ['-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child!.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
    });
    const config = parseConfig(`data_dir: ${dir}\n`, {}).config;
    config.toolkits.sql = { local: { ...embeddedSqlInstance(dir), path: file } };
    const toolkit = createSqlToolkit(config, { log: silentLogger() });
    try {
      const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT 1' });
      expect(r.isError).toBe(true);
      expect(text(r)).toBe('Connection error: DuckDB file held.duckdb is in use by another process (DuckDB allows one process per database file; clustered deployments use Trino)');
      // Only the file's name: never the server's directories (issue 9, item 2).
      expect(JSON.stringify(r)).not.toContain(dir);
    } finally {
      await toolkit.close();
    }
    // Once the holder is gone, the file opens.
    child.kill();
    await new Promise((resolve) => child!.once('exit', resolve));
    child = undefined;
    const engine = new DuckDbEngine({ path: file });
    expect((await runWithLimit(engine, 'SELECT 42 AS x', { limit: 1, timeoutMs: 10_000 })).rows).toEqual([[42]]);
    await engine.close();
  });
});
