/** Read-only classification of Trino SQL (the two parsers), and the lexer it stands on. */
import { describe, expect, it } from 'vitest';
import { classifyTrino, requireRead, requireSingleStatement } from '../../shared/sql/index.js';
import { explainTarget, splitStatements, tokenize, SqlLexError } from '../../shared/sql/lexer.js';
import { trinoAstVerdict } from '../../shared/sql/readonly.js';

const readOnlyVerdict = (sql: string) => {
  const c = classifyTrino(sql);
  return requireRead(c, 'here').ok && requireSingleStatement(c).ok;
};

describe('Trino read-only classification: refusals', () => {
  it.each([
    ['INSERT', 'INSERT INTO hive.s.t VALUES (1)', 'INSERT'],
    ['UPDATE', "UPDATE hive.s.t SET a = 1 WHERE b = 'x'", 'UPDATE'],
    ['DELETE', 'DELETE FROM hive.s.t WHERE a = 1', 'DELETE'],
    ['MERGE', 'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE', 'MERGE'],
    ['CREATE', 'CREATE TABLE t AS SELECT * FROM s', 'CREATE'],
    ['DROP', 'DROP TABLE hive.s.t', 'DROP'],
    ['ALTER', 'ALTER TABLE t ADD COLUMN c integer', 'ALTER'],
    ['TRUNCATE', 'TRUNCATE TABLE t', 'TRUNCATE'],
    ['GRANT', 'GRANT SELECT ON t TO ROLE analyst', 'GRANT'],
    ['CALL', "CALL system.sync_partition_metadata('s', 't', 'ADD')", 'CALL'],
    ['COPY', "COPY t TO 's3://bucket/x'", 'COPY'],
    ['a write after a block comment', '/* just a select */ INSERT INTO t VALUES (1)', 'INSERT'],
    ['a write after a line comment', '-- SELECT 1\nDROP TABLE t', 'DROP'],
    ['a second statement after ;', 'SELECT 1; DROP TABLE t', 'DROP'],
    ['a ; inside a string, then a real second statement', "SELECT ';'; DELETE FROM t", 'DELETE'],
    ['a CTE wrapping a write (WITH … INSERT)', 'WITH a AS (SELECT 1 AS x) INSERT INTO t SELECT * FROM a', 'INSERT'],
    ['a write inside a CTE body', 'WITH a AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM a', 'INSERT'],
    ['EXPLAIN ANALYZE of a write', 'EXPLAIN ANALYZE INSERT INTO t VALUES (1)', 'EXPLAIN INSERT'],
    ['EXPLAIN of a write', 'EXPLAIN (TYPE IO) DELETE FROM t', 'EXPLAIN DELETE'],
    ['a Trino comment does not nest', '/* outer /* inner */ DROP TABLE t; */ SELECT 1', 'DROP'],
    ['SET SESSION', "SET SESSION query_max_run_time = '1h'", 'SET'],
    ['USE', 'USE hive.sales', 'USE'],
    ['parenthesised write', '(INSERT INTO t VALUES (1))', 'INSERT'],
  ])('refuses %s', (_label, sql, kind) => {
    const c = classifyTrino(sql);
    const decision = requireRead(c, 'in sql_query');
    expect(decision.ok).toBe(false);
    if (!decision.ok) {
      expect(decision.message).toMatch(/^write operations not allowed in sql_query: /);
      expect(decision.message).toContain(kind);
    }
  });
});

describe('Trino read-only classification: acceptance', () => {
  it.each([
    ['SELECT', 'SELECT a, b FROM hive.sales.orders WHERE a > 1'],
    ['WITH … SELECT', 'WITH recent AS (SELECT * FROM orders WHERE d > DATE \'2024-01-01\') SELECT count(*) FROM recent'],
    ['WITH RECURSIVE with column list', 'WITH RECURSIVE t(n) AS (VALUES 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT * FROM t'],
    ['SHOW CATALOGS', 'SHOW CATALOGS'],
    ['SHOW SCHEMAS FROM', 'SHOW SCHEMAS FROM hive'],
    ['SHOW TABLES FROM', 'SHOW TABLES FROM "hive"."sales" LIKE \'ord%\''],
    ['SHOW CREATE TABLE', 'SHOW CREATE TABLE hive.sales.orders'],
    ['DESCRIBE', 'DESCRIBE "hive"."sales"."orders"'],
    ['DESC', 'DESC orders'],
    ['EXPLAIN', 'EXPLAIN SELECT 1'],
    ['EXPLAIN with options', 'EXPLAIN (TYPE DISTRIBUTED, FORMAT TEXT) SELECT * FROM orders'],
    ['EXPLAIN ANALYZE of a read', 'EXPLAIN ANALYZE SELECT count(*) FROM orders'],
    ['VALUES', 'VALUES (1, 2), (3, 4)'],
    ['TABLE', 'TABLE hive.sales.orders'],
    ['parenthesised query', '(SELECT 1) UNION ALL (SELECT 2)'],
    ['a trailing semicolon', 'SELECT 1;'],
    ['write keywords inside strings and comments', "SELECT 'DROP TABLE t; DELETE FROM t' AS s -- INSERT INTO t\n/* ; UPDATE t SET a = 1 */"],
    ['lambdas and UNNEST', 'SELECT transform(ARRAY[1, 2], x -> x + 1), u.v FROM UNNEST(ARRAY[1]) AS u(v)'],
    ['quoted identifiers named like keywords', 'SELECT "insert", "drop""table" FROM "delete"'],
  ])('accepts %s', (_label, sql) => {
    expect(readOnlyVerdict(sql)).toBe(true);
  });

  it('requires exactly one statement', () => {
    expect(requireSingleStatement(classifyTrino('SELECT 1; SELECT 2'))).toEqual({ ok: false, message: 'one statement per call, got 2' });
    expect(requireSingleStatement(classifyTrino(' ; -- nothing\n'))).toEqual({ ok: false, message: 'no statement to run' });
  });

  it('node-sql-parser finds a write anywhere in its AST and abstains on what it cannot parse', () => {
    // Consulted for every statement it can parse; both it and the grammar must call it a read.
    expect(trinoAstVerdict('WITH a AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM a')).toMatchObject({ read: false, kind: 'INSERT' });
    expect(trinoAstVerdict('SELECT 1')).toEqual({ read: true, kind: 'SELECT' });
    expect(trinoAstVerdict('SHOW SCHEMAS FROM hive')).toBeUndefined();
  });

  it('fails closed on unterminated strings and comments', () => {
    expect(() => classifyTrino("SELECT 'abc")).toThrow(SqlLexError);
    expect(() => classifyTrino('SELECT 1 /* open')).toThrow(SqlLexError);
    expect(() => classifyTrino('SELECT "x')).toThrow(SqlLexError);
  });
});

describe('lexer', () => {
  it('splits on ; outside literals and comments only', () => {
    const parts = splitStatements(tokenize("SELECT ';' -- ;\n; SELECT \"a;b\" /* ; */;", 'trino'));
    expect(parts.map((p) => p.map((t) => t.text).join(' '))).toEqual(["SELECT ';'", 'SELECT "a;b"']);
  });

  it('nests block comments for DuckDB, not for Trino', () => {
    const sql = '/* a /* b */ c */ SELECT 1';
    expect(tokenize(sql, 'duckdb').map((t) => t.text)).toEqual(['SELECT', '1']);
    expect(tokenize(sql, 'trino').map((t) => t.text)).toEqual(['c', '*', '/', 'SELECT', '1']);
  });

  it('reads DuckDB dollar-quoted and escape strings as single tokens', () => {
    expect(tokenize("SELECT $$a;'b$$, $x$;$x$, E'it\\'s;'", 'duckdb').filter((t) => t.type === 'string').map((t) => t.text)).toEqual([
      "$$a;'b$$",
      '$x$;$x$',
      "E'it\\'s;'",
    ]);
  });

  it('finds the explained statement', () => {
    const t = tokenize('EXPLAIN ANALYZE VERBOSE SELECT 1', 'trino');
    expect(explainTarget(t)).toEqual({ index: 3, analyze: true });
    const o = tokenize('EXPLAIN (TYPE IO, FORMAT JSON) SELECT 1', 'trino');
    expect(o[explainTarget(o)!.index]!.upper).toBe('SELECT');
    const q = tokenize('EXPLAIN (SELECT 1)', 'trino');
    expect(explainTarget(q)).toEqual({ index: 1, analyze: false });
  });
});
