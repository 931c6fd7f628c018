/**
 * Issue 9, item 2: what SQL may call on the embedded DuckDB, through a real MCP client. Functions,
 * views and statements that change engine-wide state or read other callers' data are refused on
 * every connection and every tool; nothing reveals the server's paths, settings, secrets or
 * extension directory; an empty statement gets a clear answer. Reads stay available.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createSqlToolkit, type DuckDbEngine, type SqlToolkit } from '../../shared/sql/index.js';
import { apiConfigYaml, connectMcp, startTestApi, testConfig } from '../support/api.js';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (r: CallResult) => (r.content as Array<{ text: string }>)[0]!.text;

/** Engine-wide state: the list and the like of them, in every spelling. */
const engineWide: string[] = [
  "SELECT * FROM enable_logging(storage='file', storage_path='/nonexistent')",
  "CALL enable_logging(storage='file', storage_path='/nonexistent')",
  'SELECT * FROM disable_logging()',
  'SELECT * FROM truncate_duckdb_logs()',
  'SELECT * FROM duckdb_logs',
  'SELECT * FROM duckdb_logs()',
  "SELECT * FROM duckdb_logs_parsed('QueryLog')",
  "SELECT write_log('hello')",
  'SELECT * FROM enable_profiling()',
  'PRAGMA enable_profiling',
  "PRAGMA enable_profiling = 'json'",
  'SELECT * FROM checkpoint()',
  'CHECKPOINT',
  'FORCE CHECKPOINT',
  'SELECT * FROM force_checkpoint()',
  'PRAGMA force_checkpoint',
  'SELECT * FROM "enable_logging"()',
  'SELECT * FROM system.main.enable_logging()',
  'SELECT * FROM /* hidden? */ enable_logging ()',
  "SELECT * FROM query('SELECT * FROM duckdb_settings()')",
  "SELECT * FROM query_table('duckdb_settings')",
  "SELECT * FROM histogram('main.t', id)",
  'SELECT sleep_ms(100000)',
  'CREATE MACRO sneaky() AS TABLE SELECT * FROM duckdb_settings()',
  'INSERT INTO main.t SELECT 1 FROM duckdb_logs',
  "ATTACH ':memory:' AS other",
  'DETACH rw',
  'LOAD json',
  'INSTALL spatial',
];

/** Reads of the server's paths, settings, secrets and the engine's own files (those of `connection`). */
const leaks = (dir: string, connection: string): string[] => {
  const db = join(dir, 'sql', `${connection}.duckdb`);
  return [
    'SELECT * FROM duckdb_databases()',
    'SELECT path FROM duckdb_databases',
    'SELECT * FROM pragma_database_list',
    'PRAGMA database_list',
    'SELECT * FROM pg_database',
    'SELECT * FROM duckdb_settings()',
    'SELECT * FROM pg_settings',
    "SELECT current_setting('temp_directory')",
    "SELECT current_setting('secret_directory')",
    'SELECT * FROM duckdb_secrets()',
    "SELECT * FROM which_secret('s3://bucket/key', 's3')",
    'SELECT * FROM duckdb_extensions()',
    'SELECT * FROM duckdb_temporary_files()',
    'SELECT * FROM duckdb_memory()',
    `SELECT * FROM read_blob('${db}')`,
    `SELECT * FROM read_text('${db}.wal')`,
    `SELECT * FROM read_blob('file://${db}')`,
    `SELECT * FROM read_blob('${dir}/sql/x/../${connection}.duckdb')`,
    `SELECT * FROM read_blob(E'${dir}/sql/${connection}\\x2educkdb')`,
    `SELECT * FROM read_blob('${dir}/sql/${connection}'\n'.duckdb')`,
    `SELECT * FROM read_blob('${dir}/sql/${connection}.' || 'duckdb')`,
    `SELECT * FROM read_blob('${dir}/sql/*')`,
    `SELECT * FROM '${db}.tmp/spill.csv'`,
    `SELECT * FROM "${db}"`,
    `COPY (SELECT 1) TO ('${db}.tmp/' || 'x.csv')`,
    `COPY (SELECT 1) TO '${db}.tmp/x.csv'`,
  ];
};

/** Reads that stay available (and names of refused functions where they are not calls). */
const reads: string[] = [
  'SELECT count(*) AS n FROM main.t',
  'SELECT table_name FROM information_schema.tables',
  'SELECT * FROM duckdb_tables()',
  'SELECT column_name FROM duckdb_columns() LIMIT 3',
  'SHOW TABLES',
  'SHOW DATABASES',
  'DESCRIBE main.t',
  'SUMMARIZE main.t',
  "PRAGMA table_info('main.t')",
  'SELECT * FROM range(3)',
  "SELECT 'enable_logging()' AS s -- duckdb_settings()",
  'SELECT query FROM (SELECT 1 AS query)',
  "SELECT regexp_matches('a1', '[0-9]+') AS m, 'a/b*' AS s",
  'SELECT random() < 2 AS r, version() AS v',
  'SELECT histogram(id) AS h FROM main.t',
];

describe('item 2: engine-wide state, server paths and settings are out of SQL reach', () => {
  let dir: string;
  let allowed: string;
  let toolkit: SqlToolkit;
  let api: RunningApi;
  let client: Client;
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  /** Nothing of the server's layout in an answer (text or structured). */
  const expectNoServerPaths = (r: CallResult) => {
    const all = JSON.stringify(r);
    for (const secret of [dir, homedir(), process.cwd(), '.duckdb/extensions', 'stored_secrets', 'Error in native callback']) expect(all).not.toContain(secret);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sec-sql-policy-'));
    allowed = join(dir, 'segments');
    mkdirSync(allowed);
    writeFileSync(join(allowed, 'data.csv'), 'a,b\n1,x\n2,y\n');
    const config = testConfig(
      apiConfigYaml({
        extra: `data_dir: ${dir}
toolkits:
  sql:
    rw:
      engine: duckdb
    ro:
      engine: duckdb
      read_only: true
`,
      }),
    );
    toolkit = createSqlToolkit(config, { log: silentLogger(), duckdbAllowedDirectories: [allowed] });
    for (const name of ['rw', 'ro']) await (toolkit.connection(name).engine as DuckDbEngine).exec('CREATE TABLE main.t AS SELECT range::INTEGER AS id FROM range(10)');
    api = await startTestApi({ config, tools: toolkit.tools });
    client = await connectMcp(api.url);
  });
  afterAll(async () => {
    await client?.close();
    await api?.stop();
    await toolkit?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const surfaces: Array<[string, string, string]> = [
    ['sql_query', 'rw', 'a read'],
    ['sql_execute', 'rw', 'a writable connection'],
    ['sql_execute', 'ro', 'a read-only connection'],
    ['sql_explain', 'rw', 'an explain'],
  ];

  describe.each(surfaces)('%s on %s (%s)', (tool, connection) => {
    it.each(engineWide)('refuses engine-wide state: %s', async (sql) => {
      const r = await call(tool, { connection, sql });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/^Query rejected: .*(is not available: it reads or changes engine-wide state|statements are not available: they administer the engine)$/);
    });

    it('refuses every read of server paths, settings, secrets or its own files, revealing none', async () => {
      for (const sql of leaks(dir, connection)) {
        const r = await call(tool, { connection, sql });
        expect(r.isError, `${sql} → ${text(r)}`).toBe(true);
        expect(text(r), sql).toMatch(
          /^Query rejected: (.* is not available: it reads or changes engine-wide state|the engine's own files and the platform's storage cannot be named in SQL|\w+\(\) takes its file path as a literal string|COPY takes its file path as a literal string|.*statements are not available: they administer the engine)$/,
        );
        expectNoServerPaths(r);
      }
    });
  });

  it('engine-wide logging stayed off: the crash sequence left nothing behind, and queries run', async () => {
    const r = await call('sql_query', { connection: 'rw', sql: 'SELECT count(*) AS n FROM main.t' });
    expect(r.structuredContent).toMatchObject({ rows: [{ n: 10 }] });
  });

  it.each(reads)('still allows the read %s', async (sql) => {
    const r = await call('sql_query', { connection: 'ro', sql });
    expect(r.isError, text(r)).toBeFalsy();
    expectNoServerPaths(r);
  });

  it('file readers work under the directories the platform opens, with literal paths only', async () => {
    const ok = await call('sql_query', { connection: 'rw', sql: `SELECT * FROM read_csv('${allowed}/data.csv') ORDER BY a` });
    expect(ok.structuredContent).toMatchObject({ rows: [{ a: 1, b: 'x' }, { a: 2, b: 'y' }] });
    const built = await call('sql_query', { connection: 'rw', sql: `SELECT * FROM read_csv('${allowed}/' || 'data.csv')` });
    expect(text(built)).toBe('Query rejected: read_csv() takes its file path as a literal string');
  });

  it('engine errors leave without server paths', async () => {
    for (const sql of [`SELECT * FROM read_csv('${dir}/elsewhere.csv')`, `SELECT * FROM read_csv('${allowed}/missing.csv')`, "SELECT * FROM read_xlsx('x.xlsx')"]) {
      const r = await call('sql_query', { connection: 'rw', sql });
      expect(r.isError, sql).toBe(true);
      expect(text(r)).toMatch(/^Query failed: /);
      expectNoServerPaths(r);
    }
  });

  it('settings stay locked on every connection', async () => {
    const r = await call('sql_execute', { connection: 'rw', sql: "SET memory_limit = '100GB'" });
    expect(text(r)).toMatch(/^Execution failed: Invalid Input Error: Cannot change configuration option "memory_limit" - the configuration has been locked/);
  });

  it.each(['   ', '-- only a comment', ';', '/* nothing */ ;'])('an empty statement (%j) gets a clear answer', async (sql) => {
    for (const tool of ['sql_query', 'sql_execute', 'sql_explain']) {
      const r = await call(tool, { connection: 'rw', sql });
      expect(r.isError).toBe(true);
      expect(text(r)).toBe('Query rejected: no statement to run');
    }
  });
});
