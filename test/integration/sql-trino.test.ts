/**
 * The Trino engine's transport against a server speaking Trino's documented client protocol
 * (test/support/trino-protocol-server.ts), for what a real server cannot be made to do on demand:
 * a set number of queued polls and pages, 503 answers, TLS with a self-signed certificate, basic
 * auth refusals, the exact cancel requests sent. The tools against a real Trino server are
 * sql-trino-real.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runWithLimit, SqlCancelledError, TrinoEngine, type SqlToolkit } from '../../shared/sql/index.js';
import { callTool, toolText, trinoToolkit } from '../support/sql-tools.js';
import { selfSignedCertificate, startTrinoTestServer, type ScriptedQuery, type TrinoTestServer } from '../support/trino-protocol-server.js';

const orderColumns = [
  { name: 'order_id', type: 'bigint' },
  { name: 'status', type: 'varchar(10)' },
  { name: 'amount', type: 'decimal(10,2)' },
];
const orderRows = (n: number) => Array.from({ length: n }, (_, i) => [i + 1, i % 2 ? 'shipped' : 'delivered', `${i}.50`]);

/** Statements the fake cluster knows. */
function script(sql: string): ScriptedQuery {
  const s = sql.trim();
  if (s === 'SELECT * FROM hive.sales.orders') return { columns: orderColumns, rows: orderRows(2500), pageSize: 100, queuedPolls: 3 };
  if (s === 'SELECT 1') return { columns: [{ name: '_col0', type: 'integer' }], rows: [[1]] };
  if (s === 'SELECT * FROM hive.sales.missing')
    return { error: { message: "line 1:15: Table 'hive.sales.missing' does not exist", errorName: 'TABLE_NOT_FOUND', errorCode: 46, errorType: 'USER_ERROR' } };
  if (s.startsWith('SELECT count(*) FROM hive.sales.huge')) return { runForever: true };
  if (s === 'SHOW CATALOGS') return { columns: [{ name: 'Catalog', type: 'varchar' }], rows: [['hive'], ['system']] };
  if (s === 'SHOW SCHEMAS FROM "hive"') return { columns: [{ name: 'Schema', type: 'varchar' }], rows: [['information_schema'], ['sales']] };
  if (s === 'SHOW TABLES FROM "hive"."sales"') return { columns: [{ name: 'Table', type: 'varchar' }], rows: [['orders'], ['order_items'], ['customers']] };
  if (s === 'DESCRIBE "hive"."sales"."orders"')
    return {
      columns: [
        { name: 'Column', type: 'varchar' },
        { name: 'Type', type: 'varchar' },
        { name: 'Extra', type: 'varchar' },
        { name: 'Comment', type: 'varchar' },
      ],
      rows: [
        ['order_id', 'bigint', '', 'Order key'],
        ['status', 'varchar(10)', '', ''],
      ],
    };
  if (s.startsWith('EXPLAIN'))
    return {
      columns: [{ name: 'Query Plan', type: 'varchar' }],
      rows: [['Fragment 0 [SINGLE]\n    Output[columnNames = [order_id]]\n    │   Estimates: {rows: 2500 (22kB)}\n    └─ TableScan\n           Estimates: {rows: 2,500,000 (21MB)}\n    └─ Values\n           Estimates: {rows: ? (?)}']],
    };
  if (s.startsWith('INSERT INTO')) return { columns: [{ name: 'rows', type: 'bigint' }], rows: [[3]], updateType: 'INSERT', updateCount: 3 };
  return { error: { message: `line 1:1: unknown statement in test server: ${s}`, errorName: 'SYNTAX_ERROR' } };
}

const call = callTool;
const text = toolText;
/** `extra`: further keys of the connection, one per line. */
const toolkitFor = (url: string, extra = ''): SqlToolkit => trinoToolkit(url, { catalog: 'hive', schema: 'sales', extra: extra.split('\n').filter(Boolean) });

describe('Trino engine over the client protocol (plain HTTP)', () => {
  let server: TrinoTestServer;
  let toolkit: SqlToolkit;
  beforeAll(async () => {
    server = await startTrinoTestServer({ handle: script });
    toolkit = toolkitFor(server.url);
  });
  afterAll(async () => {
    await toolkit?.close();
    await server?.close();
  });

  it('pages through 25 data pages after queued polls, with typed columns, and sends X-Trino-User', async () => {
    const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT * FROM hive.sales.orders', limit: 10000 });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { columns: unknown; rows: Array<Record<string, unknown>>; stats: { truncated: boolean; row_count: number } };
    expect(out.columns).toEqual(orderColumns);
    expect(out.stats).toMatchObject({ row_count: 2500, truncated: false, limit_applied: 10000 });
    expect(out.rows[0]).toEqual({ order_id: 1, status: 'delivered', amount: '0.50' });
    expect(out.rows[2499]).toMatchObject({ order_id: 2500 });
    const stmt = server.statements.at(-1)!;
    expect(stmt.headers['x-trino-user']).toBe('analyst');
    expect(stmt.headers['x-trino-catalog']).toBe('hive');
    expect(stmt.headers['x-trino-schema']).toBe('sales');
    expect(stmt.headers.authorization).toBeUndefined();
    const polls = server.requests.filter((q) => q.method === 'GET' && q.path.includes(stmt.id));
    expect(polls.length).toBeGreaterThanOrEqual(3 + 25);
    expect(server.state(stmt.id)).toBe('FINISHED');
  });

  it('stops reading at the limit, reports truncated, and cancels the rest on the server with DELETE nextUri', async () => {
    const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT * FROM hive.sales.orders', limit: 150 });
    const out = r.structuredContent as { rows: unknown[]; stats: { truncated: boolean; limit_applied: number } };
    expect(out.rows).toHaveLength(150);
    expect(out.stats).toMatchObject({ truncated: true, limit_applied: 150 });
    const id = server.statements.at(-1)!.id;
    expect(server.cancelled).toContain(id);
    const del = server.requests.find((q) => q.method === 'DELETE' && q.path.includes(id));
    expect(del?.path).toMatch(/^\/v1\/statement\/executing\//);
  });

  it('stops at max_result_bytes (issue 9, item 2), says why, and cancels the rest on the server', async () => {
    const small = toolkitFor(server.url, 'max_result_bytes: 2000');
    try {
      const r = await call(small.tools, 'sql_query', { sql: 'SELECT * FROM hive.sales.orders', limit: 10000 });
      const stats = (r.structuredContent as { stats: { row_count: number; truncated: boolean; truncated_reason?: string } }).stats;
      expect(stats).toMatchObject({ truncated: true, truncated_reason: 'byte_budget' });
      // Rows of ~30 bytes as jsonSize counts them: about 65 fit in 2000 bytes.
      expect(stats.row_count).toBeGreaterThan(50);
      expect(stats.row_count).toBeLessThan(80);
      expect(server.cancelled).toContain(server.statements.at(-1)!.id);
    } finally {
      await small.close();
    }
  });

  it('returns the server error object as a tool error with the engine message', async () => {
    const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT * FROM hive.sales.missing' });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("Query failed: line 1:15: Table 'hive.sales.missing' does not exist (TABLE_NOT_FOUND)");
    expect(r.structuredContent).toMatchObject({ error: { code: 'query_failed', category: 'engine' } });
  });

  it('cancels a long query on the server when the timeout passes', async () => {
    const started = Date.now();
    const r = await call(toolkit.tools, 'sql_query', { sql: 'SELECT count(*) FROM hive.sales.huge', timeout_seconds: 1 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('Query failed: query exceeded the timeout of 1s and was cancelled');
    const id = server.statements.at(-1)!.id;
    await expect.poll(() => server.cancelled.includes(id)).toBe(true);
    expect(server.state(id)).toBe('CANCELED');
    expect(server.requests.some((q) => q.method === 'DELETE' && q.path.includes(id))).toBe(true);
  });

  it('cancels on the server when the caller goes away (ctx.signal)', async () => {
    const engine = toolkit.connection().engine;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(runWithLimit(engine, 'SELECT count(*) FROM hive.sales.huge', { limit: 10, timeoutMs: 60_000, signal: controller.signal })).rejects.toBeInstanceOf(
      SqlCancelledError,
    );
    const id = server.statements.at(-1)!.id;
    await expect.poll(() => server.state(id)).toBe('CANCELED');
  });

  it('browses catalogs, schemas and tables and describes a table', async () => {
    expect((await call(toolkit.tools, 'sql_browse', {})).structuredContent).toEqual({ level: 'catalogs', items: ['hive', 'system'], count: 2 });
    expect((await call(toolkit.tools, 'sql_browse', { catalog: 'hive' })).structuredContent).toMatchObject({ level: 'schemas', items: ['information_schema', 'sales'] });
    expect((await call(toolkit.tools, 'sql_browse', { catalog: 'hive', schema: 'sales', pattern: '%ORDER%' })).structuredContent).toEqual({
      level: 'tables',
      catalog: 'hive',
      schema: 'sales',
      items: ['orders', 'order_items'],
      count: 2,
      pattern: 'ORDER',
    });
    const d = await call(toolkit.tools, 'sql_describe_table', { catalog: 'hive', schema: 'sales', table: 'orders' });
    expect(d.structuredContent).toMatchObject({
      column_count: 2,
      columns: [
        { name: 'order_id', type: 'bigint', comment: 'Order key' },
        { name: 'status', type: 'varchar(10)' },
      ],
    });
    expect(text(d)).toContain('| order_id | bigint | - | Order key |');
  });

  it('explains with the requested type and reads the row estimate', async () => {
    const r = await call(toolkit.tools, 'sql_explain', { sql: 'SELECT order_id FROM hive.sales.orders' });
    expect(r.structuredContent).toMatchObject({ type: 'LOGICAL' });
    expect(server.statements.at(-1)!.sql).toBe('EXPLAIN (TYPE LOGICAL) SELECT order_id FROM hive.sales.orders');
    expect(text(r)).toContain('## Query plan (LOGICAL)');
    // The estimate is the largest `rows:` of the plain EXPLAIN (unknown `?` skipped).
    const engine = toolkit.connection().engine;
    expect(await engine.estimateRows('SELECT order_id FROM hive.sales.orders', AbortSignal.timeout(5000))).toBe(2_500_000);
    expect(server.statements.at(-1)!.sql).toBe('EXPLAIN SELECT order_id FROM hive.sales.orders');
  });

  it('reports the update count of a write through sql_execute, and refuses it in sql_query before sending it', async () => {
    const before = server.statements.length;
    const refused = await call(toolkit.tools, 'sql_query', { sql: 'INSERT INTO hive.sales.orders VALUES (1)' });
    expect(text(refused)).toMatch(/^Query rejected: write operations not allowed in sql_query: INSERT .*use sql_execute/);
    expect(server.statements.length).toBe(before);
    const r = await call(toolkit.tools, 'sql_execute', { sql: 'INSERT INTO hive.sales.orders VALUES (1)' });
    expect(r.structuredContent).toMatchObject({ stats: { update_count: 3 }, rows: [{ rows: 3 }] });
  });
});

describe('Trino transport rules', () => {
  let dir: string;
  let cert: { key: string; cert: string };
  const servers: TrinoTestServer[] = [];
  const toolkits: SqlToolkit[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sql-trino-tls-'));
    cert = await selfSignedCertificate(dir);
  });
  afterEach(async () => {
    await Promise.all(toolkits.splice(0).map((t) => t.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = async (opts: Parameters<typeof startTrinoTestServer>[0]) => {
    const s = await startTrinoTestServer(opts);
    servers.push(s);
    return s;
  };

  it('retries 503 answers as the protocol asks', async () => {
    const server = await start({ handle: () => ({ columns: [{ name: 'x', type: 'integer' }], rows: [[7]], unavailable: 2 }) });
    const engine = new TrinoEngine({ host: '127.0.0.1', port: server.port, user: 'u', ssl: false, retryDelayMs: 10 });
    const r = await runWithLimit(engine, 'SELECT 7', { limit: 10, timeoutMs: 10_000 });
    expect(r.rows).toEqual([[7]]);
    // Two polls answered 503 and retried, then the data page and the final (FINISHED) page.
    expect(server.requests.filter((q) => q.method === 'GET').length).toBe(4);
  });

  it('over TLS with ssl_verify false: basic auth header sent, user in X-Trino-User', async () => {
    const server = await start({ handle: script, tls: cert, basicAuth: { user: 'analyst', password: 's3cret' } });
    const tk = toolkitFor(server.url, 'password: s3cret\nssl_verify: false');
    toolkits.push(tk);
    const r = await call(tk.tools, 'sql_query', { sql: 'SELECT 1' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ rows: [{ _col0: 1 }] });
    const stmt = server.statements.at(-1)!;
    expect(stmt.headers.authorization).toBe(`Basic ${Buffer.from('analyst:s3cret').toString('base64')}`);
    expect(stmt.headers['x-trino-user']).toBe('analyst');
  });

  it('a wrong password is a connection error naming HTTP 401', async () => {
    const server = await start({ handle: script, tls: cert, basicAuth: { user: 'analyst', password: 's3cret' } });
    const tk = toolkitFor(server.url, 'password: wrong\nssl_verify: false');
    toolkits.push(tk);
    const r = await call(tk.tools, 'sql_query', { sql: 'SELECT 1' });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('Connection error: authentication failed (HTTP 401): check user and password');
  });

  it('ssl_verify true refuses a self-signed certificate; trusting its CA makes it pass', async () => {
    const server = await start({ handle: script, tls: cert });
    const tk = toolkitFor(server.url, 'ssl_verify: true');
    toolkits.push(tk);
    const r = await call(tk.tools, 'sql_query', { sql: 'SELECT 1' });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Connection error: .*self[- ]signed certificate/i);
    expect(server.statements).toHaveLength(0);

    const trusted = new TrinoEngine({ host: '127.0.0.1', port: server.port, user: 'u', ssl: true, sslVerify: true, ca: cert.cert });
    expect((await runWithLimit(trusted, 'SELECT 1', { limit: 1, timeoutMs: 10_000 })).rows).toEqual([[1]]);
  });

  it('refuses to build a connection with a password but without ssl (fail closed)', () => {
    expect(() => toolkitFor('http://127.0.0.1:8080', 'password: s3cret')).toThrow(/password requires ssl: true/);
  });

  it('a plain-HTTP client talking to a TLS port fails as a connection error', async () => {
    const server = await start({ handle: script, tls: cert });
    const engine = new TrinoEngine({ host: '127.0.0.1', port: server.port, user: 'u', ssl: false });
    await expect(runWithLimit(engine, 'SELECT 1', { limit: 1, timeoutMs: 10_000 })).rejects.toMatchObject({ name: 'SqlConnectionError' });
  });
});
