/**
 * Read-only enforcement on DuckDB (its own statement classification), table-driven: sql_query
 * everywhere, and sql_execute on a `read_only: true` connection. Every refused statement leaves the
 * data as it was. (Trino's classifier has the same table in test/unit/sql-readonly.test.ts.)
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { anonymousCaller } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import type { CallToolResult, ToolDefinition } from '../../shared/mcp-tools/index.js';
import { createSqlToolkit, type DuckDbEngine, type SqlToolkit } from '../../shared/sql/index.js';

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

const refusals: Array<[string, string]> = [
  ['INSERT', 'INSERT INTO main.t VALUES (99)'],
  ['UPDATE', 'UPDATE main.t SET id = 0'],
  ['DELETE', 'DELETE FROM main.t'],
  ['MERGE', 'MERGE INTO main.t USING main.t AS s ON t.id = s.id WHEN MATCHED THEN DELETE'],
  ['CREATE', 'CREATE TABLE main.u (id INTEGER)'],
  ['DROP', 'DROP TABLE main.t'],
  ['ALTER', 'ALTER TABLE main.t ADD COLUMN c INTEGER'],
  ['TRUNCATE', 'TRUNCATE main.t'],
  ['GRANT', 'GRANT SELECT ON main.t TO someone'],
  ['CALL', 'CALL pragma_version()'],
  ['COPY', "COPY main.t TO '__COPY_TARGET__'"],
  ['a write after a comment', '/* reporting query */ -- really\nDELETE FROM main.t'],
  ['a second statement after ;', 'SELECT 1; DROP TABLE main.t'],
  ['a ; in a string, then a second statement', "SELECT ';' AS s; DELETE FROM main.t"],
  ['a CTE wrapping a write', 'WITH doomed AS (SELECT 1 AS id) INSERT INTO main.t SELECT id FROM doomed'],
  ['EXPLAIN ANALYZE of a write', 'EXPLAIN ANALYZE DELETE FROM main.t'],
  ['ATTACH', "ATTACH ':memory:' AS other"],
  ['SET', "SET memory_limit = '1GB'"],
  ['CHECKPOINT', 'CHECKPOINT'],
];

/** Statements that administer the engine: refused on every connection, whatever the read-only rule says. */
const engineAdministration = new Set(['CALL', 'ATTACH', 'CHECKPOINT']);

const acceptances: Array<[string, string]> = [
  ['SELECT', 'SELECT count(*) AS n FROM main.t'],
  ['WITH … SELECT', 'WITH x AS (SELECT id FROM main.t) SELECT count(*) AS n FROM x'],
  ['SHOW', 'SHOW TABLES'],
  ['DESCRIBE', 'DESCRIBE main.t'],
  ['EXPLAIN', 'EXPLAIN SELECT * FROM main.t'],
  ['VALUES', 'VALUES (1), (2)'],
  ['write keywords in strings and comments', "SELECT 'DELETE FROM main.t; DROP TABLE main.t' AS s -- DROP TABLE main.t"],
  ['a nested comment (DuckDB nests them)', '/* outer /* inner */ DROP TABLE main.t; */ SELECT 1 AS one'],
];

describe('read-only enforcement on DuckDB', () => {
  let dir: string;
  let toolkit: SqlToolkit;
  let tools: ToolDefinition[];
  let copyTarget: string;

  const call = (name: string, args: Record<string, unknown>) => {
    const tool = tools.find((t) => t.name === name)!;
    return tool.handler(tool.input.parse(args), { caller: anonymousCaller, signal: new AbortController().signal, log: silentLogger() });
  };
  const rowCount = async (connection: string) => {
    const r = await call('sql_query', { connection, sql: 'SELECT count(*) AS n FROM main.t' });
    return (r.structuredContent as { rows: Array<{ n: number }> }).rows[0]!.n;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sql-readonly-'));
    copyTarget = join(dir, 'copied.csv');
    const config = parseConfig(
      `
data_dir: ${dir}
toolkits:
  sql:
    rw:
      engine: duckdb
    ro:
      engine: duckdb
      read_only: true
`,
      {},
    ).config;
    // COPY's target must be readable by DuckDB at all, or it is refused for file access before the
    // read-only rule is reached.
    toolkit = createSqlToolkit(config, { log: silentLogger(), duckdbAllowedDirectories: [dir] });
    tools = toolkit.tools;
    for (const name of ['rw', 'ro']) await (toolkit.connection(name).engine as DuckDbEngine).exec('CREATE TABLE main.t AS SELECT range::INTEGER AS id FROM range(10)');
  });
  afterAll(async () => {
    await toolkit?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each([
    ['sql_query on a writable connection', 'sql_query', 'rw', /^Query rejected: write operations not allowed in sql_query: .*; use sql_execute/],
    ['sql_execute on a read-only connection', 'sql_execute', 'ro', /^Query rejected: write operations not allowed on read-only connection "ro": /],
  ])('%s', (_label, tool, connection, refusal) => {
    it.each(refusals)('refuses %s', async (kind, sql) => {
      const r = await call(tool, { connection, sql: sql.replace('__COPY_TARGET__', copyTarget) });
      expect(r.isError).toBe(true);
      if (kind === 'GRANT') {
        // DuckDB has no GRANT: its parser rejects it before anything could run.
        expect(text(r)).toMatch(/Parser Error: syntax error at or near "GRANT"/);
      } else if (engineAdministration.has(kind)) {
        // Refused on every connection, before the read-only rule (docs/sql.md, "Engine-wide state").
        expect(text(r)).toMatch(/^Query rejected: (CALL|ATTACH) statements are not available: they administer the engine$/);
      } else {
        expect(text(r)).toMatch(refusal);
      }
      expect(await rowCount(connection)).toBe(10);
      expect(existsSync(copyTarget)).toBe(false);
    });

    it.each(acceptances)('accepts %s', async (_kind, sql) => {
      const r = await call(tool, { connection, sql });
      expect(r.isError, text(r)).toBeFalsy();
      expect(await rowCount(connection)).toBe(10);
    });
  });

  it('names the write in the refusal', async () => {
    const r = await call('sql_query', { connection: 'rw', sql: 'WITH doomed AS (SELECT 1 AS id) INSERT INTO main.t SELECT id FROM doomed' });
    expect(text(r)).toBe(
      'Query rejected: write operations not allowed in sql_query: INSERT is not a read-only statement; use sql_execute for statements that change data',
    );
    const e = await call('sql_query', { connection: 'rw', sql: 'EXPLAIN ANALYZE DELETE FROM main.t' });
    expect(text(e)).toContain('EXPLAIN DELETE is not a read-only statement');
  });

  it('the same statements run through sql_execute on the writable connection', async () => {
    const r = await call('sql_execute', { connection: 'rw', sql: 'INSERT INTO main.t VALUES (10)' });
    expect(r.isError).toBeFalsy();
    expect(await rowCount('rw')).toBe(11);
    const copy = await call('sql_execute', { connection: 'rw', sql: `COPY main.t TO '${copyTarget}'` });
    expect(copy.isError, text(copy)).toBeFalsy();
    expect(existsSync(copyTarget)).toBe(true);
  });
});
